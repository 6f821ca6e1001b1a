import AutoTrackEvents

/// Finds what no scenario was written for: generates sessions of steps, runs each twice —
/// in an app without the subject and in one with it — and compares them step by step:
/// what every original received and answered, what the app can observe, and what the
/// subject recorded against the specification of a correct hook. A failing session is
/// shrunk to a minimal one that still fails the same rule.
///
/// Generic over the host (``ExplorationHost``): the same engine drives the reference
/// host on the model or on a real runtime.
public struct Explorer<Host: ExplorationHost>: Sendable {
    /// The host.
    public let host: Host
    /// The steps of a generated session, about.
    public var sessionLength: Int
    /// How many candidate sessions shrinking may try, at most.
    public var shrinkBudget: Int
    /// How many failing sessions of one subject are shrunk and kept; later ones are
    /// only counted (``ExplorationResult/failingSessions``).
    public var counterexamplesKept: Int

    /// An explorer of `host`.
    public init(host: Host, sessionLength: Int = 24, shrinkBudget: Int = 400, counterexamplesKept: Int = 3) {
        self.host = host
        self.sessionLength = sessionLength
        self.shrinkBudget = shrinkBudget
        self.counterexamplesKept = counterexamplesKept
    }

    /// The session of `seed`: the same steps for every subject and every run.
    public func session(seed: UInt64) -> [Host.Step] {
        var random = SplitMix64(seed: seed)
        return host.generate(length: sessionLength, using: &random)
    }

    /// The records of `steps` in a world without a subject: what a correct hook must
    /// leave unchanged.
    public func baseline(_ steps: [Host.Step]) throws -> [StepRecord] {
        let world = try host.makeWorld(subject: nil)
        return steps.map { host.perform($0, in: world) }
    }

    /// The first difference between `steps` run without and with `subject`, or `nil`
    /// when the subject keeps the contract throughout. `baseline` saves running the
    /// world without a subject again (it depends on the steps only).
    public func firstDifference(
        _ steps: [Host.Step], subject: Host.Subject, baseline known: [StepRecord]? = nil
    ) throws -> SessionDifference? {
        try firstDifference(steps, subject: subject, baseline: known, inspecting: { _ in })
    }

    /// ``firstDifference(_:subject:baseline:)``, handing the subject's world to
    /// `inspect` once the session stopped (at its first difference or its end).
    package func firstDifference(
        _ steps: [Host.Step], subject: Host.Subject, baseline known: [StepRecord]? = nil, inspecting inspect: (Host.World) -> Void
    ) throws -> SessionDifference? {
        let baseline = try known ?? self.baseline(steps)
        let world = try host.makeWorld(subject: subject)
        defer { inspect(world) }
        for (index, step) in steps.enumerated() {
            let observed = host.perform(step, in: world)
            if let difference = SessionDifference.between(baseline: baseline[index], subject: observed, at: index) {
                return difference
            }
        }
        return nil
    }

    /// The first difference between `steps` run without and with `subject`, with the
    /// records of its step in both worlds — for a subject whose sessions cannot run again
    /// in this process (a native hook's installation lasts for its process), whose
    /// counterexample is the session as run (``counterexample(asRun:seed:subject:found:)``).
    public func firstDifferenceAsRun(
        _ steps: [Host.Step], subject: Host.Subject
    ) throws -> (difference: SessionDifference, withoutSubject: StepRecord, withSubject: StepRecord)? {
        let baseline = try self.baseline(steps)
        let world = try host.makeWorld(subject: subject)
        for (index, step) in steps.enumerated() {
            let observed = host.perform(step, in: world)
            if let difference = SessionDifference.between(baseline: baseline[index], subject: observed, at: index) {
                return (difference, baseline[index], observed)
            }
        }
        return nil
    }

