import AutoTrackConformance
import AutoTrackConformanceCore
import Foundation
import Testing

/// Scenarios in child processes: what the child reports is the outcome; a child that
/// crashes, aborts or hangs is a fail-open violation with its signal and transcript —
/// never the end of the run. Children here are shell scripts standing in for a hook's
/// test tool.
@Suite struct IsolatedScenarioTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    static func run(_ script: String, deadline: Double = 10) throws -> ScenarioOutcome {
        try IsolatedScenario.run(
            id: "ISO-1", title: "a tap records once", failure: "a crash in the hook", executable: shell, arguments: ["-c", script],
            deadline: deadline
        ).outcome
    }

    @Test("the child's violations are the outcome")
    func reportedViolations() throws {
        let passing = try Self.run("echo 'transcript: tap'; echo 'violations []'")
        #expect(passing.passed)
        let json = #"[{"scenarioID":"ISO-1","rule":2,"measure":"clicks","expected":"1","observed":"2","failure":"","transcript":[]}]"#
        let failing = try Self.run("echo 'violations \(json)'; exit 1")
        #expect(failing.violations.map(\.description) == ["ISO-1 rule 2: one interaction — clicks: expected 1, observed 2"])
    }

    @Test("a crash is a fail-open violation with its signal and the transcript so far")
    func crash() throws {
        let outcome = try Self.run("echo 'transcript: tap row 3'; echo 'transcript: -[Delegate didSelect]'; kill -SEGV $$")
        let violation = try #require(outcome.violations.first)
        #expect(violation.rule == .failOpen)
        #expect(violation.observed == "SIGSEGV (signal 11)")
        #expect(Array(violation.transcript.prefix(2)) == ["tap row 3", "-[Delegate didSelect]"])
        #expect(violation.failure == "a crash in the hook")
    }

    @Test("an abort, a hang past the deadline, and a child that says nothing are violations too")
    func abortHangSilence() throws {
        let aborted = try Self.run("exec python3 -c 'import os; os.abort()'").violations.first?.observed
        #expect(aborted == "SIGABRT (signal 6)")
        #expect(try Self.run("exec sleep 5", deadline: 0.5).violations.first?.observed.contains("no answer within 0.5 s") == true)
        #expect(try Self.run("exit 0").violations.first?.observed == "exit 0")
    }

    @Test("the Swift Testing layer records the crash as an issue, and the test goes on")
    func swiftTestingLayer() throws {
        withKnownIssue("the child crashes on purpose") {
            try expectConformance(
                isolated: "ISO-1", title: "a tap records once", failure: "a crash in the hook", executable: Self.shell,
                arguments: ["-c", "kill -SEGV $$"])
        }
        try expectConformance(
            isolated: "ISO-1", title: "a tap records once", failure: "a crash in the hook", executable: Self.shell,
            arguments: ["-c", "echo 'violations []'"])
    }
}
