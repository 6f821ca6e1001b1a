/// Foundation: `Data` appears in this file's public API.
public import Foundation

/// What an exploration run found, for people and for CI: a text summary, JSON, JUnit XML
/// (a test case per subject) and a self-contained HTML page with every counterexample's
/// program and its transcript diff.
public struct ExplorationReport: Hashable, Sendable, Codable {
    /// The first session's seed.
    public var seed: UInt64
    /// Sessions per subject.
    public var sessions: Int
    /// How long the run took, in seconds.
    public var seconds: Double
    /// One result per subject.
    public var results: [ExplorationResult<ReferenceHostStep>]

    /// Creates a report.
    public init(seed: UInt64, sessions: Int, seconds: Double, results: [ExplorationResult<ReferenceHostStep>]) {
        self.seed = seed
        self.sessions = sessions
        self.seconds = seconds
        self.results = results
    }

    /// Whether every subject passed every session.
    public var passed: Bool { results.allSatisfy(\.passed) }
    /// Every counterexample kept.
    public var counterexamples: [Counterexample<ReferenceHostStep>] { results.flatMap(\.counterexamples) }

    /// One line per subject, then the totals.
    public var summary: String {
        var lines = results.map { result in
            let verdict = result.passed ? "0 counterexamples" : "\(result.failingSessions) failing sessions, \(result.counterexamples.count) counterexamples kept"
            return "  \(result.subject): \(result.sessions) sessions, \(result.steps) steps, \(verdict)"
                + (result.errors.isEmpty ? "" : ", \(result.errors.count) errors")
        }
        let steps = results.reduce(0) { $0 + $1.steps }
        lines.append("explored \(results.count) subjects × \(sessions) sessions from seed \(seed) (\(steps) steps) in \(String(format: "%.1f", seconds)) s: "
            + "\(results.filter { !$0.passed }.count) subjects with counterexamples")
        return lines.joined(separator: "\n")
    }

    /// Pretty JSON with sorted keys.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// JUnit XML: one test suite, a test case per subject failing with its first
    /// counterexample.
    public var junit: String {
        let failures = results.filter { !$0.passed }.count
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#,
                     #"<testsuites name="AutoTrack exploration" tests="\#(results.count)" failures="\#(failures)">"#,
                     #"  <testsuite name="exploration (seed \#(seed), \#(sessions) sessions)" tests="\#(results.count)" failures="\#(failures)">"#]
        for result in results {
            let name = JUnitReport.escape(result.subject)
            guard !result.passed else {
                lines.append(#"    <testcase classname="exploration" name="\#(name)"/>"#)
                continue
            }
            let message = result.counterexamples.first.map { "\($0.difference)" } ?? result.errors.first ?? "failed"
            let details = (result.counterexamples.map(\.report) + result.errors).joined(separator: "\n\n")
            lines.append(#"    <testcase classname="exploration" name="\#(name)">"#)
            lines.append(#"      <failure message="\#(JUnitReport.escape(message))">\#(JUnitReport.escape(details))</failure>"#)
            lines.append("    </testcase>")
        }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A self-contained page (no network): the subjects, then each counterexample with
    /// its program and what both worlds did at the step that differed.
    public var html: String {
        var body = ["<h1>AutoTrack exploration</h1>",
                    "<p>\(Self.escape("seed \(seed), \(sessions) sessions per subject, \(String(format: "%.1f", seconds)) s"))</p>",
                    "<table><tr><th>subject</th><th>sessions</th><th>steps</th><th>failing sessions</th><th>verdict</th></tr>"]
        for result in results {
            let verdict = result.passed ? "<td class=ok>pass</td>" : "<td class=fail>FAIL</td>"
            body.append("<tr><td>\(Self.escape(result.subject))</td><td>\(result.sessions)</td><td>\(result.steps)</td><td>\(result.failingSessions)</td>\(verdict)</tr>")
        }
        body.append("</table>")
        for (index, counterexample) in counterexamples.enumerated() {
            body.append("<h2 id=\"c\(index + 1)\">\(Self.escape("\(counterexample.subject): seed \(counterexample.seed)"))</h2>")
            body.append("<p>\(Self.escape("\(counterexample.difference)"))</p>")
            body.append("<pre class=program>\(Self.escape(counterexample.program))</pre>")
            body.append("<pre class=diff>" + StepRecord.diff(counterexample.withoutSubject, counterexample.withSubject).map { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                let kind = trimmed.hasPrefix("+ ") ? "add" : trimmed.hasPrefix("- ") ? "del" : "same"
                return "<span class=\(kind)>\(Self.escape(line))</span>"
            }.joined(separator: "\n") + "</pre>")
        }
        return """
            <!doctype html><html><head><meta charset="utf-8"><title>AutoTrack exploration</title><style>
            body{font:14px system-ui,sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse}
            td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}.ok{color:#070}.fail{color:#b00;font-weight:bold}
            pre{background:#f6f6f6;padding:.8em;overflow-x:auto}.add{color:#070}.del{color:#b00}
            </style></head><body>
            \(body.joined(separator: "\n"))
            </body></html>

            """
    }

    /// Text for an HTML element or attribute: the XML escaping of the JUnit report,
    /// which is valid HTML too.
    static func escape(_ text: String) -> String { JUnitReport.escape(text) }
}
