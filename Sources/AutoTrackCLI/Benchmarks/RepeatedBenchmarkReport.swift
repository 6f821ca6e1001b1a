import Foundation

/// What N repetitions of a benchmark group come to: per row, the median figure with
/// its min and max, and the median of the ratios each repetition measured against its
/// section's baseline; the machine's load; and which goals the medians meet.
struct RepeatedBenchmarkReport {
    let group: String
    let repetitions: [BenchmarkReport]
    let load: MachineLoad?

    /// One row over the repetitions.
    struct Row {
        let name: String
        /// Nanoseconds per operation.
        let time: Spread
        /// Time ÷ the baseline's time, taken within each repetition.
        let ratio: Spread?
        let bytesPerOperation: Double
        let goal: BenchmarkGoal?

        /// Operations per second at the median time.
        var operationsPerSecond: Double { 1e9 / time.median }
        /// Whether the median meets the row's goal (`nil`: no goal).
        var meetsGoal: Bool? { goal.map { $0.isMet(timeNanoseconds: time.median, ratio: ratio?.median) } }
    }

    /// One section over the repetitions.
    struct Section {
        let title: String
        let unit: String
        let baseline: String
        let showThroughput: Bool
        let rows: [Row]
    }

    /// The sections, in the first repetition's order; a row missing from some
    /// repetition (a failed setup) is summarised over those that have it.
    var sections: [Section] {
        guard let first = repetitions.first else { return [] }
        return first.sections.map { section in
            let matching = repetitions.compactMap { $0.sections.first { $0.title == section.title } }
            let rows = section.results.map { result in
                var times: [Double] = []
                var ratios: [Double] = []
                for measuredSection in matching {
                    guard let measured = measuredSection.results.first(where: { $0.name == result.name }) else { continue }
                    times.append(measured.nanosecondsPerOperation)
                    if let base = measuredSection.results.first(where: { $0.name == section.baseline }), base.nanosecondsPerOperation > 0 {
                        ratios.append(measured.nanosecondsPerOperation / base.nanosecondsPerOperation)
                    }
                }
                return Row(name: result.name, time: Spread(times), ratio: ratios.isEmpty ? nil : Spread(ratios),
                           bytesPerOperation: result.bytesPerOperation, goal: section.goals[result.name])
            }
            return Section(title: section.title, unit: section.unit, baseline: section.baseline, showThroughput: section.showThroughput, rows: rows)
        }
    }

    /// The printed tables: every row's figure, its time against the section's baseline
    /// and its goal; with several repetitions each figure is the median `[min–max]`.
    func table() -> String {
        let repeated = repetitions.count > 1
        func spread(_ value: Spread, _ digits: Int, suffix: String = "") -> String {
            let median = format(value.median, digits) + suffix
            return repeated ? "\(median) [\(format(value.min, digits))–\(format(value.max, digits))]" : median
        }
        var lines = [repeated
            ? "bench \(group): \(repetitions.count) repetitions, each figure the median [min–max]; ratios taken within a repetition"
            : "bench \(group)"]
        if let load { lines.append("  \(load.summary)") }
        lines += (repetitions.last?.context ?? []).map { repeated ? "  repetition \(repetitions.count): \($0)" : "  \($0)" }
        for section in sections {
            lines.append("")
            lines.append(section.title)
            let timeWidth = repeated ? 26 : 12
            let ratioWidth = repeated ? 24 : 22
            var header = "  " + "variant".padding(toLength: 40, withPad: " ", startingAt: 0) + pad("\(section.unit)/s", 14)
                + pad("ns/\(section.unit)\(repeated ? " [min–max]" : "")", timeWidth)
            if section.showThroughput { header += pad("MB/s", 10) }
            header += pad("time vs \(section.baseline)", ratioWidth)
            if section.rows.contains(where: { $0.goal != nil }) { header += "  goal" }
            lines.append(header)
            for row in section.rows {
                var line = "  " + row.name.padding(toLength: 40, withPad: " ", startingAt: 0) + pad(format(row.operationsPerSecond, 0), 14)
                    + pad(spread(row.time, 1), timeWidth)
                if section.showThroughput { line += pad(format(row.bytesPerOperation / row.time.median * 1e9 / 1e6, 1), 10) }
                line += pad(row.ratio.map { spread($0, 2, suffix: "×") } ?? "", ratioWidth)
                if let goal = row.goal, let met = row.meetsGoal { line += "  \(goal) \(met ? "met" : "MISSED")" }
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The JSON form: every row's median figures under the names a single run uses,
    /// with their spread, ratio, goal, the repetition count and the machine's load.
    func jsonData() throws -> Data {
        var object: [String: Any] = [
            "group": group,
            "runs": repetitions.count,
            "context": repetitions.last?.context ?? [],
            "sections": sections.map { section in
                [
                    "title": section.title, "unit": section.unit, "baseline": section.baseline,
                    "results": section.rows.map { row in
                        var result: [String: Any] = [
                            "name": row.name,
                            "operationsPerSecond": row.operationsPerSecond,
                            "nanosecondsPerOperation": row.time.median,
                            "nanosecondsPerOperationMin": row.time.min,
                            "nanosecondsPerOperationMax": row.time.max,
                            "megabytesPerSecond": row.bytesPerOperation / row.time.median * 1e9 / 1e6,
                        ]
                        if let ratio = row.ratio { result["ratioToBaseline"] = ["median": ratio.median, "min": ratio.min, "max": ratio.max] }
                        if let goal = row.goal, let met = row.meetsGoal { result["goal"] = ["text": goal.description, "met": met] }
                        return result
                    },
                ] as [String: Any]
            },
        ]
        if let load {
            var machine: [String: Any] = ["cores": load.cores]
            if let value = load.loadAverageBefore { machine["loadAverageBefore"] = value }
            if let value = load.loadAverageAfter { machine["loadAverageAfter"] = value }
            if let value = load.busyFraction { machine["busyFraction"] = value }
            object["machine"] = machine
        }
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }

    private func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}

/// What a row should reach, judged on its median.
enum BenchmarkGoal: CustomStringConvertible, Equatable {
    /// At most this many times its section's baseline.
    case ratioAtMost(Double)
    /// At least this many times its section's baseline (a competitor the baseline
    /// should beat).
    case ratioAtLeast(Double)
    /// At least this many operations per second.
    case throughputAtLeast(Double)
    /// At most this many nanoseconds per operation.
    case timeAtMost(nanoseconds: Double)

    func isMet(timeNanoseconds: Double, ratio: Double?) -> Bool {
        switch self {
        case .ratioAtMost(let limit): ratio.map { $0 <= limit } ?? false
        case .ratioAtLeast(let limit): ratio.map { $0 >= limit } ?? false
        case .throughputAtLeast(let rate): 1e9 / timeNanoseconds >= rate
        case .timeAtMost(let limit): timeNanoseconds <= limit
        }
    }

    var description: String {
        switch self {
        case .ratioAtMost(let limit): String(format: "≤ %g×", limit)
        case .ratioAtLeast(let limit): String(format: "≥ %g×", limit)
        case .throughputAtLeast(let rate): "≥ \(Int(rate).formatted(.number.grouping(.automatic)))/s"
        case .timeAtMost(let limit): limit >= 1000 ? String(format: "≤ %g µs", limit / 1000) : String(format: "≤ %g ns", limit)
        }
    }
}
