import AutoTrackConformanceCore
import AutoTrackInterception
#if AUTOTRACK_OBJC
import AutoTrackEvents
import AutoTrackObjCBackend
import AutoTrackObjCHooks
import AutoTrackProperties
#endif
import Foundation

/// The catalog on the real Objective-C runtime: the delegate-selection hooks built for
/// it (`ObjCDelegateSelectionHook`, both techniques) against scenarios on the app's own
/// compiled classes. Every scenario runs in a child process (`objc-scenario`): on the
/// real runtime a broken hook crashes rather than throws, and a crash, an abort or a
/// hang becomes a violation carrying the signal and the transcript so far.
enum ObjCConformance {
    /// One real-runtime scenario.
    struct Scenario: Sendable {
        let id: String
        let title: String
        let failure: String
        var point = "delegate-selection"
    }

    static let scenarios: [Scenario] = [
        Scenario(id: "OAA-1", title: "an alert action tapped: one click with its title, before its handler; the handler once",
                 failure: "alert taps lost, or recorded after the handler dismissed the screen", point: "alert-action"),
        Scenario(id: "OAA-2", title: "an action made without a handler: still one click",
                 failure: "Cancel buttons without handlers never counted", point: "alert-action"),
        Scenario(id: "OAA-3", title: "two actions, each tapped: a click for each, with its own title",
                 failure: "one action's click reported with another's title", point: "alert-action"),
        Scenario(id: "OAA-4", title: "after uninstall: handlers (of actions made before and after) once, nothing recorded",
                 failure: "an uninstalled hook still records, or skips the handler", point: "alert-action"),
        Scenario(id: "OAA-5", title: "tracking disabled: nothing recorded; enabled again: one click",
                 failure: "a disabled SDK keeps recording (the user opted out)", point: "alert-action"),
        Scenario(id: "OAA-6", title: "an action made before an uninstall and a reinstall: one click when tapped, its handler once",
                 failure: "alert actions made before a reinstall are never counted again", point: "alert-action"),
        Scenario(id: "ODS-1", title: "a tap on a delegate: one interaction, then its method once; -class is the app's",
                 failure: "double or missing $AppClick on a row, or the snapshot taken after the app changed the screen"),
        Scenario(id: "ODS-2", title: "a delegate subclass whose override calls super: both originals once, one interaction",
                 failure: "the superclass's wrapper records the same tap again (Sensors' double-click reports)"),
        Scenario(id: "ODS-3", title: "observed by KVO before the hook: one notification, one interaction per tap, -class is the app's",
                 failure: "a dynamic subclass over KVO's class: wrong -class, then a crash on the next observed change"),
        Scenario(id: "ODS-4", title: "observed by KVO after the hook: one notification, one interaction per tap, observer removable",
                 failure: "KVO added on top of a hook's subclass loses notifications or cannot be removed"),
        Scenario(id: "ODS-5", title: "after uninstall: the method once, nothing recorded",
                 failure: "an uninstalled hook still records, or skips the original"),
        Scenario(id: "ODS-6", title: "tracking disabled: the method once, nothing recorded; enabled again: recorded",
                 failure: "a disabled SDK keeps recording (the user opted out)"),
        Scenario(id: "OSA-1", title: "a touch on a control with two target-actions: one click, before the first action; each action once",
                 failure: "two $AppClick for one tap on a control with two targets", point: "send-action"),
        Scenario(id: "OSA-2", title: "an action sent from code (no event): the action once, no click",
                 failure: "programmatic sends reported as user clicks", point: "send-action"),
        Scenario(id: "OSA-3", title: "two touches: two clicks, each action twice",
                 failure: "the second tap deduplicated against the first", point: "send-action"),
        Scenario(id: "OSA-4", title: "after uninstall: each action once, nothing recorded",
                 failure: "an uninstalled hook still records, or skips the original", point: "send-action"),
        Scenario(id: "OSA-5", title: "tracking disabled: nothing recorded; enabled again: one click",
                 failure: "a disabled SDK keeps recording (the user opted out)", point: "send-action"),
        Scenario(id: "OSA-6", title: "uninstalled, then installed again: one click per touch (not two), each action once",
                 failure: "a reinstall that stacks a second wrapper: two clicks per tap", point: "send-action"),
        Scenario(id: "OSA-7", title: "another library stacked over ours; ours uninstalled: theirs and each action once, no click; reinstalled: one click",
                 failure: "uninstalling under another library's hook breaks its chain or keeps recording", point: "send-action"),
        Scenario(id: "OSA-8", title: "ours installed over another library's wrapper: one click, theirs once, each action once",
                 failure: "a hook that skips or repeats the wrapper it found", point: "send-action"),
        Scenario(id: "OGR-1", title: "a recognized tap: one click, before the app's action; the action once",
                 failure: "a banner tap recorded after the app navigated away, or twice", point: "gesture"),
        Scenario(id: "OGR-2", title: "a recognizer with two targets: one click, each action once",
                 failure: "one tap, two $AppClick (one per target)", point: "gesture"),
        Scenario(id: "OGR-3", title: "a recognizer the app gave no target: no click",
                 failure: "clicks on views whose recognizer does nothing for the app (system recognizers)", point: "gesture"),
        Scenario(id: "OGR-4", title: "after uninstall: the action once, nothing recorded",
                 failure: "an uninstalled hook still records, or skips the original", point: "gesture"),
        Scenario(id: "OGR-5", title: "tracking disabled: nothing recorded; enabled again: one click",
                 failure: "a disabled SDK keeps recording (the user opted out)", point: "gesture"),
        Scenario(id: "ODS-7", title: "uninstalled, then installed again: one interaction per tap (not two), the method once",
                 failure: "a reinstall that stacks a second wrapper or subclass: two clicks per row"),
        Scenario(id: "ODS-8", title: "another library wraps the delegate's method after ours; ours uninstalled: theirs and the method once, nothing recorded",
                 failure: "uninstalling under another library's hook breaks its chain or keeps recording"),
        Scenario(id: "OGR-6", title: "uninstalled, then installed again: one click per recognized tap (not two), the action once",
                 failure: "a reinstall that stacks a second wrapper: two clicks per tap", point: "gesture"),
        Scenario(id: "OSV-1", title: "a controller whose override calls super: one screen view per appearance, before the override runs",
                 failure: "two $AppViewScreen per appearance (base and override both wrapped), or none", point: "screen-view"),
        Scenario(id: "OSV-2", title: "an override that never calls super: one screen view per appearance",
                 failure: "screens whose viewDidAppear: skips super are never seen (a hook on the base class alone)", point: "screen-view"),
        Scenario(id: "OSV-3", title: "a controller class registered after install, its override without super: one screen view",
                 failure: "classes loaded later (a framework, a feature module) are never seen", point: "screen-view"),
        Scenario(id: "OSV-4", title: "after uninstall: every appearance method once, nothing recorded",
                 failure: "an uninstalled hook still records, or skips the original", point: "screen-view"),
        Scenario(id: "OSV-5", title: "tracking disabled: nothing recorded; enabled again: one screen view",
                 failure: "a disabled SDK keeps recording (the user opted out)", point: "screen-view"),
        Scenario(id: "OSV-6", title: "uninstalled, then installed again: one screen view per appearance (not two) for a controller shown before",
                 failure: "screens shown before a reinstall never seen again, or seen twice", point: "screen-view"),
    ]

