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

/// Many scenarios of one subject in as few children as possible: a child that dies costs
/// the scenario it was running, and a new child goes on with the rest.
@Suite struct IsolatedCatalogTests {
    /// A child standing in for a test tool: runs the ids it is given, crashing (or
    /// hanging, or leaving) at `stopAt`.
    static func run(stopAt: String, how: String, deadline: Double = 10) throws -> IsolatedCatalog.Result {
        let script = """
            for id in "$@"; do
              echo "running $id"
              if [ "$id" = "\(stopAt)" ]; then echo "transcript: inside $id"; \(how); fi
              echo "outcome {\\"scenarioID\\":\\"$id\\",\\"title\\":\\"t\\",\\"violations\\":[]}"
            done
            echo "fires 2"
            """
        return try IsolatedCatalog.run(
            subject: "hook", point: "send-action", scenarios: ["A", "B", "C"].map { ($0, "title \($0)", "failure \($0)") }, backend: "objc",
            executable: IsolatedScenarioTests.shell, deadline: deadline
        ) { ids in ["-c", script, "sh"] + ids }
    }

    @Test("a crash costs the scenario it hit: its violation carries the signal and its transcript; the others run")
    func crashCostsOneScenario() throws {
        let result = try Self.run(stopAt: "B", how: "kill -SEGV $$")
        #expect(result.report.outcomes.map(\.scenarioID) == ["A", "B", "C"])
        #expect(result.report.outcomes.map(\.passed) == [true, false, true])
        let violation = try #require(result.report.outcomes[1].violations.first)
        #expect(violation.rule == .failOpen)
        #expect(violation.observed == "SIGSEGV (signal 11)")
        #expect(violation.transcript.first == "inside B")
        #expect(violation.failure == "failure B")
        #expect(result.deaths == 1)
        #expect(result.fires == 2)
        #expect(result.report.backend == "objc")
    }

    @Test("a hang past the deadline, and a child leaving early, cost one scenario each")
    func hangAndEarlyExit() throws {
        let hung = try Self.run(stopAt: "A", how: "exec sleep 5", deadline: 0.5)
        #expect(hung.report.outcomes.map(\.passed) == [false, true, true])
        #expect(hung.report.outcomes[0].violations.first?.observed.contains("no answer within 0.5 s") == true)
        let left = try Self.run(stopAt: "C", how: "exit 0")
        #expect(left.report.outcomes.map(\.passed) == [true, true, false])
        #expect(left.report.outcomes[2].violations.first?.observed == "exited before finishing")
    }
}
