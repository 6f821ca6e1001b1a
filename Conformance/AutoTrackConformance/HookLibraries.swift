/// AutoTrackConformanceCore: `ConformanceReport`, `Scenario`, `ScenarioCatalog` appear in this file's public API.
public import AutoTrackConformanceCore
/// AutoTrackInterception: `InterceptionPoint` appears in this file's public API.
public import AutoTrackInterception
/// Foundation: `URL` appears in this file's public API.
public import Foundation
/// Testing: `SourceLocation` appears in this file's public API.
public import Testing

/// A hook library written in C or Objective-C against `autotrack_hook.h`, proven from a
/// Swift Testing test: each scenario runs in a process of its own — a native hook's
/// installation lasts for its process, and a crash costs one scenario — on the real
/// Objective-C runtime with the reference host's classes under UIKit's names, run by
/// the `autotrack` tool (`autotrack conformance --hook-library` scenario by scenario).
///
/// ```swift
/// let library = HookLibrary(path: URL(fileURLWithPath: "build/libmyhooks.so"))
///
/// @Test(arguments: ScenarioCatalog.scenarios(for: .sendAction))
/// func myExchangeHookConforms(scenario: Scenario) throws {
///     try expectConformance(library, hook: "send-action/my-exchange", point: .sendAction, scenario: scenario)
/// }
/// ```
public struct HookLibrary: Sendable, Hashable {
    /// The shared library (`.so`) exporting `autotrack_hook_library()`.
    public let path: URL
    /// The `autotrack` executable that runs the scenarios (built with the real
    /// runtime: `swift build --product autotrack`).
    public let tool: URL

    /// The library at `path`, run by `tool` — by default `$AUTOTRACK_TOOL`, else the
    /// `autotrack` executable beside the running test bundle (where SwiftPM builds it).
    public init(path: URL, tool: URL? = nil) {
        self.path = path
        self.tool = tool ?? Self.defaultTool
    }

    /// `$AUTOTRACK_TOOL`, else `autotrack` in the directory of the running program.
    public static var defaultTool: URL {
        if let path = ProcessInfo.processInfo.environment["AUTOTRACK_TOOL"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("autotrack")
    }

    /// Why a library could not be run at all.
    public struct ToolNotFound: Error, Hashable, Sendable, CustomStringConvertible {
        /// Where the tool was looked for.
        public let tool: URL
        /// What to do.
        public var description: String {
            "no autotrack executable at \(tool.path): build it with `swift build --product autotrack` (with the Objective-C runtime installed) or set AUTOTRACK_TOOL"
        }
    }

    /// Runs `scenarios` against the library's hook `hook` (at `point`), each in a
    /// child process; the report has one outcome per scenario that applies.
    /// - Throws: ``ToolNotFound`` when the tool is missing; a child that cannot start.
    public func evaluate(hook: String, point: InterceptionPoint, scenarios: [Scenario], deadline: Double = 60) throws -> ConformanceReport {
        guard FileManager.default.isExecutableFile(atPath: tool.path) else { throw ToolNotFound(tool: tool) }
        let applicable = scenarios.filter { $0.applies(to: point) }
        let result = try IsolatedCatalog.run(
            subject: hook, point: point.name, scenarios: applicable.map { ($0.id, $0.title, $0.failure) }, backend: "objc",
            executable: tool, deadline: deadline, scenariosPerChild: 1
        ) { ids in
            ["mirrored-catalog", "--hook-library", path.path, "--subject", hook] + ids.flatMap { ["--scenario", $0] }
        }
        return result.report
    }
}

/// Runs `scenario` against the hook `hook` (at `point`) of a library written in C or
/// Objective-C, in a child process on the real runtime, and records one Swift Testing
/// issue per violation at the caller's source location — a crash or a hang of the
/// child is a fail-open violation with its signal, and the run goes on.
/// - Throws: ``HookLibrary/ToolNotFound`` when the `autotrack` tool is missing.
public func expectConformance(
    _ library: HookLibrary, hook: String, point: InterceptionPoint, scenario: Scenario, deadline: Double = 60,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    guard scenario.applies(to: point) else { return }
    let report = try library.evaluate(hook: hook, point: point, scenarios: [scenario], deadline: deadline)
    for outcome in report.outcomes {
        for violation in outcome.violations {
            let details = (["reproduces: \(violation.failure)"] + violation.transcript).joined(separator: "\n  ")
            Issue.record(Comment(rawValue: "\(hook): \(violation)\n  \(details)"), sourceLocation: sourceLocation)
        }
        if let error = outcome.error {
            Issue.record(Comment(rawValue: "\(hook): \(outcome.scenarioID) could not run: \(error)"), sourceLocation: sourceLocation)
        }
    }
}

/// Runs `scenarios` (every applicable one by default) against the hook `hook` of a
/// library written in C or Objective-C, each in a child process on the real runtime,
/// and throws a ``ConformanceFailure`` listing every violation.
/// - Throws: ``ConformanceFailure``; ``HookLibrary/ToolNotFound``.
public func requireConformance(
    _ library: HookLibrary, hook: String, point: InterceptionPoint, scenarios: [Scenario] = ScenarioCatalog.all, deadline: Double = 60
) throws {
    let report = try library.evaluate(hook: hook, point: point, scenarios: scenarios, deadline: deadline)
    if !report.passed { throw ConformanceFailure(report: report) }
}