    /// The counterexample of a session as run, not shrunk: its steps up to the first
    /// difference, with the records ``firstDifferenceAsRun(_:subject:)`` gave.
    public func counterexample(
        asRun steps: [Host.Step], seed: UInt64, subject: Host.Subject,
        found: (difference: SessionDifference, withoutSubject: StepRecord, withSubject: StepRecord)
    ) -> Counterexample<Host.Step> {
        Counterexample(
            subject: host.name(of: subject), host: host.name, seed: seed, generatedSteps: steps.count,
            steps: Array(steps.prefix(found.difference.step + 1)), difference: found.difference,
            withoutSubject: found.withoutSubject, withSubject: found.withSubject)
    }

    /// Explores `sessions` sessions from `seed` on, against each of `subjects`; every
    /// failing session is shrunk. `progress` is told of each session as it is done.
    public func explore(
        _ subjects: [Host.Subject], sessions: Int, seed: UInt64, progress: (Int) -> Void = { _ in }
    ) -> [ExplorationResult<Host.Step>] {
        var results = subjects.map { ExplorationResult<Host.Step>(subject: host.name(of: $0), host: host.name, firstSeed: seed) }
        for offset in 0..<max(0, sessions) {
            let sessionSeed = seed &+ UInt64(offset)
            let steps = session(seed: sessionSeed)
            let baseline = try? self.baseline(steps)
            for (index, subject) in subjects.enumerated() {
                results[index].sessions += 1
                results[index].steps += steps.count
                guard let baseline else {
                    results[index].errors.append("seed \(sessionSeed): the app without a subject could not be built")
                    continue
                }
                do {
                    guard let difference = try firstDifference(steps, subject: subject, baseline: baseline) else { continue }
                    results[index].failingSessions += 1
                    guard results[index].counterexamples.count < counterexamplesKept else { continue }
                    results[index].counterexamples.append(try counterexample(steps, seed: sessionSeed, subject: subject, difference: difference))
                } catch {
                    results[index].errors.append("seed \(sessionSeed): \(error)")
                }
            }
            progress(offset + 1)
        }
        return results
    }

    /// The counterexample of a failing session: shrunk, with the records of its first
    /// differing step in both worlds.
    public func counterexample(
        _ steps: [Host.Step], seed: UInt64, subject: Host.Subject, difference: SessionDifference
    ) throws -> Counterexample<Host.Step> {
        let (shrunk, shrunkDifference) = shrink(steps, subject: subject, difference: difference)
        let baseline = try self.baseline(shrunk)
        let world = try host.makeWorld(subject: subject)
        let observed = shrunk.prefix(shrunkDifference.step + 1).map { host.perform($0, in: world) }
        return Counterexample(
            subject: host.name(of: subject), host: host.name, seed: seed, generatedSteps: steps.count, steps: shrunk,
            difference: shrunkDifference, withoutSubject: baseline[shrunkDifference.step], withSubject: observed[shrunkDifference.step])
    }

    /// `steps` reduced while they still fail the same rule: chunks, then single steps,
    /// are left out as long as the session fails (delta debugging); the steps after
    /// the first difference go first.
    public func shrink(_ steps: [Host.Step], subject: Host.Subject, difference: SessionDifference) -> ([Host.Step], SessionDifference) {
        var current = Array(steps.prefix(difference.step + 1))
        var currentDifference = difference
        var budget = shrinkBudget
        func failing(_ candidate: [Host.Step]) -> SessionDifference? {
            guard budget > 0 else { return nil }
            budget -= 1
            guard let found = try? firstDifference(candidate, subject: subject), found.rule == difference.rule else { return nil }
            return found
        }
        var chunk = max(1, current.count / 2)
        while chunk >= 1, budget > 0 {
            var removedAny = false
            var start = 0
            while start < current.count, budget > 0 {
                var candidate = current
                candidate.removeSubrange(start..<min(current.count, start + chunk))
                if !candidate.isEmpty, let found = failing(candidate) {
                    current = Array(candidate.prefix(found.step + 1))
                    currentDifference = found
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if !removedAny { chunk /= 2 }
        }
        return (current, currentDifference)
    }
}

/// The first step at which a subject's world departs from the world without it.
public struct SessionDifference: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The step, counted from 0.
    public var step: Int
    /// What differed.
    public var kind: Kind
    /// The rule of the contract it breaks.
    public var rule: ContractRule
    /// What was expected: the world without the subject, or the specification.
    public var expected: [String]
    /// What the subject's world did.
    public var observed: [String]

    /// What differed.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The step ended differently (an error swallowed, raised or changed).
        case outcome
        /// An original ran a different number of times, or received something else.
        case originals
        /// The app observed something else afterwards.
        case observations
        /// The subject recorded other interactions than the specification requires.
        case interactions
        /// An interaction was recorded after the original it is about.
        case order
        /// The app ended (a signal) or stopped answering, in a child process.
        case crash
    }

