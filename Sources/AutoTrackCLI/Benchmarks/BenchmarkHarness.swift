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

    func measure(_ variants: [Variant]) -> [BenchmarkResult] {
        var samples = Array(repeating: [Double](), count: variants.count)
        var checksum = 0
        for variant in variants { // warm-up
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

/// A benchmark group's printed and machine-readable output.
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
    }

    func table() -> String {
        var lines = ["bench \(group)"] + context.map { "  \($0)" }
        for section in sections {
            lines.append("")
            lines.append(section.title)
            let base = section.results.first { $0.name == section.baseline }
            var header = "  " + "variant".padding(toLength: 40, withPad: " ", startingAt: 0)
                + pad("\(section.unit)/s", 14) + pad("ns/\(section.unit)", 12)
            if section.showThroughput { header += pad("MB/s", 10) }
            header += pad("time vs \(section.baseline)", 22)
            lines.append(header)
            for result in section.results {
                var line = "  " + result.name.padding(toLength: 40, withPad: " ", startingAt: 0)
                    + pad(format(result.operationsPerSecond, digits: 0), 14)
                    + pad(format(result.nanosecondsPerOperation, digits: 1), 12)
                if section.showThroughput { line += pad(format(result.megabytesPerSecond, digits: 1), 10) }
                if let base {
                    line += pad(format(result.nanosecondsPerOperation / base.nanosecondsPerOperation, digits: 2) + "×", 22)
                }
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n")
    }

    func jsonData() throws -> Data {
        let object: [String: Any] = [
            "group": group,
            "context": context,
            "sections": sections.map { section in
                [
                    "title": section.title,
                    "unit": section.unit,
                    "baseline": section.baseline,
                    "results": section.results.map { result in
                        [
                            "name": result.name,
                            "operationsPerSecond": result.operationsPerSecond,
                            "nanosecondsPerOperation": result.nanosecondsPerOperation,
                            "megabytesPerSecond": result.megabytesPerSecond,
                        ] as [String: Any]
                    },
                ] as [String: Any]
            },
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }

    private func format(_ value: Double, digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
