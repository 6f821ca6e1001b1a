import Foundation

/// Measures variants side by side in one process: each round times every variant once,
/// in turn, so drift of the machine affects all alike; the reported figure is each
/// variant's median round.
struct BenchmarkHarness {
    /// A variant under test: runs its operation `count` times and returns a checksum
    /// that keeps the work from being optimised away. `prepare` runs untimed before
    /// every run (to refill a queue, or let background work settle).
    struct Variant {
        let name: String
        let operationsPerRun: Int
        let bytesPerRun: Int
        var prepare: () -> Void = {}
        let body: () -> Int
    }

    var rounds = 9
    /// Whether each variant runs once, untimed, before the rounds. Off where a run leaves
    /// something behind for good (real classes registered on the real runtime).
    var warmsUp = true

    func measure(_ variants: [Variant]) -> [BenchmarkResult] {
        var samples = Array(repeating: [Double](), count: variants.count)
        var checksum = 0
        for variant in variants where warmsUp {
            variant.prepare()
            checksum &+= variant.body()
        }
        for _ in 0..<rounds {
            for (index, variant) in variants.enumerated() {
                variant.prepare()
                let start = DispatchTime.now().uptimeNanoseconds
                checksum &+= variant.body()
                let elapsed = DispatchTime.now().uptimeNanoseconds - start
                samples[index].append(Double(elapsed))
            }
        }
        if checksum == 42 { print("") } // keep the checksum alive
        return variants.enumerated().map { index, variant in
            let sorted = samples[index].sorted()
            let median = sorted[sorted.count / 2]
            return BenchmarkResult(
                name: variant.name,
                nanosecondsPerOperation: median / Double(variant.operationsPerRun),
                bytesPerOperation: Double(variant.bytesPerRun) / Double(variant.operationsPerRun))
        }
    }
}

/// One variant's figure.
struct BenchmarkResult {
    let name: String
    let nanosecondsPerOperation: Double
    let bytesPerOperation: Double

    var operationsPerSecond: Double { 1e9 / nanosecondsPerOperation }
    var megabytesPerSecond: Double { bytesPerOperation / nanosecondsPerOperation * 1e9 / 1e6 }
}

/// One run of a benchmark group: its notes and sections of results
/// (``RepeatedBenchmarkReport`` prints them, over one run or several).
struct BenchmarkReport {
    let group: String
    let context: [String]
    let sections: [Section]

    struct Section {
        let title: String
        let unit: String
        let results: [BenchmarkResult]
        /// The result the others are compared with.
        let baseline: String
        let showThroughput: Bool
        /// What rows should reach, by row name (judged on the median).
        var goals: [String: BenchmarkGoal] = [:]
    }
}
