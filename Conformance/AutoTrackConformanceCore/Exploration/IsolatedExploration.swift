import AutoTrackLocking
import Dispatch
import Foundation

/// Exploration in child processes: a subject's sessions run in batches, each batch in a
/// child, so that a subject that crashes the app or hangs costs one session — reported
/// as a counterexample with its seed — not the run.
///
/// The parent (``run(subjects:sessions:seed:workers:batchSize:deadline:arguments:progress:)``)
/// starts children with the arguments its caller gives (a hidden subcommand of the
/// tool); a child calls ``runChild(_:host:seed:sessions:shrinks:fires:)``, which announces each
/// session before it runs and prints each counterexample as JSON.
public enum IsolatedExploration {
    /// What the parent learns from one batch.
    struct Batch {
        var sessions = 0
        var steps = 0
        var failing = 0
        var fires: Int?
        var counterexamples: [Counterexample<ReferenceHostStep>] = []
        var errors: [String] = []
    }

    /// Runs each subject's `sessions` sessions from `seed` in children, at most `workers`
    /// at a time, `batchSize` sessions per child; `arguments` gives a child's command
    /// line for a subject, a first seed and a number of sessions. A child that crashes
    /// or runs past `deadline` seconds is reported as a counterexample of the session it
    /// was in, and the batch goes on from the next seed in a new child.
    public static func run(
        subjects: [String], sessions: Int, seed: UInt64, workers: Int = 2, batchSize: Int = 250, deadline: Double = 300,
        arguments: @escaping @Sendable (_ subject: String, _ seed: UInt64, _ sessions: Int) -> [String],
        progress: @escaping @Sendable (_ subject: String, _ done: Int) -> Void = { _, _ in }
    ) -> [ExplorationResult<ReferenceHostStep>] {
        let results = Locked([String: ExplorationResult<ReferenceHostStep>]())
        let slots = DispatchSemaphore(value: max(1, workers))
        let group = DispatchGroup()
        for subject in subjects {
            slots.wait()
            group.enter()
            DispatchQueue.global().async {
                defer {
                    slots.signal()
                    group.leave()
                }
                var result = ExplorationResult<ReferenceHostStep>(subject: subject, host: ReferenceHostExploration().name, firstSeed: seed)
                var next = seed
                let end = seed &+ UInt64(max(0, sessions))
                while next < end {
                    let count = Int(min(UInt64(batchSize), end - next))
                    let batch = runBatch(subject: subject, seed: next, sessions: count, deadline: deadline, arguments: arguments)
                    result.sessions += batch.sessions
                    result.steps += batch.steps
                    result.failingSessions += batch.failing
                    if let fires = batch.fires { result.mutationFires = (result.mutationFires ?? 0) + fires }
                    result.counterexamples += batch.counterexamples
                    result.errors += batch.errors
                    next &+= UInt64(max(1, batch.sessions))
                    progress(subject, result.sessions)
                }
                results.withLock { $0[subject] = result }
            }
        }
        group.wait()
        return results.withLock { all in subjects.compactMap { all[$0] } }
    }

