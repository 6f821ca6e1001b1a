/// Foundation: `URL` appears in this file's public API.
public import Foundation

/// Scenarios that run in a child process — on a real Objective-C runtime a broken hook
/// crashes the process instead of throwing, so a crash, an abort or a hang must be a
/// result of the scenario, never the end of the run.
///
/// The child speaks a line protocol on standard output: `transcript: …` lines as it
/// goes (written at once, so they survive a crash), then one `violations <JSON>` line
/// (``Violation``s) and, for mutation testing, `fires <n>`. The parent turns what the
/// child did into a ``ScenarioOutcome``: its violations, or — when the process died,
/// hung or said nothing — one fail-open violation carrying the termination (the signal)
/// and the transcript so far.
///
/// ```swift
/// // In the child (a subcommand of your test tool):
/// IsolatedScenario.note("tap row 3")
/// IsolatedScenario.finish(violations: checks)
///
/// // In the parent:
/// let outcome = try IsolatedScenario.run(id: "MY-1", title: "…", failure: "…",
///                                        executable: tool, arguments: ["scenario", "MY-1"])
/// ```
public enum IsolatedScenario {
    /// Child side: writes one transcript line, unbuffered.
    public static func note(_ line: String) {
        FileHandle.standardOutput.write(Data("transcript: \(line)\n".utf8))
    }

    /// Child side: writes the violations (and how many times a mutation fired) — the
    /// scenario's result.
    public static func finish(violations: [Violation], mutationFires: Int = 0) throws {
        let json = try JSONEncoder().encode(violations)
        FileHandle.standardOutput.write(Data("violations ".utf8) + json + Data("\nfires \(mutationFires)\n".utf8))
    }

    /// Parent side: runs the child and returns the scenario's outcome and the mutation's
    /// fires.
    public static func run(
        id: String, title: String, failure: String, executable: URL = ChildProcess.currentExecutable, arguments: [String],
        deadline: Double = 30
    ) throws -> (outcome: ScenarioOutcome, fires: Int) {
        let run = try ChildProcess.run(arguments, executable: executable, deadline: deadline)
        return (outcome(id: id, title: title, failure: failure, of: run), run.lines.last { $0.hasPrefix("fires ") }.flatMap { Int($0.dropFirst(6)) } ?? 0)
    }

    /// Parent side: the outcome of a child that ran scenario `id`.
    public static func outcome(id: String, title: String, failure: String, of run: ChildProcess.Outcome) -> ScenarioOutcome {
        let transcript = run.lines.filter { $0.hasPrefix("transcript: ") }.map { String($0.dropFirst(12)) }
        if case .exited = run.termination,
           let line = run.lines.last(where: { $0.hasPrefix("violations ") }),
           let violations = try? JSONDecoder().decode([Violation].self, from: Data(line.dropFirst(11).utf8)) {
            return ScenarioOutcome(scenarioID: id, title: title, violations: violations, error: nil)
        }
        // The process died, hung, or said nothing: the app would have.
        let violation = Violation(
            scenarioID: id, rule: .failOpen, measure: "the app's process", expected: "keeps running",
            observed: run.termination.description, failure: failure,
            transcript: transcript + run.errorOutput.split(separator: "\n").prefix(6).map(String.init))
        return ScenarioOutcome(scenarioID: id, title: title, violations: [violation], error: nil)
    }
}
