/// AutoTrackInterception: `InterceptionPoint` appears in this file's public API.
public import AutoTrackInterception
import Foundation

/// Sessions the explorer found failing, shrunk, and kept as catalog scenarios (`EXP-`):
/// each is run against every subject at its point, the same way it was found — the
/// subject's world against the world without it, and the specification.
///
/// To keep a new counterexample, paste the `ExplorationRegressions.Session(…)` that
/// `autotrack conformance --explore` prints for it into ``sessions``, with the next id.
public enum ExplorationRegressions {
    /// A kept session.
    public struct Session: Sendable {
        /// The stable id, `EXP-<n>`.
        public let id: String
        /// The interception point it was found at; `nil` for every point.
        public let point: InterceptionPoint?
        /// What the session does, in a line.
        public let title: String
        /// What the hook it was found against did wrong.
        public let failure: String
        /// The shrunk session.
        public let steps: [ReferenceHostStep]

        /// A kept session.
        public init(id: String, point: InterceptionPoint?, title: String, failure: String, steps: [ReferenceHostStep]) {
            self.id = id
            self.point = point
            self.title = title
            self.failure = failure
            self.steps = steps
        }
    }

    /// The sessions kept so far.
    public static let sessions: [Session] = [
        Session(
            id: "EXP-01", point: .screenView, title: "shown, covered after an uninstall, and back after a reinstall",
            failure: "The built-in screen-view hook took the return for a duplicate: the shown mark left by the removed installation never saw the screen disappear.",
            steps: [.install, .pushSettings, .pop, .uninstall, .pushSettings, .install, .pop]),
        Session(
            id: "EXP-02", point: .screenView, title: "uninstalled while a screen is covered, reinstalled, the screen pushed again",
            failure: "The built-in screen-view hook recorded no screen view for a screen it had seen under an earlier installation.",
            steps: [.install, .pushSettings, .uninstall, .pop, .install, .pushSettings]),
        Session(
            id: "EXP-03", point: .delegateSelection, title: "a proxy handed out, another library on setDelegate:, then uninstalled",
            failure: "The built-in proxy hook left its proxy in the list when its setter stayed as a pass-through: the delegate getter, already unwrapped, answered the proxy.",
            steps: [.install, .otherLibraryHooks(.replace), .addTable(rows: 3, delegate: .plain), .uninstall]),
        Session(
            id: "EXP-04", point: .delegateSelection, title: "uninstalled and reinstalled under another library, then uninstalled again",
            failure: "The built-in proxy hook lost track of the lists a re-enabled installation handed proxies to: the second uninstall left one behind.",
            steps: [.install, .addTable(rows: 4, delegate: .plain), .otherLibraryHooks(.exchange), .uninstall, .install, .uninstall]),
        Session(
            id: "EXP-05", point: .delegateSelection, title: "a delegate hooked under another library's setDelegate:, uninstalled twice around a reinstall",
            failure: "A hook that records after uninstall while its wrapper stays as a pass-through (the record-after-uninstall mutant of the exchange and subclass hooks, which no hand-written scenario reaches); a third-party hook whose reinstall left a didSelect wrapper recording.",
            steps: [.install, .otherLibraryHooks(.replace), .addTable(rows: 6, delegate: .subclass), .uninstall, .install, .uninstall, .select(table: 0, row: 2)]),
        Session(
            id: "EXP-06", point: .delegateSelection, title: "reinstalled under another library's exchange, a table added, uninstalled, a row selected",
            failure: "A delegate wrapper left as a pass-through that still records once its installation is gone.",
            steps: [.install, .otherLibraryHooks(.exchange), .uninstall, .install, .addTable(rows: 4, delegate: .listScreen), .uninstall, .select(table: 0, row: 0)]),
        Session(
            id: "EXP-07", point: .delegateSelection, title: "a delegate that takes no selections, set after a reinstall",
            failure: "An Objective-C dynamic-subclass hook gave every delegate's subclass the selection methods: a bare NSObject began answering YES to tableView:didSelectRowAtIndexPath:.",
            steps: [.install, .addTable(rows: 3, delegate: .plain), .uninstall, .install, .setDelegate(table: 0, .bare)]),
    ]

    /// The kept sessions as scenarios.
    static let all: [Scenario] = sessions.map(scenario(for:))

    /// `session` as a scenario: the subject's world against the world without it.
    static func scenario(for session: Session) -> Scenario {
        let rules: [ContractRule] = [.lifecycle, .transparency, .oneInteraction]
        return Scenario(id: session.id, point: session.point, title: session.title, failure: session.failure, rules: rules) { (run: ScenarioRun) throws -> Void in
            // The subject is installed in the session's world only, never on the run's
            // own app first: a native hook's installation is process state (a library
            // hooks the first host it is given), so an earlier host would leave the
            // session's world unhooked. The declaration is checked on that world.
            var exploration = ReferenceHostExploration(backend: run.backend)
            exploration.recordsInstallChanges = true
            let explorer = Explorer(host: exploration)
            var installChanges: Set<HookedMethod>?
            let found: SessionDifference? = try explorer.firstDifference(session.steps, subject: run.subject) { world in
                installChanges = world.firstInstallChanges
            }
            if let installChanges { run.checkDeclaration(changed: installChanges) }
            guard let difference = found else { return }
            let measure: String = "\(difference.kind.rawValue) at step \(difference.step + 1) (\(session.steps[difference.step]))"
            run.expect(difference.rule, measure, expected: difference.expected, observed: difference.observed)
        }
    }
}

extension Counterexample where Step == ReferenceHostStep {
    /// The session as a kept scenario to paste into `ExplorationRegressions.sessions`,
    /// with id `id`, at the point named `point` (empty: every point).
    public func regressionSource(id: String, point: String) -> String {
        let pointSource: String = point.isEmpty ? "nil" : "." + point
        let failure: String = subject + ": " + difference.description.replacingOccurrences(of: "\"", with: "'")
        var lines: [String] = []
        lines.append("        Session(")
        lines.append("            id: \"" + id + "\", point: " + pointSource + ", title: \"<what the session does>\",")
        lines.append("            failure: " + ReferenceHostStep.quoted(failure) + ",")
        lines.append("            steps: [")
        for step in steps { lines.append("                " + step.swiftSource + ",") }
        lines.append("            ]),")
        return lines.joined(separator: "\n")
    }
}
