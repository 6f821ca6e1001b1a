import AutoTrackEvents
import CObjCRuntimeBridge

/// The real Objective-C runtime as the oracle of the package's model: seeded random
/// ``RuntimeProgram``s run on both, compared operation by operation — which
/// implementations each send ran (super sends and forwarding included), whether it
/// raised, and what every runtime call answered.
///
/// A divergence is shrunk to the fewest operations that still diverge and reported
/// with the program, so it reads as a test case:
///
/// ```swift
/// let report = DifferentialOracle.run(programs: 10_000, seed: 1)
/// for divergence in report.divergences { print(divergence) }
/// ```
public enum DifferentialOracle {
    /// What a run found.
    public struct Report: Hashable, Sendable, Codable {
        /// Programs run on both runtimes.
        public var programs = 0
        /// Operations compared.
        public var operations = 0
        /// Sends compared (each with its implementation trace).
        public var sends = 0
        /// Programs whose runtimes disagreed, shrunk.
        public var divergences: [Divergence] = []

        /// An empty report.
        public init() {}

        /// Adds another run's counts and divergences.
        public mutating func add(_ other: Report) {
            programs += other.programs
            operations += other.operations
            sends += other.sends
            divergences += other.divergences
        }
    }

    /// One program on which the runtimes disagreed.
    public struct Divergence: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The seed the program was generated from.
        public var seed: UInt64
        /// The shrunk program: removing any one operation makes the runtimes agree.
        public var program: RuntimeProgram
        /// The index of the first operation whose observations differ.
        public var operation: Int
        /// What the model showed there.
        public var model: Observation
        /// What the real runtime showed there.
        public var real: Observation

        /// The program, the operation, and the two observations.
        public var description: String {
            """
            seed \(seed): the model and the real runtime differ at operation \(operation) \
            (\(program.operations[operation])): model \(model), real \(real)
            \(program)
            """
        }
    }

    /// The program generated from `seed`.
    public static func program(seed: UInt64) -> RuntimeProgram {
        var generator = SplitMix64(seed: seed)
        return RuntimeProgram.random(using: &generator)
    }

    /// Runs `programs` programs generated from seeds `seed`, `seed + 1`, …, calling
    /// `willRun` with each seed first (a supervising process reads it to name the
    /// program that crashed, if one does).
    ///
    /// Every class a program makes stays registered (the real runtime cannot dispose of
    /// a registered class), and some of GCC's runtime calls visit every class, so runs
    /// of many thousands of programs belong in several processes: `autotrack oracle`
    /// runs them in batches of child processes.
    public static func run(programs: Int, seed: UInt64 = 1, willRun: (UInt64) -> Void = { _ in }) -> Report {
        var report = Report()
        for offset in 0..<UInt64(max(0, programs)) {
            let programSeed = seed &+ offset
            willRun(programSeed)
            let program = program(seed: programSeed)
            report.programs += 1
            report.operations += program.operations.count
            report.sends += program.operations.filter { if case .send = $0 { true } else { false } }.count
            if firstDifference(in: program) != nil {
                report.divergences.append(shrink(program, seed: programSeed))
            }
        }
        return report
    }

    /// Crashes the process the way a broken super send does on GCC's runtime (GCC's own
    /// `objc_msg_lookup_super` for a selector no superclass implements): what the
    /// isolation of `autotrack oracle` is tested with.
    public static func crashLikeABrokenSuperSend() -> Never {
        atr_crashWithGCCSuperLookup()
        fatalError("the real runtime did not crash")
    }

    /// Runs one program on both runtimes: their observations, in order.
    public static func compare(_ program: RuntimeProgram) -> (model: [Observation], real: [Observation]) {
        (ModelExecution.run(program), ObjCExecution.run(program))
    }

    /// Where the runtimes first differ on `program`, if they do.
    static func firstDifference(in program: RuntimeProgram) -> (index: Int, model: Observation, real: Observation)? {
        let (model, real) = compare(program)
        return firstDifference(model, real)
    }

    /// Where two runs' observations first differ — a run that ended early differs at
    /// the first operation it did not observe.
    public static func firstDifference(_ model: [Observation], _ real: [Observation]) -> (index: Int, model: Observation, real: Observation)? {
        for index in 0..<max(model.count, real.count) {
            let fromModel = index < model.count ? model[index] : .missing
            let fromReal = index < real.count ? real[index] : .missing
            if fromModel != fromReal { return (index, fromModel, fromReal) }
        }
        return nil
    }

    /// Removes operations one at a time, as long as the runtimes still differ.
    static func shrink(_ program: RuntimeProgram, seed: UInt64) -> Divergence {
        var smallest = program
        var removed = true
        while removed {
            removed = false
            for index in smallest.operations.indices.reversed() {
                var candidate = smallest
                candidate.operations.remove(at: index)
                if firstDifference(in: candidate) != nil {
                    smallest = candidate
                    removed = true
                }
            }
        }
        let difference = firstDifference(in: smallest)!
        return Divergence(seed: seed, program: smallest, operation: difference.index, model: difference.model, real: difference.real)
    }
}
