import AutoTrackConformanceCore
import AutoTrackInterception
#if AUTOTRACK_OBJC
import AutoTrackNativeHooks
import AutoTrackObjCBackend
#endif
import Foundation

/// `autotrack conformance --hook-library PATH.so`: the catalog against the hooks of a
/// library written in C or Objective-C (`autotrack_hook.h`), on the real runtime with
/// the reference host's classes under UIKit's names. Each scenario runs in a process of
/// its own (`mirrored-catalog --hook-library`): a native hook's installation lasts for
/// its process, and a crash costs one scenario.
enum NativeHookCatalog {
    #if AUTOTRACK_OBJC
    /// Mirrored runtimes whose real classes carry the model's names (`UIControl`).
    static let backend = ScenarioBackend(name: "objc") { MirroredRuntime.make(classNamePrefix: "") }

    /// The library's hook named `name`.
    static func subject(library path: String, named name: String) throws -> ConformanceSubject {
        let library = try NativeHookLibrary(path: path)
        guard let hook = library.hooks.first(where: { $0.name == name }) else {
            throw UsageError(message: "\(path) has no hook '\(name)' (it has: \(library.hooks.map(\.name).joined(separator: ", ")))")
        }
        return ConformanceSubject(hook)
    }
    #endif

    /// The library's hooks as subjects (none where the real runtime is not built in).
    static func subjects(library path: String) throws -> [ConformanceSubject] {
        #if AUTOTRACK_OBJC
        try NativeHookLibrary(path: path).hooks.map { ConformanceSubject($0) }
        #else
        printError(OracleCommand.unavailable)
        return []
        #endif
    }

    /// Runs the catalog against every hook of the library at `path` (at `point`, of
    /// `scenarioIDs`, all when nil or empty); prints the matrix. Status 0 when all pass.
    static func evaluate(path: String, point: InterceptionPoint?, scenarioIDs: Set<String>) throws -> ([ConformanceReport], Int32) {
        #if AUTOTRACK_OBJC
        let library = try NativeHookLibrary(path: path)
        var reports: [ConformanceReport] = []
        for hook in library.hooks where point == nil || hook.point == point {
            let scenarios = ScenarioCatalog.all.filter { $0.applies(to: hook.point) && (scenarioIDs.isEmpty || scenarioIDs.contains($0.id)) }
            let result = try IsolatedCatalog.run(
                subject: hook.name, point: hook.point.name, scenarios: scenarios.map { ($0.id, $0.title, $0.failure) }, backend: "objc",
                deadline: 60, scenariosPerChild: 1
            ) { ids in
                ["mirrored-catalog", "--hook-library", path, "--subject", hook.name] + ids.flatMap { ["--scenario", $0] }
            }
            reports.append(result.report)
        }
        let points = Set(library.hooks.map(\.point.name))
        let scenarios = ScenarioCatalog.all.filter { scenario in
            (scenarioIDs.isEmpty || scenarioIDs.contains(scenario.id)) && (scenario.point.map { points.contains($0.name) } ?? true)
        }
        print("Conformance of \(URL(fileURLWithPath: path).lastPathComponent) on the real runtime (objc: GCC libobjc with the reference host's UIKit classes; each scenario in its own process)")
        print(ConformanceMatrix.text(reports, scenarios: scenarios))
        for report in reports where !report.passed { print("\n" + report.table) }
        let violations = reports.reduce(0) { $0 + $1.violations.count }
        print("\(reports.count) hooks, \(reports.reduce(0) { $0 + $1.outcomes.count }) scenario runs, \(violations) violations")
        return (reports, reports.allSatisfy(\.passed) ? 0 : 1)
        #else
        printError(OracleCommand.unavailable)
        return ([], 1)
        #endif
    }
}