    /// `step N: kind (rule): expected …, observed …`.
    public var description: String {
        "step \(step + 1): \(kind.rawValue) (\(rule)): expected \(expected), observed \(observed)"
    }

    /// The first difference within one step, or `nil`.
    static func between(baseline: StepRecord, subject: StepRecord, at step: Int) -> SessionDifference? {
        if baseline.outcome != subject.outcome {
            return SessionDifference(step: step, kind: .outcome, rule: .failOpen, expected: [baseline.outcome], observed: [subject.outcome])
        }
        if baseline.transcript != subject.transcript {
            let rule: ContractRule = baseline.transcript.count == subject.transcript.count ? .transparency : .originalOnce
            return SessionDifference(step: step, kind: .originals, rule: rule, expected: baseline.transcript, observed: subject.transcript)
        }
        if baseline.observations != subject.observations {
            let changed = zip(baseline.observations, subject.observations).filter { $0 != $1 }
            return SessionDifference(
                step: step, kind: .observations, rule: .transparency,
                expected: changed.map(\.0).nilIfEmpty ?? baseline.observations, observed: changed.map(\.1).nilIfEmpty ?? subject.observations)
        }
        if let mismatch = InteractionMatch(expected: subject.expected, recorded: subject.recorded).mismatch {
            return SessionDifference(
                step: step, kind: .interactions, rule: mismatch, expected: subject.expected.map(\.description),
                observed: subject.recorded.map(\.description))
        }
        if !subject.orderViolations.isEmpty {
            return SessionDifference(step: step, kind: .order, rule: .recordThenForward, expected: [], observed: subject.orderViolations)
        }
        return nil
    }
}

/// Whether what a subject recorded in one step meets the specification.
struct InteractionMatch {
    let expected: [ExpectedInteraction]
    let recorded: [InteractionSummary]

    /// The rule a mismatch breaks, or `nil` when they match: too many or too few at a
    /// point is rule 2; the right number with other properties (a stale snapshot, the
    /// wrong element) is rule 3.
    var mismatch: ContractRule? {
        var required: [InteractionSummary: Int] = [:]
        var allowed: [InteractionSummary: Int] = [:]
        for expectation in expected {
            allowed[expectation.interaction, default: 0] += 1
            if expectation.count == .exactlyOnce { required[expectation.interaction, default: 0] += 1 }
        }
        var seen: [InteractionSummary: Int] = [:]
        for interaction in recorded { seen[interaction, default: 0] += 1 }
        var missing: [String] = []
        var extra: [String] = []
        for (interaction, count) in required where seen[interaction, default: 0] < count {
            missing += Array(repeating: interaction.point, count: count - seen[interaction, default: 0])
        }
        for (interaction, count) in seen where count > allowed[interaction, default: 0] {
            extra += Array(repeating: interaction.point, count: count - allowed[interaction, default: 0])
        }
        if missing.isEmpty, extra.isEmpty { return nil }
        return missing.sorted() == extra.sorted() ? .recordThenForward : .oneInteraction
    }
}

/// What exploring one subject found.
public struct ExplorationResult<Step: Hashable & Sendable & Codable & CustomStringConvertible>: Hashable, Sendable, Codable {
    /// The subject's name.
    public var subject: String
    /// The host's name.
    public var host: String
    /// The first session's seed; session `k` has seed `firstSeed + k`.
    public var firstSeed: UInt64
    /// Sessions run.
    public var sessions = 0
    /// Steps run, over all sessions.
    public var steps = 0
    /// Sessions that failed, all of them.
    public var failingSessions = 0
    /// The first failing sessions, shrunk.
    public var counterexamples: [Counterexample<Step>] = []
    /// Sessions that could not run (named by seed), apart from counterexamples.
    public var errors: [String] = []
    /// For an operator mutant, how often its defect fired over every session (`nil`
    /// for other subjects).
    public var mutationFires: Int?

