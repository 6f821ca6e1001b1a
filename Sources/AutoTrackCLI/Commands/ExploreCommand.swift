import AutoTrackConformanceCore
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackLocking
import Foundation

/// `autotrack conformance --explore N`: generated sessions against every built-in hook
/// (with `--mutants`, against every hand-written and operator mutant), each subject's
/// sessions in child processes (`explore-worker`), compared with the same sessions in
/// an app without the subject and with the specification of a correct hook.
struct ExploreCommand {
    let sessions: Int
    let seed: UInt64
    let mutants: Bool
    var point: InterceptionPoint?
    var jsonOutput: String?
    var junitOutput: String?
    var htmlOutput: String?
    /// A library of hooks written in C or Objective-C to explore instead.
    var hookLibrary: String?

    /// The subjects explored, by name: the built-in hooks, or the mutants.
    var subjects: [ConformanceSubject] {
        let all = mutants ? Self.mutantSubjects : BuiltInHooks.all().map { ConformanceSubject(any: $0) }
        return all.filter { point == nil || $0.point == point }
    }

    /// Every hand-written mutant, then every operator applied to every built-in hook.
    static var mutantSubjects: [ConformanceSubject] {
        Mutants.all.map(\.subject) + BuiltInHooks.all().flatMap { hook in
            OperatorMutants.MutationOperator.all.map {
                OperatorMutants.mutant(of: ConformanceSubject(any: hook), $0, fires: OperatorMutants.FireCounter())
            }
        }
    }

    /// A subject by its name: a built-in hook, a hand-written mutant or an operator
    /// mutant (`mutant/<operator>/<hook>`), with the counter of an operator mutant's
    /// defect (`nil` for the others).
    static func subject(named name: String) -> (subject: ConformanceSubject, fires: OperatorMutants.FireCounter?)? {
        let hooks = BuiltInHooks.all().map { ConformanceSubject(any: $0) }
        if let hook = hooks.first(where: { $0.name == name }) { return (hook, nil) }
        if let mutant = Mutants.all.first(where: { $0.subject.name == name }) { return (mutant.subject, nil) }
        for hook in hooks {
            for mutationOperator in OperatorMutants.MutationOperator.all where name == "mutant/\(mutationOperator)/\(hook.name)" {
                let fires = OperatorMutants.FireCounter()
                return (OperatorMutants.mutant(of: hook, mutationOperator, fires: fires), fires)
            }
        }
        return nil
    }

    /// The static member that names `point` in Swift: `delegate-selection` → `delegateSelection`.
    static func memberName(of point: InterceptionPoint) -> String {
        // Where the member's capitals are not the name's words.
        if point == .swiftUITap { return "swiftUITap" }
        let words = point.name.split(separator: "-")
        return words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
    }

    func run() throws -> Int32 {
        let subjects = try hookLibrary.map { try NativeHookCatalog.subjects(library: $0).filter { point == nil || $0.point == point } } ?? self.subjects
        let names = subjects.map(\.name)
        let kind = hookLibrary.map { "hooks of \(URL(fileURLWithPath: $0).lastPathComponent)" } ?? (mutants ? "mutants" : "built-in hooks")
        print("Exploring \(names.count) \(kind) × \(sessions) generated sessions from seed \(seed), "
              + (hookLibrary == nil ? "each subject's sessions in child processes" : "each session in a child process on the real runtime")
              + " (2 at a time), against the same sessions without the subject")
        let start = ContinuousClock.now
        let total = names.count * sessions
        let done = ProgressCounter()
        let library = hookLibrary
        let results = IsolatedExploration.run(
            subjects: names, sessions: sessions, seed: seed, batchSize: library == nil ? 250 : 1, arguments: { subject, seed, count in
                ["explore-worker", "--subject", subject, "--seed", "\(seed)", "--sessions", "\(count)"] + (library.map { ["--hook-library", $0] } ?? [])
            }, progress: { subject, finished in
            let sessionsDone = done.advance(subject: subject, to: finished)
            if total >= 2_000 { printError("explore: \(sessionsDone)/\(total) sessions (\(subject): \(finished))") }
        })
        let elapsed = start.duration(to: .now)
        let report = ExplorationReport(
            seed: seed, sessions: sessions,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, results: results)
        for counterexample in report.counterexamples.prefix(mutants ? 0 : 20) {
            print("\n" + counterexample.report)
            let point = subjects.first { $0.name == counterexample.subject }?.point
            print("\nTo keep it in the catalog, add to ExplorationRegressions.sessions:\n"
                  + counterexample.regressionSource(id: "EXP-\(ExplorationRegressions.sessions.count + 1)", point: point.map(Self.memberName) ?? ""))
        }
        print("\n" + report.summary)
        if mutants {
            let equivalent = results.filter(\.isEquivalentMutant)
            let killed = results.filter { !$0.passed }.count
            let candidates = results.count - equivalent.count
            print("exploration alone killed \(killed) of \(candidates) non-equivalent mutants "
                  + "(\(equivalent.count) equivalent: their defect never fired in any session)")
            for result in results where result.passed && !result.isEquivalentMutant { print("  SURVIVED: \(result.subject)") }
        }
        if let jsonOutput {
            try report.jsonData().write(to: URL(fileURLWithPath: jsonOutput))
            print("Wrote \(jsonOutput)")
        }
        if let junitOutput {
            try report.junit.write(toFile: junitOutput, atomically: true, encoding: .utf8)
            print("Wrote \(junitOutput)")
        }
        if let htmlOutput {
            try report.html.write(toFile: htmlOutput, atomically: true, encoding: .utf8)
            print("Wrote \(htmlOutput)")
        }
        // Built-in hooks must pass; mutants must each be caught, unless their defect
        // never fired (an operator on a path the hook never takes).
        return mutants ? (results.allSatisfy { !$0.passed || $0.isEquivalentMutant } ? 0 : 1) : (report.passed ? 0 : 1)
    }
}

/// Sessions done so far, over every subject (children report from several threads).
final class ProgressCounter: Sendable {
    private let done = Locked([String: Int]())

    func advance(subject: String, to finished: Int) -> Int {
        done.withLock { done in
            done[subject] = finished
            return done.values.reduce(0, +)
        }
    }
}

/// `autotrack explore-worker --subject S --seed N --sessions K`: one batch of a
/// subject's sessions in this process (see `IsolatedExploration`).
struct ExploreWorkerCommand {
    let subject: String
    let seed: UInt64
    let sessions: Int
    /// The library whose hook `subject` names, when it is a native hook.
    var hookLibrary: String?

    func run() throws -> Int32 {
        #if AUTOTRACK_OBJC
        if let hookLibrary {
            // One session per process: a native hook's installation lasts for its
            // process, so a failing session is reported as run, not shrunk.
            let native = try NativeHookCatalog.subject(library: hookLibrary, named: subject)
            IsolatedExploration.runChild(
                native, host: ReferenceHostExploration(backend: NativeHookCatalog.backend), seed: seed, sessions: sessions, shrinks: false)
            return 0
        }
        #endif
        guard let found = ExploreCommand.subject(named: subject) else { throw UsageError(message: "unknown subject '\(subject)'") }
        IsolatedExploration.runChild(found.subject, seed: seed, sessions: sessions, fires: found.fires.map { fires in { fires.total } })
        return 0
    }
}
