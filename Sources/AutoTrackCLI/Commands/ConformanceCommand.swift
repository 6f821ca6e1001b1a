import AutoTrackConformanceCore
import AutoTrackHooks
import AutoTrackInterception
import Foundation

/// `autotrack conformance`: the catalog against every built-in hook (or, with
/// `--mutants`, against the kit's deliberately broken hooks), as a matrix.
struct ConformanceCommand {
    let jsonOutput: String?
    let junitOutput: String?
    let mutants: Bool
    /// Only these scenarios (all when empty).
    var scenarioIDs: Set<String> = []
    /// Only hooks at this point.
    var point: InterceptionPoint?
    /// The runtimes to run on.
    var backends: [ConformanceBackend] = ConformanceBackend.available
    /// A library of hooks written in C or Objective-C to run instead of the built-in hooks.
    var hookLibrary: String?

    /// A runtime the catalog runs on.
    enum ConformanceBackend: String, CaseIterable {
        /// The package's model of dispatch with the UIKit-semantics reference host.
        case model
        /// A real Objective-C runtime (GCC libobjc + GNUstep Base).
        case objc

        /// Every backend this build has.
        static var available: [ConformanceBackend] { MirroredCatalog.backend != nil ? [.model, .objc] : [.model] }
    }

    /// Prints the matrix and returns the exit status: 0 when every built-in hook passes
    /// (or, with `--mutants`, when every mutant is caught by the scenarios naming it).
    func run() throws -> Int32 {
        var status: Int32 = 0
        var reports: [ConformanceReport] = []
        if let hookLibrary {
            (reports, status) = try NativeHookCatalog.evaluate(path: hookLibrary, point: point, scenarioIDs: scenarioIDs)
        }
        if hookLibrary == nil, backends.contains(.model) {
            let (modelReports, modelStatus) = try runOnModel()
            reports += modelReports
            status = max(status, modelStatus)
        }
        if hookLibrary == nil, backends.contains(.objc) {
            let (objcReports, objcStatus) = try runOnRealRuntime()
            reports += objcReports
            status = max(status, objcStatus)
        }
        if let jsonOutput {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(reports).write(to: URL(fileURLWithPath: jsonOutput))
            print("Wrote \(jsonOutput)")
        }
        if let junitOutput {
            try JUnitReport.xml(reports).write(toFile: junitOutput, atomically: true, encoding: .utf8)
            print("Wrote \(junitOutput)")
        }
        return status
    }

    /// The real runtime: the whole catalog with the built-in hooks (or the mutants) on
    /// mirrored runtimes, each hook in child processes.
    private func runOnRealRuntime() throws -> ([ConformanceReport], Int32) {
        guard MirroredCatalog.backend != nil else {
            printError(OracleCommand.unavailable)
            return ([], 1)
        }
        return mutants
            ? try MirroredCatalog.evaluateMutants(point: point, scenarioIDs: scenarioIDs)
            : try MirroredCatalog.evaluateBuiltIns(point: point, scenarioIDs: scenarioIDs)
    }

    /// The catalog on the model and the reference host.
    private func runOnModel() throws -> ([ConformanceReport], Int32) {
        let subjects = (mutants ? Mutants.all.map(\.subject) : BuiltInHooks.all().map { ConformanceSubject(any: $0) })
            .filter { point == nil || $0.point == point }
        let scenarios = ScenarioCatalog.all.filter { scenarioIDs.isEmpty || scenarioIDs.contains($0.id) }
        let reports = subjects.map { Conformance.evaluate($0, scenarios: scenarios) }
        print(mutants ? "Mutant kill matrix on the model (FAIL = the scenario caught the mutant)" : "Conformance of the built-in hooks on the model")
        print(ConformanceMatrix.text(reports, scenarios: scenarios))
        if mutants {
            var survivors: [String] = []
            for (mutant, report) in zip(Mutants.all.filter { point == nil || $0.subject.point == point }, reports) where scenarioIDs.isEmpty {
                let missed = mutant.missed(in: report)
                if !missed.isEmpty { survivors.append("\(mutant.subject.name) not caught by \(missed.joined(separator: ", "))") }
            }
            print(survivors.isEmpty ? "every hand-written mutant is caught by the scenarios that name it" : survivors.joined(separator: "\n"))
            // The operators, applied to every built-in hook.
            let results = BuiltInHooks.all().filter { point == nil || $0.point == point }
                .flatMap { OperatorMutants.evaluate(ConformanceSubject(any: $0), scenarios: scenarios) }
            print("\n\(results.count) operator mutants (\(OperatorMutants.MutationOperator.all.count) operators × \(BuiltInHooks.all().count) built-in hooks)")
            for result in results {
                print("  \(result.mutant): \(result.verdict)")
            }
            print(OperatorMutants.scoreTable(results))
            if let jsonOutput {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                let url = URL(fileURLWithPath: jsonOutput).deletingPathExtension().appendingPathExtension("operators.json")
                try encoder.encode(results).write(to: url)
                print("Wrote \(url.path)")
            }
            let operatorSurvivors = results.filter { !$0.isKilled && !$0.isEquivalent }
            print("\(Mutants.all.count + results.count) mutants in all: \(Mutants.all.count) hand-written, \(results.count) from operators")
            return (reports, survivors.isEmpty && operatorSurvivors.isEmpty ? 0 : 1)
        }
        for report in reports where !report.passed { print("\n" + report.table) }
        return (reports, reports.allSatisfy(\.passed) ? 0 : 1)
    }
}