    /// The combinator's mutation operators, by name.
    static var operators: [String] { InterceptionMutation.allCases.map(\.description) }

    /// One hook the real-runtime catalog runs: a built-in one, or a deliberately broken
    /// one with the scenarios that must catch it.
    struct Subject: Sendable {
        let name: String
        let point: String
        /// Empty for a built-in hook.
        var caughtBy: [String] = []
    }

    /// Every subject, built-in hooks first.
    static let subjects: [Subject] = [
        Subject(name: "objc-send-action", point: "send-action"),
        Subject(name: "objc-gesture", point: "gesture"),
        Subject(name: "objc-alert-action", point: "alert-action"),
        Subject(name: "objc-delegate-selection-method-wrapping", point: "delegate-selection"),
        Subject(name: "objc-delegate-selection-dynamic-subclass", point: "delegate-selection"),
        Subject(name: "objc-delegate-selection-forwarding-proxy", point: "delegate-selection"),
        Subject(name: "objc-screen-view", point: "screen-view"),
        Subject(name: "objc-send-action-per-dispatch", point: "send-action", caughtBy: ["OSA-1"]),
        Subject(name: "objc-gesture-targetless", point: "gesture", caughtBy: ["OGR-3"]),
        Subject(name: "objc-alert-action-handlers-only", point: "alert-action", caughtBy: ["OAA-2"]),
        Subject(name: "objc-delegate-selection-dynamic-subclass-kvo-unaware", point: "delegate-selection", caughtBy: ["ODS-3"]),
        Subject(name: "objc-screen-view-base-only", point: "screen-view", caughtBy: ["OSV-2", "OSV-3"]),
    ]

    /// The built-in hooks, or the deliberately broken ones.
    static func subjects(mutants: Bool) -> [Subject] { subjects.filter { $0.caughtBy.isEmpty != mutants } }

    /// Whether this build has the real runtime.
    static var isAvailable: Bool {
        #if AUTOTRACK_OBJC
        true
        #else
        false
        #endif
    }

    /// Runs every scenario against every subject, each in a child process of this
    /// program: one report per subject, backend `objc`.
    static func evaluate(mutants: Bool, scenarioIDs: Set<String>) throws -> [ConformanceReport] {
        try subjects(mutants: mutants).map { subject in try report(subject: subject, scenarioIDs: scenarioIDs).report }
    }

    /// One subject (with a mutation operator applied, when given) across the scenarios:
    /// its report, and how many times the operator's defect fired.
    static func report(subject: Subject, operator: String? = nil, scenarioIDs: Set<String>) throws -> (report: ConformanceReport, fires: Int) {
        let selected = scenarios.filter { $0.point == subject.point && (scenarioIDs.isEmpty || scenarioIDs.contains($0.id)) }
        var fires = 0
        let outcomes = try selected.map { scenario in
            let (outcome, fired) = try self.outcome(of: scenario, subject: subject.name, operator: `operator`)
            fires += fired
            return outcome
        }
        let name = `operator`.map { "\(subject.name) × \($0)" } ?? subject.name
        return (ConformanceReport(subject: name, point: subject.point, outcomes: outcomes, backend: "objc"), fires)
    }

    static func outcome(of scenario: Scenario, subject: String, operator: String? = nil) throws -> (ScenarioOutcome, Int) {
        var arguments = ["objc-scenario", "--subject", subject, "--scenario", scenario.id]
        if let `operator` { arguments += ["--operator", `operator`] }
        let (outcome, fires) = try IsolatedScenario.run(id: scenario.id, title: scenario.title, failure: scenario.failure, arguments: arguments)
        return (outcome, fires)
    }
}
