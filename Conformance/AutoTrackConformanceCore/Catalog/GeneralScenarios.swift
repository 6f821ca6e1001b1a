import AutoTrackEvents
import AutoTrackInterception
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import AutoTrackTesting
import Dispatch
import Foundation
import Synchronization

/// Scenarios that hold at every interception point, run through the point's
/// ``PointFixture``.
enum GeneralScenarios {
    static func fixture(_ run: ScenarioRun) -> PointFixture { PointFixture.of(run.subject.point) }

    static let all: [Scenario] = [
        Scenario(
            id: "GEN-01", point: nil, title: "baseline: one user action",
            failure: "Hooks that skip or repeat the original, or record nothing, on the simplest action.",
            rules: [.originalOnce, .oneInteraction]
        ) { run in
            let fixture = fixture(run)
            try run.install()
            try fixture.prepare(run)
            try fixture.trigger(run)
            run.expectCounts(original: fixture.original, originals: 1, interactions: 1)
        },
        Scenario(
            id: "GEN-02", point: nil, title: "the interaction is recorded before the original runs",
            failure: "Tracking after the original: a click is ordered after the screen view its action opens.",
            rules: [.recordThenForward]
        ) { run in
            let fixture = fixture(run)
            try run.install()
            try fixture.prepare(run)
            try fixture.trigger(run)
            let order = run.log.all.filter { $0 == .click || $0 == fixture.original }
            run.expect(.recordThenForward, "order of click and original", expected: [.click, fixture.original], observed: order)
        },
        Scenario(
            id: "GEN-03", point: nil, title: "installed twice: takes effect once",
            failure: "SDK set-up called twice (app and a plugin) doubles every event.",
            rules: [.lifecycle, .oneInteraction]
        ) { run in
            let fixture = fixture(run)
            try run.install()
            try run.install()
            try fixture.prepare(run)
            try fixture.trigger(run)
            run.expectCounts(original: fixture.original, originals: 1, interactions: 1)
        },
        Scenario(
            id: "GEN-04", point: nil, title: "installed from 8 threads at once: exactly one takes effect",
            failure: "Racing `dispatch_once`-less swizzles from several threads double-swizzle or undo each other.",
            rules: [.lifecycle, .oneInteraction]
        ) { run in
            let fixture = fixture(run)
            let group = DispatchGroup()
            let failures = Atomic<Int>(0)
            let before = FrameworkMethods(run.host)
            for _ in 0..<8 {
                group.enter()
                let thread = Thread {
                    do { _ = try run.subject.install(on: run.host, context: run.context) } catch { failures.add(1, ordering: .relaxed) }
                    group.leave()
                }
                thread.start()
            }
            group.wait()
            run.checkDeclaration(changed: before.changes(to: FrameworkMethods(run.host)))
            run.expect(.lifecycle, "failed installs", expected: 0, observed: failures.load(ordering: .relaxed))
            try fixture.prepare(run)
            try fixture.trigger(run)
            run.expectCounts(original: fixture.original, originals: 1, interactions: 1)
        },
        Scenario(
            id: "GEN-05", point: nil, title: "uninstalled: the original behaviour is back",
            failure: "Unhooking leaves a dangling wrapper that still records, or breaks the method.",
            rules: [.lifecycle, .originalOnce]
        ) { run in
            let fixture = fixture(run)
            let handle = try run.install()
            try handle.uninstall()
            try fixture.prepare(run)
            try fixture.trigger(run)
            run.expectCounts(original: fixture.original, originals: 1, interactions: 0)
        },
        Scenario(
            id: "GEN-06", point: nil, title: "uninstalled after use, then reinstalled",
            failure: "Reinstalling after an uninstall (user opt-out, opt-in) records nothing or twice.",
            rules: [.lifecycle, .oneInteraction]
        ) { run in
            let fixture = fixture(run)
            let handle = try run.install()
            try fixture.prepare(run)
            try fixture.trigger(run)
            try handle.uninstall()
            try fixture.trigger(run)
            try run.install()
            try fixture.trigger(run)
            run.expectCounts(original: fixture.original, originals: 3, interactions: 2)
        },
        foreign(id: "GEN-07", style: "exchange", before: true,
                failure: "Another SDK's method exchange installed first: ours must wrap it, not bypass it."),
        foreign(id: "GEN-08", style: "exchange", before: false,
                failure: "Another SDK exchanging the same method after ours must still reach our wrapper and the original."),
        foreign(id: "GEN-09", style: "replace", before: true,
                failure: "An IMP-replacing hook (Aspects-style) installed first."),
        foreign(id: "GEN-10", style: "replace", before: false,
                failure: "An IMP-replacing hook installed after ours captures our wrapper as its original."),
        Scenario(
            id: "GEN-11", point: nil, title: "ours uninstalled while another library's hook sits on top",
            failure: "Restoring the saved IMP blindly removes the other library's hook installed after ours.",
            rules: [.lifecycle, .originalOnce]
        ) { run in
            let fixture = fixture(run)
            let handle = try run.install()
            for hooked in run.subject.hookedMethods { OtherLibraryHooks.exchange(hooked, as: .otherLibrary, runtime: run.runtime, log: run.log) }
            try handle.uninstall()
            try fixture.prepare(run)
            try fixture.trigger(run)
            run.expectCounts(original: fixture.original, originals: 1, interactions: 0)
            if triggerCallsHookedMethod(run.subject) {
                let expected = try callsWithoutSubject(run, of: [.otherLibrary]) { hookOthers("exchange", in: $0) }
                run.expect(.lifecycle, "calls of the other library's hook", expected: expected[0], observed: triggerCalls(.otherLibrary, run))
            }
        },
        Scenario(
            id: "GEN-12", point: nil, title: "three hooks stacked: ours between two other libraries'",
            failure: "Several analytics SDKs in one app (GrowingIO, Sensors, Firebase) on the same method.",
            rules: [.lifecycle, .originalOnce, .oneInteraction]
        ) { run in
            let fixture = fixture(run)
            for hooked in run.subject.hookedMethods { OtherLibraryHooks.exchange(hooked, as: .firstLibrary, runtime: run.runtime, log: run.log) }
            try run.install()
            for hooked in run.subject.hookedMethods { OtherLibraryHooks.replace(hooked, as: .thirdLibrary, runtime: run.runtime, log: run.log) }
            try fixture.prepare(run)
            try fixture.trigger(run)
            run.expectCounts(original: fixture.original, originals: 1, interactions: 1)
            if triggerCallsHookedMethod(run.subject) {
                let expected = try callsWithoutSubject(run, of: [.firstLibrary, .thirdLibrary]) { others in
                    for hooked in others.subject.hookedMethods { OtherLibraryHooks.exchange(hooked, as: .firstLibrary, runtime: others.runtime, log: others.log) }
                    for hooked in others.subject.hookedMethods { OtherLibraryHooks.replace(hooked, as: .thirdLibrary, runtime: others.runtime, log: others.log) }
                }
                run.expect(.lifecycle, "calls of the first library", expected: expected[0], observed: triggerCalls(.firstLibrary, run))
                run.expect(.lifecycle, "calls of the third library", expected: expected[1], observed: triggerCalls(.thirdLibrary, run))
            }
        },
        Scenario(
            id: "GEN-13", point: nil, title: "a sink that throws",
            failure: "An exception in the tracking path (full disk, bad JSON) aborts the user's tap.",
            rules: [.failOpen, .originalOnce]
        ) { run in
            let failing = try run.variant(sink: InMemoryInteractionSink(failingWith: InMemoryInteractionSink.Failure()))
            let fixture = fixture(failing)
            try failing.install()
            try fixture.prepare(failing)
            try fixture.trigger(failing)
            run.expect(.failOpen, "calls of \(fixture.original)", expected: 1, observed: failing.log.count(fixture.original))
            run.adopt(failing)
        },
        Scenario(
            id: "GEN-14", point: nil, title: "tracking disabled at run time",
            failure: "A user opts out: hooks must stop recording without breaking or repeating anything.",
            rules: [.originalOnce, .filters]
        ) { run in
            let fixture = fixture(run)
            try run.install()
            try fixture.prepare(run)
            run.context.isEnabled = false
            try fixture.trigger(run)
            run.context.isEnabled = true
            try fixture.trigger(run)
            run.expectCounts(original: fixture.original, originals: 2, interactions: 1)
        },
        Scenario(
            id: "GEN-15", point: nil, title: "1 000 user actions in a row",
            failure: "Counters that drift: state left behind by one action affects the next.",
            rules: [.originalOnce, .oneInteraction]
        ) { run in
            let fixture = fixture(run)
            try run.install()
            try fixture.prepare(run)
            for _ in 0..<1000 { try fixture.trigger(run) }
            run.expectCounts(original: fixture.original, originals: 1000, interactions: 1000)
        },
        Scenario(
            id: "GEN-16", point: nil, title: "the original sees its own selector",
            failure: "Exchange-based hooks run the original under the swizzled name, breaking code that checks `_cmd`.",
            rules: [.transparency]
        ) { run in
            let fixture = fixture(run)
            var probed = run.subject.hookedMethods
            switch run.subject.point {
            case .delegateSelection: probed.append(.init("MyTableDelegate", "tableView:didSelectRowAtIndexPath:"))
            case .openURL: probed.append(.init("AppDelegate", "application:openURL:options:"))
            case .notificationResponse: probed.append(.init("AppDelegate", "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:"))
            default: break
            }
            for hooked in probed { OtherLibraryHooks.selectorProbe(hooked, runtime: run.runtime, log: run.log) }
            try run.install()
            try fixture.prepare(run)
            try fixture.trigger(run)
            let seen = Set(run.log.all.filter { $0.kind == .selectorProbe })
            let allowed = Set(probed.map { AppLogEntry(.selectorProbe, detail: $0.selector) })
            run.expect(.transparency, "selectors the originals ran with", expected: [String](), observed: seen.subtracting(allowed).map(\.description).sorted())
        },
        Scenario(
            id: "GEN-17", point: nil, title: "a second context (another tracker) installs on the same host",
            failure: "A second tracker's set-up silently gets the first one's installation: none of its events ever arrive.",
            rules: [.lifecycle, .oneInteraction]
        ) { run in
            let fixture = fixture(run)
            try run.install()
            let secondSink = InMemoryInteractionSink()
            var refused = false
            do {
                _ = try run.subject.install(on: run.host, context: InteractionContext(sink: secondSink))
            } catch {
                refused = true
            }
            try fixture.prepare(run)
            try fixture.trigger(run)
            run.expectCounts(original: fixture.original, originals: 1, interactions: 1)
            if !refused {
                run.expect(.lifecycle, "interactions of the second context, whose install did not refuse", expected: 1, observed: secondSink.count)
            }
        },
    ]