    /// Creates an empty result.
    public init(subject: String, host: String, firstSeed: UInt64) {
        self.subject = subject
        self.host = host
        self.firstSeed = firstSeed
    }

    /// Whether no session failed.
    public var passed: Bool { failingSessions == 0 && counterexamples.isEmpty && errors.isEmpty }

    /// An operator mutant no session could tell apart because its defect never fired:
    /// the subject never takes the path the operator changes.
    public var isEquivalentMutant: Bool { passed && mutationFires == 0 }
}

/// A failing session, shrunk: the readable program, its seed, the first differing step
/// and what both worlds did there.
public struct Counterexample<Step: Hashable & Sendable & Codable & CustomStringConvertible>: Hashable, Sendable, Codable {
    /// The subject's name.
    public var subject: String
    /// The host's name.
    public var host: String
    /// The generated session's seed.
    public var seed: UInt64
    /// How many steps the generated session had before shrinking.
    public var generatedSteps: Int
    /// The shrunk session.
    public var steps: [Step]
    /// Its first difference.
    public var difference: SessionDifference
    /// The differing step in the app without the subject.
    public var withoutSubject: StepRecord
    /// The differing step in the app with it.
    public var withSubject: StepRecord

    /// The session as a numbered program, the differing step marked.
    public var program: String {
        steps.enumerated().map { index, step in
            "\(index == difference.step ? "→" : " ") \(String(index + 1).leftPadded(to: 2)). \(step)"
        }.joined(separator: "\n")
    }

    /// The program, the difference and both worlds' records of the differing step.
    public var report: String {
        var lines = ["\(subject) on \(host): seed \(seed), shrunk from \(generatedSteps) to \(steps.count) steps", program, "", "\(difference)"]
        lines += StepRecord.diff(withoutSubject, withSubject)
        return lines.joined(separator: "\n")
    }
}

extension StepRecord {
    /// The lines of two records of one step side by side where they differ, then the
    /// subject's interactions against the specification.
    static func diff(_ without: StepRecord, _ with: StepRecord) -> [String] {
        var lines: [String] = []
        if without.outcome != with.outcome { lines += ["  outcome without: \(without.outcome)", "  outcome with:    \(with.outcome)"] }
        let transcript = TranscriptDiff(without.transcript, with.transcript)
        if !transcript.isEmpty { lines += ["  originals (- without the subject, + with it):"] + transcript.lines.map { "    \($0)" } }
        let observations = TranscriptDiff(without.observations, with.observations)
        if !observations.isEmpty { lines += ["  observations (- without, + with):"] + observations.lines.map { "    \($0)" } }
        lines += ["  required: " + (with.expected.isEmpty ? "nothing" : with.expected.map(\.description).joined(separator: "; "))]
        lines += ["  recorded: " + (with.recorded.isEmpty ? "nothing" : with.recorded.map(\.description).joined(separator: "; "))]
        lines += with.orderViolations.map { "  order: \($0)" }
        return lines
    }
}

/// A line diff of two short transcripts (longest common subsequence).
struct TranscriptDiff {
    let lines: [String]
    var isEmpty: Bool { lines.isEmpty }

    init(_ old: [String], _ new: [String]) {
        guard old != new else {
            lines = []
            return
        }
        var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var result: [String] = []
        var (i, j) = (0, 0)
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                result.append("  \(old[i])")
                (i, j) = (i + 1, j + 1)
            } else if j < new.count, i == old.count || table[i][j + 1] >= table[i + 1][j] {
                result.append("+ \(new[j])")
                j += 1
            } else {
                result.append("- \(old[i])")
                i += 1
            }
        }
        lines = result
    }
}

extension Array {
    /// `nil` when empty.
    var nilIfEmpty: Self? { isEmpty ? nil : self }
}

extension String {
    /// The string right-aligned in `width` characters.
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
