import Foundation

/// `bench <group> --runs N`: the group run N times in a row, each repetition measuring
/// its variants side by side as always. Every row then reports the median of the N
/// figures with their min and max, and every ratio is taken within a repetition (the
/// variant against its baseline measured moments apart) before its median is taken —
/// so a machine that slows down between repetitions moves both sides of a ratio alike.
/// The machine's load while the group ran is reported beside the figures.
struct BenchmarkRepetitions {
    let group: BenchmarkGroup
    let runs: Int

    /// Runs the repetitions, printing progress to standard error.
    func run(progress: (String) -> Void = { FileHandle.standardError.write(Data("\($0)\n".utf8)) }) -> RepeatedBenchmarkReport {
        let load = MachineLoad.Meter()
        var reports: [BenchmarkReport] = []
        for repetition in 1...runs {
            if runs > 1 { progress("bench \(group.rawValue): repetition \(repetition) of \(runs)") }
            reports.append(group.run())
        }
        return RepeatedBenchmarkReport(group: group.rawValue, repetitions: reports, load: load.finish())
    }
}

/// A spread of one figure over the repetitions.
struct Spread: Equatable {
    let median: Double
    let min: Double
    let max: Double

    /// The median (the lower middle one of an even count: a figure that was measured),
    /// min and max of `values`.
    init(_ values: [Double]) {
        let sorted = values.sorted()
        median = sorted.isEmpty ? .nan : sorted[(sorted.count - 1) / 2]
        min = sorted.first ?? .nan
        max = sorted.last ?? .nan
    }

    /// The spread as a fraction of the median: how far apart the repetitions were.
    var relativeRange: Double { median == 0 ? 0 : (max - min) / median }
}

/// The load of the machine over a benchmark: load averages before and after, and the
/// share of all cores busy in between (from `/proc/stat`; `nil` where there is none).
struct MachineLoad {
    let cores: Int
    let loadAverageBefore: Double?
    let loadAverageAfter: Double?
    let busyFraction: Double?

    /// Samples the machine at the start; ``finish()`` at the end.
    struct Meter {
        let loadBefore = MachineLoad.loadAverage()
        let ticksBefore = MachineLoad.cpuTicks()

        func finish() -> MachineLoad {
            let ticksAfter = MachineLoad.cpuTicks()
            var busy: Double?
            if let before = ticksBefore, let after = ticksAfter, after.total > before.total {
                busy = Double(after.busy - before.busy) / Double(after.total - before.total)
            }
            return MachineLoad(cores: ProcessInfo.processInfo.activeProcessorCount, loadAverageBefore: loadBefore,
                               loadAverageAfter: MachineLoad.loadAverage(), busyFraction: busy)
        }
    }

    /// The one-minute load average (`/proc/loadavg`).
    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    /// Busy and total jiffies of all cores (`/proc/stat`'s `cpu` line; idle and iowait
    /// are not busy).
    static func cpuTicks() -> (busy: UInt64, total: UInt64)? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        let fields = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        guard fields.count >= 5 else { return nil }
        let total = fields.prefix(8).reduce(0, +)
        return (total - fields[3] - fields[4], total)
    }

    /// `load 1.02 → 2.10 (1-minute averages), cores busy 97% of the time, 2 cores`.
    var summary: String {
        var parts: [String] = []
        if let before = loadAverageBefore, let after = loadAverageAfter {
            parts.append(String(format: "load %.2f → %.2f (1-minute averages)", before, after))
        }
        if let busyFraction { parts.append(String(format: "cores busy %.0f%% of the time", busyFraction * 100)) }
        parts.append("\(cores) cores")
        return "machine: " + parts.joined(separator: ", ")
    }
}