    /// Whether one user action at the subject's point calls the hooked method itself
    /// (rather than only at set-up, like `addGestureRecognizer:` or `setDelegate:`).
    static func triggerCallsHookedMethod(_ subject: ConformanceSubject) -> Bool {
        subject.point == .sendAction || subject.point == .screenView || subject.point == .touchEnd || subject.point == .swiftUITap
    }

    /// The methods one user action calls: the send-action methods, `viewDidAppear:`
    /// and `sendEvent:` (once per phase of a touch).
    static let triggerSelectors = ["sendAction:to:forEvent:", "sendAction:to:from:forEvent:", "viewDidAppear:", "sendEvent:"]

    /// How often the other library's hook `prefix` ran on a trigger method.
    static func triggerCalls(_ library: AppLogEntry.Kind, _ run: ScenarioRun) -> Int {
        let entries = Set(triggerSelectors.map { AppLogEntry(library, detail: $0) })
        return run.log.all.filter { entries.contains($0) }.count
    }

    /// How often each library in `libraries` runs on the trigger methods for one user
    /// action in an app where only `hookOthers` hooked: what those libraries must see
    /// with the subject installed too. A hook that wraps one user action's path at two
    /// levels (the control's and the application's send-action) meets another library
    /// there twice, as the app without it does.
    static func callsWithoutSubject(
        _ run: ScenarioRun, of libraries: [AppLogEntry.Kind], hookOthers: (ScenarioRun) -> Void
    ) throws -> [Int] {
        let others = try run.variant()
        let fixture = fixture(others)
        hookOthers(others)
        try fixture.prepare(others)
        try fixture.trigger(others)
        return libraries.map { triggerCalls($0, others) }
    }

