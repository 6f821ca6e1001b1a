import AutoTrackConformanceCore
import AutoTrackHooks
import AutoTrackInterception
#if AUTOTRACK_OBJC
import AutoTrackObjCBackend
#endif
import Foundation

/// The whole catalog on the real Objective-C runtime: the reference host and the
/// built-in hooks, unchanged, in a runtime whose dispatch GCC's libobjc decides
/// (`MirroredRuntime`). Each subject's scenarios run in a child process
/// (`mirrored-catalog`), a crash costing one scenario (``IsolatedCatalog``).
enum MirroredCatalog {
    /// The backend: mirrored runtimes.
    static var backend: ScenarioBackend? {
        #if AUTOTRACK_OBJC
        ScenarioBackend(name: "objc") { MirroredRuntime.make() }
        #else
        nil
        #endif
    }

    /// A subject by name: a built-in hook or a hand-written mutant, with the scenarios
    /// that must catch it (none for a built-in hook).
    static func subject(named name: String) -> (subject: ConformanceSubject, caughtBy: [String])? {
        if let hook = BuiltInHooks.all().first(where: { $0.name == name }) { return (ConformanceSubject(any: hook), []) }
        return Mutants.all.first { $0.subject.name == name }.map { ($0.subject, $0.caughtBy) }
    }

    /// Runs `subject`'s applicable scenarios (of `scenarioIDs`, all when empty) — with a
    /// mutation operator applied, when given — in children.
    static func run(_ subject: ConformanceSubject, operator: String? = nil, scenarioIDs: Set<String>) throws -> IsolatedCatalog.Result {
        let scenarios = ScenarioCatalog.all.filter { $0.applies(to: subject.point) && (scenarioIDs.isEmpty || scenarioIDs.contains($0.id)) }
        let name = `operator`.map { "mutant/\($0)/\(subject.name)" } ?? subject.name
        return try IsolatedCatalog.run(
            subject: name, point: subject.point.name, scenarios: scenarios.map { ($0.id, $0.title, $0.failure) }, backend: "objc"
        ) { ids in
            ["mirrored-catalog", "--subject", subject.name] + (`operator`.map { ["--operator", $0] } ?? []) + ids.flatMap { ["--scenario", $0] }
        }
    }

    /// The built-in hooks' reports; prints the matrix. Status 0 when all pass.
    static func evaluateBuiltIns(point: InterceptionPoint?, scenarioIDs: Set<String>) throws -> ([ConformanceReport], Int32) {
        let hooks = BuiltInHooks.all().filter { point == nil || $0.point == point }
        let results = try hooks.map { try run(ConformanceSubject(any: $0), scenarioIDs: scenarioIDs) }
        let reports = results.map(\.report)
        let scenarios = ScenarioCatalog.all.filter { scenarioIDs.isEmpty || scenarioIDs.contains($0.id) }
        print("\nConformance of the built-in hooks on the real runtime (objc: the reference host's classes, methods and objects in GCC's libobjc, which decides every send; each hook in its own process)")
        print(ConformanceMatrix.text(reports, scenarios: scenarios))
        for report in reports where !report.passed { print("\n" + report.table) }
        return (reports, reports.allSatisfy(\.passed) ? 0 : 1)
    }

    /// The hand-written and operator mutants on the real runtime; prints what caught
    /// them. Status 0 when every one is caught (operators: killed or equivalent).
    static func evaluateMutants(point: InterceptionPoint?, scenarioIDs: Set<String>) throws -> ([ConformanceReport], Int32) {
        var reports: [ConformanceReport] = []
        var survivors: [String] = []
        print("\nThe hand-written mutants on the real runtime (objc)")
        for mutant in Mutants.all where point == nil || mutant.subject.point == point {
            let result = try run(mutant.subject, scenarioIDs: scenarioIDs)
            reports.append(result.report)
            let missed = scenarioIDs.isEmpty ? mutant.missed(in: result.report) : []
            if !missed.isEmpty { survivors.append("\(mutant.subject.name) not caught by \(missed.joined(separator: ", "))") }
            print("  \(mutant.subject.name): \(missed.isEmpty ? "caught by \(result.report.failedScenarioIDs.prefix(6).joined(separator: " "))" : "NOT CAUGHT by \(missed.joined(separator: " "))")")
        }
        var operatorResults: [OperatorMutants.Result] = []
        for hook in BuiltInHooks.all() where point == nil || hook.point == point {
            let subject = ConformanceSubject(any: hook)
            for mutationOperator in OperatorMutants.MutationOperator.all {
                let result = try run(subject, operator: mutationOperator.description, scenarioIDs: scenarioIDs)
                reports.append(result.report)
                operatorResults.append(OperatorMutants.result(of: subject, mutationOperator, report: result.report, fires: result.fires))
            }
        }
        print("\n\(operatorResults.count) operator mutants on the real runtime (objc)")
        for result in operatorResults {
            print("  \(result.mutant): \(result.verdict)")
        }
        print(OperatorMutants.scoreTable(operatorResults))
        let operatorSurvivors = operatorResults.filter { !$0.isKilled && !$0.isEquivalent }
        print(survivors.isEmpty && operatorSurvivors.isEmpty
            ? "objc: every hand-written mutant is caught by the scenarios that name it, every non-equivalent operator mutant is killed"
            : (survivors + operatorSurvivors.map { "\($0.mutant) SURVIVED" }).joined(separator: "\n"))
        return (reports, survivors.isEmpty && operatorSurvivors.isEmpty ? 0 : 1)
    }
}

/// `autotrack mirrored-catalog --subject S [--operator O] --scenario ID …`: scenarios of
/// one subject on a mirrored runtime in this process, reported line by line
/// (``IsolatedCatalog``).
struct MirroredCatalogCommand {
    let subject: String
    var operatorName: String?
    let scenarioIDs: [String]
    /// The library whose hook `subject` names, when the subject is a native hook.
    var hookLibrary: String?

    func run() throws -> Int32 {
        guard let backend = MirroredCatalog.backend else {
            printError(OracleCommand.unavailable)
            return 1
        }
        let scenarios = try scenarioIDs.map { id in
            guard let scenario = ScenarioCatalog.scenario(id) else { throw UsageError(message: "unknown scenario \(id)") }
            return scenario
        }
        #if AUTOTRACK_OBJC
        if let hookLibrary {
            let native = try NativeHookCatalog.subject(library: hookLibrary, named: subject)
            try IsolatedCatalog.runChild(native, scenarios: scenarios, backend: NativeHookCatalog.backend)
            return 0
        }
        #endif
        guard let (found, _) = MirroredCatalog.subject(named: subject) else {
            throw UsageError(message: "unknown subject '\(subject)'")
        }
        guard let operatorName else {
            try IsolatedCatalog.runChild(found, scenarios: scenarios, backend: backend)
            return 0
        }
        guard let mutationOperator = OperatorMutants.mutationOperator(named: operatorName) else {
            throw UsageError(message: "unknown operator '\(operatorName)'")
        }
        let fires = OperatorMutants.FireCounter()
        try IsolatedCatalog.runChild(OperatorMutants.mutant(of: found, mutationOperator, fires: fires), scenarios: scenarios, backend: backend) {
            fires.total
        }
        return 0
    }
}
