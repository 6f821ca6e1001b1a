import AutoTrackConformance
import AutoTrackConformanceCore
import AutoTrackInterception
import AutoTrackReferenceUI
import Testing

/// The copy-paste conformance test of a hook: its point's whole catalog, one Swift
/// Testing case per scenario.
@Suite("Hooks written from the public API pass their point's whole catalog")
struct ThirdPartyConformanceTests {
    @Test(arguments: ScenarioCatalog.scenarios(for: .sendAction))
    func applicationClicks(scenario: Scenario) {
        expectConformance(ConformanceSubject(ApplicationClicks()), scenario: scenario)
    }

    @Test(arguments: ScenarioCatalog.scenarios(for: .gesture))
    func recognizerClicks(scenario: Scenario) {
        expectConformance(ConformanceSubject(RecognizerClicks()), scenario: scenario)
    }

    @Test(arguments: ScenarioCatalog.scenarios(for: .alertAction))
    func alertClicks(scenario: Scenario) {
        expectConformance(ConformanceSubject(AlertClicks()), scenario: scenario)
    }

    @Test(arguments: ScenarioCatalog.scenarios(for: .delegateSelection))
    func selectionClicks(scenario: Scenario) {
        expectConformance(ConformanceSubject(SelectionClicks()), scenario: scenario)
    }

    @Test(arguments: ScenarioCatalog.scenarios(for: .screenView))
    func screenViews(scenario: Scenario) {
        expectConformance(ConformanceSubject(ScreenViews()), scenario: scenario)
    }
}

/// A hook whose declaration is wrong: it wraps `viewDidDisappear:` too but declares
/// only `viewDidAppear:`, and declares `viewWillAppear:`, which it never touches.
final class MisdeclaredScreenViews: InterceptionHook {
    let wrapped = ScreenViews()
    let point = InterceptionPoint.screenView
    let name = "third-party/misdeclared"
    let hookedMethods = [HookedMethod("UIViewController", "viewDidAppear:"), HookedMethod("UIViewController", "viewWillAppear:")]

    func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        try wrapped.install(on: host, context: context)
    }
}

/// A hook that declares nothing: the stacking scenarios would stack no other library
/// on it and silently test less.
final class UndeclaredScreenViews: InterceptionHook {
    let wrapped = ScreenViews()
    let point = InterceptionPoint.screenView
    let name = "third-party/undeclared"
    let hookedMethods: [HookedMethod] = []

    func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        try wrapped.install(on: host, context: context)
    }
}

@Suite("The kit checks a hook's declared methods against what installing changed")
struct DeclarationTests {
    @Test("a wrong declaration is a violation in every scenario, naming both differences")
    func misdeclared() throws {
        let report = Conformance.evaluate(ConformanceSubject(MisdeclaredScreenViews()))
        let gen01 = try #require(report.outcomes.first { $0.scenarioID == "GEN-01" })
        let observed = gen01.violations.filter { $0.rule == .lifecycle }.map(\.observed)
        #expect(observed.contains { $0.contains("-[UIViewController viewWillAppear:]") }, "declared but not changed: \(observed)")
        #expect(observed.contains { $0.contains("-[UIViewController viewDidDisappear:]") }, "changed but not declared: \(observed)")
        #expect(report.outcomes.allSatisfy { !$0.passed }, "passed: \(report.outcomes.filter(\.passed).map(\.scenarioID))")
    }

    @Test("an empty declaration fails instead of weakening the stacking scenarios")
    func undeclared() throws {
        let report = Conformance.evaluate(ConformanceSubject(UndeclaredScreenViews()))
        for id in ["GEN-07", "GEN-08", "GEN-09", "GEN-10", "GEN-11", "GEN-12"] {
            let outcome = try #require(report.outcomes.first { $0.scenarioID == id })
            #expect(!outcome.passed, "\(id)")
        }
    }

    @Test("the same hook with the right declaration passes")
    func declared() {
        #expect(Conformance.evaluate(ConformanceSubject(ScreenViews())).passed)
    }
}