    /// Another library hooks every method the subject declares, in `style`.
    static func hookOthers(_ style: String, in run: ScenarioRun) {
        for hooked in run.subject.hookedMethods {
            if style == "exchange" {
                OtherLibraryHooks.exchange(hooked, as: .otherLibrary, runtime: run.runtime, log: run.log)
            } else {
                OtherLibraryHooks.replace(hooked, as: .otherLibrary, runtime: run.runtime, log: run.log)
            }
        }
    }

    static func foreign(id: String, style: String, before: Bool, failure: String) -> Scenario {
        Scenario(
            id: id, point: nil, title: "another library's \(style)-style hook installed \(before ? "before" : "after") ours",
            failure: failure, rules: [.lifecycle, .originalOnce, .oneInteraction]
        ) { run in
            let fixture = fixture(run)
            if before { hookOthers(style, in: run) }
            try run.install()
            if !before { hookOthers(style, in: run) }
            try fixture.prepare(run)
            try fixture.trigger(run)
            run.expectCounts(original: fixture.original, originals: 1, interactions: 1)
            if triggerCallsHookedMethod(run.subject) {
                let expected = try callsWithoutSubject(run, of: [.otherLibrary]) { hookOthers(style, in: $0) }
                run.expect(.lifecycle, "calls of the other library's hook", expected: expected[0], observed: triggerCalls(.otherLibrary, run))
            }
        }
    }
}
