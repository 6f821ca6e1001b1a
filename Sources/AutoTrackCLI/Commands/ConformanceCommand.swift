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
    /// What runs on the real runtime.
    var objcParts: [ObjCPart] = ObjCPart.allCases
    /// A library of hooks written in C or Objective-C to run instead of the built-in hooks.
    var hookLibrary: String?

    /// What runs on the real runtime.
    enum ObjCPart: String, CaseIterable {
        /// The catalog with the built-in hooks, on mirrored runtimes.
        case catalog
        /// The scenarios on the app's compiled classes, with the hooks built for them.
        case compiled
    }

    /// A runtime the catalog runs on.
    enum ConformanceBackend: String, CaseIterable {
        /// The package's model of dispatch with the UIKit-semantics reference host.
        case model
        /// A real Objective-C runtime (GCC libobjc + GNUstep Base).
        case objc

        /// Every backend this build has.
        static var available: [ConformanceBackend] { ObjCConformance.isAvailable ? [.model, .objc] : [.model] }
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

    /// The real runtime: the whole catalog with the built-in hooks on mirrored runtimes,
    /// then the scenarios on the app's own compiled classes with the hooks built for
    /// them; each in child processes.
    private func runOnRealRuntime() throws -> ([ConformanceReport], Int32) {
        guard ObjCConformance.isAvailable else {
            printError(OracleCommand.unavailable)
            return ([], 1)
        }
        var reports: [ConformanceReport] = []
        var status: Int32 = 0
        let catalogIDs = scenarioIDs.filter { ScenarioCatalog.scenario($0) != nil }
        if objcParts.contains(.catalog), scenarioIDs.isEmpty || !catalogIDs.isEmpty {
            let (mirrored, mirroredStatus) = mutants
                ? try MirroredCatalog.evaluateMutants(point: point, scenarioIDs: catalogIDs)
                : try MirroredCatalog.evaluateBuiltIns(point: point, scenarioIDs: catalogIDs)
            reports += mirrored
            status = max(status, mirroredStatus)
        }
        guard objcParts.contains(.compiled) else { return (reports, status) }
        let (compiled, compiledStatus) = try runOnCompiledClasses()
        return (reports + compiled, max(status, compiledStatus))
    }

    /// The scenarios on the app's classes compiled from Objective-C, with the hooks built
    /// for the real runtime, each scenario in a child process.
    private func runOnCompiledClasses() throws -> ([ConformanceReport], Int32) {
        let scenarioIDs = self.scenarioIDs.filter { id in ObjCConformance.scenarios.contains { $0.id == id } }
        guard self.scenarioIDs.isEmpty || !scenarioIDs.isEmpty else { return ([], 0) }
        let reports = try ObjCConformance.evaluate(mutants: mutants, scenarioIDs: scenarioIDs)
            .filter { point == nil || $0.point == point?.name }
        print(mutants
            ? "\nOn the app's compiled classes (objc: GCC libobjc + GNUstep Base), the deliberately broken hooks (FAIL = caught; each scenario in its own process)"
            : "\nOn the app's compiled classes (objc: GCC libobjc + GNUstep Base), the hooks built for the real runtime, each scenario in its own process")
        for report in reports { print(report.table) }
        if mutants {
            // Each deliberately broken hook must be caught by the scenarios that name it.
            let caughtBy = Dictionary(uniqueKeysWithValues: ObjCConformance.subjects.map { ($0.name, $0.caughtBy) })
            let caught = scenarioIDs.isEmpty ? reports.allSatisfy { Set(caughtBy[$0.subject] ?? []).isSubset(of: $0.failedScenarioIDs) } : true
            print(caught ? "every broken real-runtime hook is caught (a crash among them, the run going on)" : "a broken real-runtime hook SURVIVED")
            // The combinator's operators, applied to each real-runtime hook.
            var operatorReports: [ConformanceReport] = []
            var survivors: [String] = []
            var killed = 0, equivalent = 0
            let builtIn = ObjCConformance.subjects(mutants: false)
            print("\nOperator mutants on the real runtime (\(ObjCConformance.operators.count) operators × \(builtIn.count) hooks)")
            for subject in builtIn where point == nil || subject.point == point?.name {
                for name in ObjCConformance.operators {
                    let (report, fires) = try ObjCConformance.report(subject: subject, operator: name, scenarioIDs: scenarioIDs)
                    operatorReports.append(report)
                    let verdict: String
                    if !report.passed {
                        killed += 1
                        verdict = "killed by \(report.failedScenarioIDs.joined(separator: " "))"
                    } else if fires == 0 {
                        equivalent += 1
                        verdict = "equivalent — the hook never takes the path it changes"
                    } else {
                        survivors.append(report.subject)
                        verdict = "SURVIVED"
                    }
                    print("  \(report.subject): \(verdict)")
                }
            }
            print("objc: \(killed)/\(killed + survivors.count) non-equivalent operator mutants killed, \(equivalent) equivalent")
            return (reports + operatorReports, caught && survivors.isEmpty ? 0 : 1)
        }
        return (reports, reports.allSatisfy(\.passed) ? 0 : 1)
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
