/// Foundation: `Data` appears in this file's public API.
public import Foundation

/// What one subject did across the catalog: every outcome, every violation. Encodes to
/// JSON, JUnit XML and a text table.
public struct ConformanceReport: Hashable, Sendable, Codable {
    /// The hook's name.
    public var subject: String
    /// Its interception point.
    public var point: String
    /// One outcome per scenario run, in catalog order.
    public var outcomes: [ScenarioOutcome]
    /// The runtime the scenarios ran on: `model` (the package's model of dispatch and
    /// the reference host) or `objc` (a real Objective-C runtime).
    public var backend: String

    /// Creates a report.
    public init(subject: String, point: String, outcomes: [ScenarioOutcome], backend: String = "model") {
        self.subject = subject
        self.point = point
        self.outcomes = outcomes
        self.backend = backend
    }

    /// Every violation.
    public var violations: [Violation] { outcomes.flatMap(\.violations) }
    /// Whether every scenario passed.
    public var passed: Bool { outcomes.allSatisfy(\.passed) }
    /// The ids of failed scenarios.
    public var failedScenarioIDs: [String] { outcomes.filter { !$0.passed }.map(\.scenarioID) }

    /// The report as pretty JSON with sorted keys.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// A text table: one line per scenario, violations indented below.
    public var table: String {
        var lines = ["\(subject) (\(point), \(backend)): \(outcomes.filter(\.passed).count)/\(outcomes.count) scenarios pass"]
        for outcome in outcomes {
            lines.append("  \(outcome.passed ? "pass" : "FAIL")  \(outcome.scenarioID)  \(outcome.title)")
            for violation in outcome.violations {
                lines.append("          \(violation.rule) — \(violation.measure): expected \(violation.expected), observed \(violation.observed)")
                if !violation.failure.isEmpty { lines.append("          reproduces: \(violation.failure)") }
                for line in violation.transcript { lines.append("            \(line)") }
            }
            if let error = outcome.error { lines.append("          error: \(error)") }
        }
        return lines.joined(separator: "\n")
    }
}

/// Several reports as one JUnit XML document (one test suite per subject), for CI.
public enum JUnitReport {
    /// The XML text.
    public static func xml(_ reports: [ConformanceReport]) -> String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        let failures = reports.reduce(0) { $0 + $1.outcomes.filter { !$0.passed }.count }
        let tests = reports.reduce(0) { $0 + $1.outcomes.count }
        lines.append(#"<testsuites name="AutoTrack conformance" tests="\#(tests)" failures="\#(failures)">"#)
        for report in reports {
            let failed = report.outcomes.filter { !$0.passed }.count
            let suite = escape("\(report.subject) [\(report.backend)]")
            lines.append(#"  <testsuite name="\#(suite)" tests="\#(report.outcomes.count)" failures="\#(failed)">"#)
            for outcome in report.outcomes {
                let name = escape("\(outcome.scenarioID) \(outcome.title)")
                if outcome.passed {
                    lines.append(#"    <testcase classname="\#(suite)" name="\#(name)"/>"#)
                } else {
                    lines.append(#"    <testcase classname="\#(suite)" name="\#(name)">"#)
                    let message = (outcome.violations.map(\.description) + (outcome.error.map { ["error: \($0)"] } ?? [])).joined(separator: "\n")
                    let details = outcome.violations.flatMap { ["reproduces: \($0.failure)"] + $0.transcript }.joined(separator: "\n")
                    lines.append(#"      <failure message="\#(escape(message))">\#(escape(message + "\n" + details))</failure>"#)
                    lines.append("    </testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// XML text escaping (`& < > " '`, and control characters as character references).
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\n", "\t": escaped += "&#\(scalar.value);"
            default:
                if scalar.value < 0x20 { escaped += "?" } else { escaped.unicodeScalars.append(scalar) }
            }
        }
        return escaped
    }
}

/// The hooks × scenarios matrix the `conformance` command prints.
public enum ConformanceMatrix {
    /// One row per scenario, one column per subject: `ok`, `FAIL` or `·` (not applicable).
    public static func text(_ reports: [ConformanceReport], scenarios: [Scenario]) -> String {
        let names = reports.map(\.subject)
        let width = 6
        var lines: [String] = []
        lines.append("columns: " + names.enumerated().map { "\($0.offset + 1)=\($0.element)" }.joined(separator: "  "))
        lines.append("scenario".padding(toLength: 9, withPad: " ", startingAt: 0)
            + names.indices.map { String($0 + 1).padding(toLength: width, withPad: " ", startingAt: 0) }.joined())
        for scenario in scenarios {
            var row = scenario.id.padding(toLength: 9, withPad: " ", startingAt: 0)
            for report in reports {
                let cell = report.outcomes.first { $0.scenarioID == scenario.id }.map { $0.passed ? "ok" : "FAIL" } ?? "·"
                row += cell.padding(toLength: width, withPad: " ", startingAt: 0)
            }
            lines.append(row)
        }
        let passed = reports.filter(\.passed).count
        lines.append("\(passed)/\(reports.count) hooks pass every applicable scenario; \(scenarios.count) scenarios")
        return lines.joined(separator: "\n")
    }
}