    /// One child's batch, and what became of it.
    private static func runBatch(
        subject: String, seed: UInt64, sessions: Int, deadline: Double, arguments: @Sendable (String, UInt64, Int) -> [String]
    ) -> Batch {
        var batch = Batch()
        var current: UInt64?
        let decoder = JSONDecoder()
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(arguments(subject, seed, sessions), deadline: deadline) { line in
                if line.hasPrefix("session "), let announced = UInt64(line.dropFirst(8)) {
                    current = announced
                    batch.sessions += 1
                } else if line.hasPrefix("error ") {
                    batch.errors.append(String(line.dropFirst(6)))
                } else if line.hasPrefix("failed ") {
                    batch.failing += 1
                } else if line.hasPrefix("counterexample "),
                          let counterexample = try? decoder.decode(Counterexample<ReferenceHostStep>.self, from: Data(line.dropFirst(15).utf8)) {
                    batch.counterexamples.append(counterexample)
                } else if line.hasPrefix("done ") {
                    let summary = line.dropFirst(5).split(separator: " ")
                    guard summary.count >= 2 else { return }
                    batch.steps = Int(summary[0]) ?? 0
                    if summary.count == 3 { batch.fires = Int(summary[2]) }
                }
            }
        } catch {
            batch.errors.append("seed \(seed): the child could not start: \(error)")
            return batch
        }
        guard !outcome.termination.succeeded else { return batch }
        // The child died in the session it last announced: that session is a
        // counterexample of its own (not shrunk: shrinking would crash again).
        let crashed = current ?? seed
        let steps = Explorer(host: ReferenceHostExploration()).session(seed: crashed)
        let record = StepRecord(outcome: "the app ended: \(outcome.termination)", transcript: [], observations: [])
        batch.counterexamples.append(Counterexample(
            subject: subject, host: ReferenceHostExploration().name, seed: crashed, generatedSteps: steps.count, steps: steps,
            difference: SessionDifference(
                step: max(0, steps.count - 1), kind: .crash, rule: .failOpen, expected: ["the app goes on"],
                observed: ["\(outcome.termination)"] + outcome.errorOutput.split(separator: "\n").suffix(5).map(String.init)),
            withoutSubject: StepRecord(outcome: "ok", transcript: [], observations: []), withSubject: record))
        batch.failing += 1
        if batch.sessions == 0 { batch.sessions = 1 }
        return batch
    }

    /// The child's side: runs `sessions` sessions of `subject` from `seed`, printing
    /// `session <seed>` before each, `failed <seed>` for each failing one, `error …` for
    /// one that could not run, and
    /// `counterexample <json>` for each kept failure (a batch cut short by a crash still
    /// counts what it found), and `done <steps> <failing sessions>` at the end — then,
    /// for an operator mutant, how often its defect fired (`fires`). With `shrinks`
    /// off, a failing session is reported as run (for a subject whose sessions cannot run
    /// again in the same process: give each child one session).
    public static func runChild(
        _ subject: ConformanceSubject, host: ReferenceHostExploration = ReferenceHostExploration(), seed: UInt64, sessions: Int,
        shrinks: Bool = true, fires: (() -> Int)? = nil
    ) {
        let explorer = Explorer(host: host)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var steps = 0
        var failing = 0
        var kept = 0
        for offset in 0..<max(0, sessions) {
            let sessionSeed = seed &+ UInt64(offset)
            say("session \(sessionSeed)")
            let session = explorer.session(seed: sessionSeed)
            steps += session.count
            do {
                let counterexample: Counterexample<ReferenceHostStep>
                if shrinks {
                    guard let difference = try explorer.firstDifference(session, subject: subject) else { continue }
                    failing += 1
                    say("failed \(sessionSeed)")
                    guard kept < explorer.counterexamplesKept else { continue }
                    counterexample = try explorer.counterexample(session, seed: sessionSeed, subject: subject, difference: difference)
                } else {
                    guard let found = try explorer.firstDifferenceAsRun(session, subject: subject) else { continue }
                    failing += 1
                    say("failed \(sessionSeed)")
                    guard kept < explorer.counterexamplesKept else { continue }
                    counterexample = explorer.counterexample(asRun: session, seed: sessionSeed, subject: subject, found: found)
                }
                let json = try encoder.encode(counterexample)
                kept += 1
                say("counterexample " + String(decoding: json, as: UTF8.self))
            } catch {
                say("error seed \(sessionSeed): \(error)".replacingOccurrences(of: "\n", with: " "))
            }
        }
        say("done \(steps) \(failing)" + (fires.map { " \($0())" } ?? ""))
    }

    /// Writes a line to standard output at once (unbuffered: the parent reads it even if
    /// the next session ends the process).
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
