#if AUTOTRACK_OBJC
import AutoTrackRuntimeOracle
#endif
import AutoTrackConformanceCore
import Foundation
import AutoTrackLocking

/// `autotrack oracle`: the differential oracle — seeded random programs of runtime
/// operations on the package's model and on the real Objective-C runtime, compared send
/// by send — in batches of child processes, so that a program that crashes the real
/// runtime is reported (with its seed and signal) and the run goes on.
struct OracleCommand {
    let programs: Int
    let seed: UInt64
    let workers: Int
    var jsonOutput: String?
    /// Test helper: the program with this seed crashes its process on purpose.
    var crashSeed: UInt64?

    /// Programs per child process: every class a program makes stays registered, and
    /// some of GCC's runtime calls visit every class, so a fresh process per batch keeps
    /// each program cheap.
    static let batchSize = 500
    /// How long one batch may take before its process is killed as hung.
    static let batchDeadline = 120.0

    /// A program that ended its process.
    struct Crash: Codable, Hashable, Sendable {
        var seed: UInt64
        var termination: String
        var program: String
        /// The start of what the process wrote to standard error (the crash report).
        var errorOutput: String
    }

    struct Summary: Codable, Sendable {
        var backend = "model vs objc (GCC libobjc + GNUstep Base)"
        var programs = 0
        var operations = 0
        var sends = 0
        var divergences: [String] = []
        var crashes: [Crash] = []
    }

    func run() throws -> Int32 {
        #if AUTOTRACK_OBJC
        let queue = Locked<[(start: UInt64, count: Int)]>(stride(from: 0, to: programs, by: Self.batchSize).map { offset in
            (seed &+ UInt64(offset), min(Self.batchSize, programs - offset))
        })
        let report = Locked(DifferentialOracle.Report())
        let crashes = Locked<[Crash]>([])
        let failures = Locked<[String]>([])
        let started = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: max(1, workers)) { _ in
            while let batch = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                do {
                    let (partial, crash, rest) = try Self.runBatch(start: batch.start, count: batch.count, crashSeed: crashSeed)
                    report.withLock { $0.add(partial) }
                    if let crash { crashes.withLock { $0.append(crash) } }
                    queue.withLock { $0 += rest }
                } catch {
                    failures.withLock { $0.append("programs from seed \(batch.start): \(error)") }
                }
            }
        }
        let elapsed = ContinuousClock.now - started
        let final = report.withLock { $0 }
        let crashed = crashes.withLock { $0 }.sorted { $0.seed < $1.seed }
        let errors = failures.withLock { $0 }
        print("""
            differential oracle: \(final.programs) programs (\(final.operations) operations, \(final.sends) sends) \
            on the model and on the real runtime (GCC libobjc + GNUstep Base), seeds \(seed)…\(seed &+ UInt64(max(0, programs - 1))), \
            \(workers) worker processes, \(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1))))
            divergences: \(final.divergences.count); crashes: \(crashed.count)
            """)
        for divergence in final.divergences.prefix(10) { print("\n\(divergence)") }
        for crash in crashed {
            print("\nseed \(crash.seed) ended its process: \(crash.termination)\n\(crash.program)\n\(crash.errorOutput)")
        }
        for error in errors { printError("error: \(error)") }
        if let jsonOutput {
            let summary = Summary(
                programs: final.programs, operations: final.operations, sends: final.sends,
                divergences: final.divergences.map(\.description), crashes: crashed)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(summary).write(to: URL(fileURLWithPath: jsonOutput))
        }
        return final.divergences.isEmpty && crashed.isEmpty && errors.isEmpty && final.programs == programs ? 0 : 1
        #else
        printError(Self.unavailable)
        return 1
        #endif
    }

    /// Why the command cannot run in this build.
    static let unavailable = """
        autotrack oracle: this build has no real Objective-C runtime. Install Debian's \
        libobjc-12-dev, libgnustep-base-dev and libblocksruntime-dev, then rebuild \
        (the package adds the real-runtime targets when it finds them).
        """

    #if AUTOTRACK_OBJC
    /// Runs one batch in a child process: its report, the crash that ended it early (if
    /// one did), and the programs still to run — those the crash cut off, and those
    /// before the culprit, whose results were lost with the process.
    static func runBatch(
        start: UInt64, count: Int, crashSeed: UInt64?
    ) throws -> (DifferentialOracle.Report, Crash?, [(start: UInt64, count: Int)]) {
        var lastStarted: UInt64?
        var report: DifferentialOracle.Report?
        var arguments = ["oracle-worker", "--programs", String(count), "--seed", String(start)]
        if let crashSeed { arguments += ["--crash-seed", String(crashSeed)] }
        let outcome = try ChildProcess.run(arguments, deadline: batchDeadline) { line in
            if line.hasPrefix("start "), let seed = UInt64(line.dropFirst(6)) { lastStarted = seed }
            if line.hasPrefix("report "), let data = line.dropFirst(7).data(using: .utf8) {
                report = try? JSONDecoder().decode(DifferentialOracle.Report.self, from: data)
            }
        }
        if outcome.termination.succeeded, let report { return (report, nil, []) }
        let culprit = lastStarted ?? start
        let before = Int(culprit &- start)
        var counted = DifferentialOracle.Report()
        counted.programs = 1
        let crash = Crash(
            seed: culprit, termination: outcome.termination.description,
            program: DifferentialOracle.program(seed: culprit).description,
            errorOutput: String(outcome.errorOutput.prefix(1_500)))
        var rest: [(start: UInt64, count: Int)] = []
        if before > 0 { rest.append((start, before)) }
        if count - before - 1 > 0 { rest.append((culprit &+ 1, count - before - 1)) }
        return (counted, crash, rest)
    }
    #endif
}

/// `autotrack oracle-worker`: one batch of the differential oracle in this process,
/// announcing each program's seed before it runs and printing the report as JSON.
struct OracleWorkerCommand {
    let programs: Int
    let seed: UInt64
    var crashSeed: UInt64?

    func run() throws -> Int32 {
        #if AUTOTRACK_OBJC
        let crashSeed = crashSeed
        let report = DifferentialOracle.run(programs: programs, seed: seed) { seed in
            FileHandle.standardOutput.write(Data("start \(seed)\n".utf8))
            if seed == crashSeed { DifferentialOracle.crashLikeABrokenSuperSend() }
        }
        let json = try JSONEncoder().encode(report)
        FileHandle.standardOutput.write(Data("report ".utf8) + json + Data("\n".utf8))
        return 0
        #else
        printError(OracleCommand.unavailable)
        return 1
        #endif
    }
}
