import AutoTrackConformanceCore
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackReferenceUI
import Foundation
import Testing

/// The explorer of the reference host on the model.
private let explorer = Explorer(host: ReferenceHostExploration())

/// One subject's result over `sessions` sessions from seed 1.
private func explore(_ subject: ConformanceSubject, sessions: Int) -> ExplorationResult<ReferenceHostStep> {
    explorer.explore([subject], sessions: sessions, seed: 1)[0]
}

@Suite("Exploration: generated sessions against the app without the subject and the specification")
struct ExplorationTests {
    static let builtInHooks = BuiltInHooks.all().map(\.name)

    @Test("every built-in hook keeps the contract over generated sessions", arguments: builtInHooks)
    func builtInHookPasses(_ name: String) throws {
        let hook = try #require(BuiltInHooks.all().first { $0.name == name })
        let result = explore(ConformanceSubject(any: hook), sessions: 40)
        #expect(result.sessions == 40)
        #expect(result.passed, "\(result.counterexamples.map(\.report).joined(separator: "\n\n")) \(result.errors)")
    }

    @Test("every hand-written mutant is caught by generated sessions alone", arguments: Mutants.all.map(\.subject.name))
    func handWrittenMutantCaught(_ name: String) throws {
        let mutant = try #require(Mutants.all.first { $0.subject.name == name })
        let result = explore(mutant.subject, sessions: 30)
        #expect(!result.passed, "no session told \(name) apart from the app without it")
    }

    @Test("the same seed generates the same session, another seed another")
    func sessionsAreSeeded() {
        #expect(explorer.session(seed: 7) == explorer.session(seed: 7))
        #expect(explorer.session(seed: 7) != explorer.session(seed: 8))
    }

    @Test("a failing session is shrunk to the steps that matter, and still fails the same rule")
    func shrinking() throws {
        let mutant = try #require(Mutants.all.first { $0.subject.name == "mutant/delegate/no-reentrancy-guard" })
        let result = explore(mutant.subject, sessions: 30)
        let counterexample = try #require(result.counterexamples.first)
        #expect(counterexample.steps.count < counterexample.generatedSteps)
        #expect(counterexample.steps.count <= 5, "\(counterexample.program)")
        // Replaying the shrunk program fails at the step it names, for the same rule.
        let replayed = try #require(try explorer.firstDifference(counterexample.steps, subject: mutant.subject))
        #expect(replayed == counterexample.difference)
        // No step can be left out: each shorter program passes or fails otherwise.
        for index in counterexample.steps.indices {
            var shorter = counterexample.steps
            shorter.remove(at: index)
            let difference = try explorer.firstDifference(shorter, subject: mutant.subject)
            #expect(difference?.rule != counterexample.difference.rule, "step \(index + 1) was not needed: \(counterexample.program)")
        }
        #expect(counterexample.program.contains("→"))
        #expect(counterexample.report.contains("seed \(counterexample.seed)"))
        let source = counterexample.regressionSource(id: "EXP-99", point: "delegateSelection")
        #expect(source.contains(#"id: "EXP-99", point: .delegateSelection"#))
        for step in counterexample.steps { #expect(source.contains(step.swiftSource)) }
    }

    @Test("a report says who failed, in text, JUnit and an HTML page that escapes what it shows")
    func reports() throws {
        let mutant = try #require(Mutants.all.first { $0.subject.name == "mutant/send-action/skips-original" })
        let hook = ConformanceSubject(ControlSendActionHook())
        let results = explorer.explore([hook, mutant.subject], sessions: 5, seed: 1)
        let report = ExplorationReport(seed: 1, sessions: 5, seconds: 0.5, results: results)
        #expect(!report.passed)
        #expect(report.summary.contains("send-action/control: 5 sessions"))
        #expect(report.summary.contains("1 subjects with counterexamples"))
        #expect(report.junit.contains(#"tests="2" failures="1""#))
        #expect(report.junit.contains(#"<testcase classname="exploration" name="send-action/control"/>"#))
        #expect(report.html.contains("<td class=fail>FAIL</td>"))
        #expect(!report.html.contains("<script"))
        // Programs quote titles; the page shows them escaped.
        #expect(report.counterexamples.contains { $0.program.contains("\"") })
        #expect(!report.html.contains("button \"") && report.html.contains("button &quot;"))
        let decoded = try JSONDecoder().decode(ExplorationReport.self, from: report.jsonData())
        #expect(decoded == report)
    }

    @Test("the kept counterexamples (EXP-) pass for every built-in hook at their point", arguments: ExplorationRegressions.sessions.map(\.id))
    func keptSessions(_ id: String) throws {
        let session = try #require(ExplorationRegressions.sessions.first { $0.id == id })
        for hook in BuiltInHooks.all() where session.point == nil || hook.point == session.point {
            #expect(try explorer.firstDifference(session.steps, subject: ConformanceSubject(any: hook)) == nil, "\(hook.name)")
        }
    }
}

@Suite("A hook that wraps both send-action levels")
struct TwoLevelSendActionTests {
    /// The control's and the application's send-action hooks installed as one: a tap
    /// passes both levels, and the other library hooking both sees it twice.
    static let subject: ConformanceSubject = {
        let control = ControlSendActionHook()
        let application = ApplicationSendActionHook()
        return ConformanceSubject(
            name: "send-action/both-levels", point: .sendAction, hookedMethods: control.hookedMethods + application.hookedMethods
        ) { host, context throws(HookError) in
            let handles = [try control.install(on: host, context: context), try application.install(on: host, context: context)]
            return HookHandle(name: "send-action/both-levels") { () throws(HookError) -> HookState in
                for handle in handles.reversed() { try handle.uninstall() }
                return handles.allSatisfy { $0.state == .uninstalled } ? .uninstalled : .passThrough
            }
        }
    }()

    @Test("passes the scenarios that stack other libraries on the methods it declares",
          arguments: ["GEN-07", "GEN-08", "GEN-09", "GEN-10", "GEN-11", "GEN-12"])
    func otherLibraries(_ id: String) throws {
        let scenario = try #require(ScenarioCatalog.all.first { $0.id == id })
        let report = Conformance.evaluate(Self.subject, scenarios: [scenario])
        #expect(report.violations.isEmpty, "\(report.violations)")
    }
}
