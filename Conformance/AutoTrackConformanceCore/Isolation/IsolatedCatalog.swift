/// Foundation: `URL` appears in this file's public API.
public import Foundation

/// Many scenarios of one subject in child processes, as few as possible: one child runs
/// them in order and reports each outcome as it finishes; when a child crashes, aborts
/// or hangs, the scenario it was running gets one fail-open violation carrying the
/// termination (the signal) and what it said so far, and a new child goes on with the
/// scenarios after it. So a crash costs one scenario, never the run.
///
/// The child speaks a line protocol on standard output, written at once so that it
/// survives a crash: `running <id>` before each scenario, `outcome <JSON>` after it
/// (``ScenarioOutcome``), and `fires <n>` at the end (how many times a mutation fired).
/// Children may run the ids they are given in any order.
///
/// ```swift
/// // In the child (a subcommand of your tool, given the ids to run):
/// IsolatedCatalog.runChild(subject, scenarios: scenarios, backend: backend)
///
/// // In the parent:
/// let result = try IsolatedCatalog.run(subject: subject.name, point: "send-action", scenarios: scenarios,
///                                      backend: "objc") { ids in ["catalog-child", "--scenario"] + ids }
/// ```
public enum IsolatedCatalog {
    /// Child side: runs `scenarios` against `subject` on `backend`, reporting as it goes.
    /// `fires` is read at the end (a mutation's counter), when given.
    public static func runChild(
        _ subject: ConformanceSubject, scenarios: [Scenario], backend: ScenarioBackend, fires: (@Sendable () -> Int)? = nil
    ) throws {
        let encoder = JSONEncoder()
        for scenario in scenarios {
            write("running \(scenario.id)\n")
            let outcome = Conformance.run(scenario, against: subject, backend: backend)
            write("outcome " + String(decoding: try encoder.encode(outcome), as: UTF8.self) + "\n")
        }
        write("fires \(fires?() ?? 0)\n")
    }

    private static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// What the children of one subject did.
    public struct Result: Sendable {
        /// The report, one outcome per scenario, in order.
        public var report: ConformanceReport
        /// How many times the mutation fired, summed over the children.
        public var fires: Int
        /// How many children ended without finishing (crashed, aborted or hung).
        public var deaths: Int
    }

    /// Parent side: runs `scenarios` (whose ids and titles it knows) in children whose
    /// arguments `arguments` gives for the ids still to run; returns the report.
    /// - Parameters:
    ///   - subject: the subject's name, for the report.
    ///   - point: the subject's interception point, for the report.
    ///   - scenarios: the scenarios to run: id, title and the failure each reproduces
    ///     (what a crash's violation carries).
    ///   - backend: the backend's name, for the report.
    ///   - executable: the child's program (by default this one).
    ///   - environment: variables added to the environment of the child that runs the
    ///     given ids (a test binary reads its work there).
    ///   - deadline: seconds one child may take before it is killed.
    ///   - scenariosPerChild: the most scenarios one child is given — 1 for a subject
    ///     whose installation lasts for its process (a native hook's static state).
    ///   - arguments: the child's arguments for the ids it is to run.
    public static func run(
        subject: String, point: String, scenarios: [(id: String, title: String, failure: String)], backend: String,
        executable: URL = ChildProcess.currentExecutable, environment: ([String]) -> [String: String] = { _ in [:] }, deadline: Double = 300,
        scenariosPerChild: Int = .max, arguments: ([String]) -> [String]
    ) throws -> Result {
        var outcomes: [ScenarioOutcome] = []
        var remaining = scenarios
        var fires = 0, deaths = 0
        let decoder = JSONDecoder()
        while !remaining.isEmpty {
            let ids = Array(remaining.map(\.id).prefix(max(1, scenariosPerChild)))
            let child = try ChildProcess.run(arguments(ids), executable: executable, environment: environment(ids), deadline: deadline)
            var finished: Set<String> = []
            var running: String?
            var transcript: [String] = []
            for line in child.lines {
                if line.hasPrefix("running ") {
                    running = String(line.dropFirst(8))
                    transcript = []
                } else if line.hasPrefix("outcome "), let outcome = try? decoder.decode(ScenarioOutcome.self, from: Data(line.dropFirst(8).utf8)),
                          remaining.contains(where: { $0.id == outcome.scenarioID }), !finished.contains(outcome.scenarioID) {
                    outcomes.append(outcome)
                    finished.insert(outcome.scenarioID)
                    running = nil
                } else if line.hasPrefix("fires ") {
                    fires += Int(line.dropFirst(6)) ?? 0
                } else if line.hasPrefix("transcript: ") {
                    transcript.append(String(line.dropFirst(12)))
                }
            }
            remaining.removeAll { finished.contains($0.id) }
            guard remaining.contains(where: { ids.contains($0.id) }) else { continue }
            // The child stopped before the end: the scenario it was running (or, if it
            // said nothing, the next one) takes the blame, and the rest go on.
            deaths += 1
            let blamed = remaining.firstIndex { $0.id == running } ?? remaining.startIndex
            let culprit = remaining.remove(at: blamed)
            let termination = child.termination == .exited(0) ? "exited before finishing" : child.termination.description
            let violation = Violation(
                scenarioID: culprit.id, rule: .failOpen, measure: "the app's process", expected: "keeps running", observed: termination,
                failure: culprit.failure, transcript: transcript + child.errorOutput.split(separator: "\n").prefix(6).map(String.init))
            outcomes.append(ScenarioOutcome(scenarioID: culprit.id, title: culprit.title, violations: [violation], error: nil))
        }
        // In the order the scenarios were given, whatever order children ran them in.
        let order = Dictionary(uniqueKeysWithValues: scenarios.enumerated().map { ($1.id, $0) })
        outcomes.sort { order[$0.scenarioID, default: .max] < order[$1.scenarioID, default: .max] }
        return Result(report: ConformanceReport(subject: subject, point: point, outcomes: outcomes, backend: backend), fires: fires, deaths: deaths)
    }
}
