/// AutoTrackConformanceCore: `ConformanceReport`, `ConformanceSubject`, `Scenario`, `ScenarioBackend`, `ScenarioCatalog` appear in this file's public API.
public import AutoTrackConformanceCore
/// Foundation: `URL` appears in this file's public API.
public import Foundation
/// Testing: `SourceLocation` appears in this file's public API.
public import Testing

/// Runs `scenario` against `subject` — on `backend`'s runtime, the model's by default —
/// and records one Swift Testing issue per violation, at the caller's source location.
///
/// ```swift
/// @Test(arguments: ScenarioCatalog.scenarios(for: .delegateSelection))
/// func myDelegateHookConforms(scenario: Scenario) {
///     expectConformance(myHookSubject, scenario: scenario)
/// }
/// ```
public func expectConformance(
    _ subject: ConformanceSubject, scenario: Scenario, backend: ScenarioBackend = .model, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard scenario.applies(to: subject.point) else { return }
    let outcome = Conformance.run(scenario, against: subject, backend: backend)
    for violation in outcome.violations {
        let details = (["reproduces: \(violation.failure)"] + violation.transcript).joined(separator: "\n  ")
        Issue.record(Comment(rawValue: "\(subject.name): \(violation)\n  \(details)"), sourceLocation: sourceLocation)
    }
    if let error = outcome.error {
        Issue.record(Comment(rawValue: "\(subject.name): \(scenario.id) could not run: \(error)"), sourceLocation: sourceLocation)
    }
}

/// The failure `requireConformance(_:scenarios:backend:)` throws: every violation.
public struct ConformanceFailure: Error, CustomStringConvertible {
    /// The report with the failures.
    public let report: ConformanceReport

    /// The failed scenarios and their violations.
    public var description: String { report.table }
}

/// Runs `scenarios` against `subject` — on `backend`'s runtime, the model's by default —
/// and throws a ``ConformanceFailure`` listing every violation — usable from XCTest
/// (`XCTAssertNoThrow(try requireConformance(…))`) or any other harness.
public func requireConformance(
    _ subject: ConformanceSubject, scenarios: [Scenario] = ScenarioCatalog.all, backend: ScenarioBackend = .model
) throws {
    let report = Conformance.evaluate(subject, scenarios: scenarios, backend: backend)
    if !report.passed { throw ConformanceFailure(report: report) }
}

extension Scenario: CustomTestStringConvertible {
    /// `ID title`, the name Swift Testing shows for a scenario argument.
    public var testDescription: String { "\(id) \(title)" }
}

extension ConformanceSubject: CustomTestStringConvertible {
    /// The hook's name.
    public var testDescription: String { name }
}

/// Records one issue per violation of a scenario that runs in a child process
/// (`IsolatedScenario`): a hook on a real runtime, where a broken one crashes the
/// process. A crash, an abort or a hang past `deadline` seconds is a fail-open
/// violation with the signal and the child's transcript so far — recorded here, and the
/// test run goes on.
///
/// ```swift
/// @Test func tapRecordsOnce() throws {
///     try expectConformance(isolated: "MY-1", title: "a tap records once", failure: "double clicks",
///                           executable: myTool, arguments: ["scenario", "MY-1"])
/// }
/// ```
public func expectConformance(
    isolated id: String, title: String, failure: String, executable: URL, arguments: [String], deadline: Double = 30,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let (outcome, _) = try IsolatedScenario.run(
        id: id, title: title, failure: failure, executable: executable, arguments: arguments, deadline: deadline)
    for violation in outcome.violations {
        let details = (["reproduces: \(violation.failure)"] + violation.transcript).joined(separator: "\n  ")
        Issue.record(Comment(rawValue: "\(violation)\n  \(details)"), sourceLocation: sourceLocation)
    }
}
