@testable import AutoTrackCLI
import Foundation
import Testing

@Suite("bench --runs: medians with their spread, ratios within a repetition, goals on the median")
struct BenchmarkRepetitionTests {
    /// One repetition of a two-row section: `base` and `hooked` nanoseconds per call.
    static func repetition(base: Double, hooked: Double, context: String = "note") -> BenchmarkReport {
        BenchmarkReport(group: "hooks", context: [context], sections: [
            .init(title: "Calls", unit: "call", results: [
                BenchmarkResult(name: "unhooked", nanosecondsPerOperation: base, bytesPerOperation: 0),
                BenchmarkResult(name: "hooked", nanosecondsPerOperation: hooked, bytesPerOperation: 0),
            ], baseline: "unhooked", showThroughput: false, goals: ["hooked": .ratioAtMost(1.1)]),
        ])
    }

    @Test("each row is the median of the repetitions with min and max; a ratio is the median of the ratios each repetition measured")
    func medians() throws {
        // The machine slows down in the second repetition: both sides move, the ratio holds.
        let report = RepeatedBenchmarkReport(group: "hooks", repetitions: [
            Self.repetition(base: 10, hooked: 10.5), Self.repetition(base: 20, hooked: 21), Self.repetition(base: 11, hooked: 14),
        ], load: nil)
        let rows = try #require(report.sections.first?.rows)
        #expect(rows[1].time == Spread([10.5, 21, 14]))
        #expect(rows[1].time.median == 14 && rows[1].time.min == 10.5 && rows[1].time.max == 21)
        let ratio = try #require(rows[1].ratio)
        #expect(ratio.median == 1.05)
        #expect(abs(ratio.max - 14.0 / 11.0) < 1e-12)
        // The ratio of the medians (14 / 11 ≈ 1.27) would miss the goal; the median ratio meets it.
        #expect(rows[1].meetsGoal == true)
        #expect(rows[0].ratio?.median == 1 && rows[0].goal == nil)
    }

    @Test("an even count takes the lower middle figure: one that was measured")
    func evenCount() {
        #expect(Spread([4, 1, 3, 2]).median == 2)
        #expect(Spread([5]).median == 5 && Spread([5]).relativeRange == 0)
    }

    @Test("the table says how many repetitions and shows spreads and goals; one repetition prints plain figures")
    func table() {
        let repeated = RepeatedBenchmarkReport(group: "hooks", repetitions: [
            Self.repetition(base: 10, hooked: 13), Self.repetition(base: 10, hooked: 12, context: "last note"),
        ], load: MachineLoad(cores: 2, loadAverageBefore: 0.5, loadAverageAfter: 1.5, busyFraction: 0.9)).table()
        #expect(repeated.contains("2 repetitions, each figure the median [min–max]"))
        #expect(repeated.contains("machine: load 0.50 → 1.50 (1-minute averages), cores busy 90% of the time, 2 cores"))
        #expect(repeated.contains("repetition 2: last note"))
        #expect(repeated.contains("1.20× [1.20–1.30]") && repeated.contains("≤ 1.1× MISSED"))
        let single = RepeatedBenchmarkReport(group: "hooks", repetitions: [Self.repetition(base: 10, hooked: 10.5)], load: nil).table()
        #expect(!single.contains("[") && single.contains("1.05×") && single.contains("≤ 1.1× met"))
    }

    @Test("the JSON keeps a single run's field names for the medians and adds the spread, the ratio, the goal and the machine")
    func json() throws {
        let report = RepeatedBenchmarkReport(group: "hooks", repetitions: [
            Self.repetition(base: 10, hooked: 11), Self.repetition(base: 10, hooked: 12), Self.repetition(base: 10, hooked: 10),
        ], load: MachineLoad(cores: 2, loadAverageBefore: nil, loadAverageAfter: nil, busyFraction: 0.5))
        let object = try #require(try JSONSerialization.jsonObject(with: report.jsonData()) as? [String: Any])
        #expect(object["runs"] as? Int == 3)
        #expect((object["machine"] as? [String: Any])?["busyFraction"] as? Double == 0.5)
        let sections = try #require(object["sections"] as? [[String: Any]])
        let hooked = try #require((sections[0]["results"] as? [[String: Any]])?[1])
        #expect(hooked["nanosecondsPerOperation"] as? Double == 11)
        #expect(hooked["nanosecondsPerOperationMin"] as? Double == 10 && hooked["nanosecondsPerOperationMax"] as? Double == 12)
        #expect((hooked["ratioToBaseline"] as? [String: Double])?["median"] == 1.1)
        #expect((hooked["goal"] as? [String: Any])?["met"] as? Bool == true)
    }

    @Test("goals of every kind are judged on the median", arguments: [
        (BenchmarkGoal.ratioAtMost(2), 100.0, 1.5, true), (.ratioAtMost(2), 100, 2.5, false),
        (.ratioAtLeast(3), 100, 3.2, true), (.ratioAtLeast(3), 100, 2.9, false),
        (.throughputAtLeast(500_000), 1_900, nil, true), (.throughputAtLeast(500_000), 2_100, nil, false),
        (.timeAtMost(nanoseconds: 2_000), 1_999, nil, true), (.timeAtMost(nanoseconds: 2_000), 2_001, nil, false),
    ] as [(BenchmarkGoal, Double, Double?, Bool)])
    func goals(goal: BenchmarkGoal, nanoseconds: Double, ratio: Double?, met: Bool) {
        #expect(goal.isMet(timeNanoseconds: nanoseconds, ratio: ratio) == met)
    }

    @Test("the machine's load is read from /proc")
    func load() throws {
        let load = MachineLoad.Meter().finish()
        #expect(load.cores >= 1)
        if FileManager.default.fileExists(atPath: "/proc/loadavg") { #expect(load.loadAverageAfter != nil) }
    }
}
