@testable import AutoTrackCLI
import Foundation
import Testing

@Suite("bench pipeline's SQLite store: the rows the comparison counts are really stored")
struct StorageComparisonTests {
    #if AUTOTRACK_SQLITE
    @Test("every event becomes one row, in one transaction or committed one by one, in each journal and durability",
          arguments: [(true, false), (true, true), (false, false), (false, true)])
    func rows(writeAheadLog: Bool, syncEachCommit: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("events.sqlite").path
        let payloads = (0..<25).map { Array(#"{"event":"purchase","n":\#($0)}"#.utf8) }
        do {
            let store = try SQLiteEventStore(path: path, mode: .init(writeAheadLog: writeAheadLog, syncEachCommit: syncEachCommit))
            try store.store(payloads, inOneTransaction: true)
            try store.store(Array(payloads.prefix(5)), inOneTransaction: false)
            #expect(try store.count() == 30)
        }
        // Reopened: what was committed is there.
        #expect(try SQLiteEventStore(path: path, mode: .init(writeAheadLog: writeAheadLog, syncEachCommit: false)).count() == 30)
    }

    @Test("the comparison's sections each hold our queue as the baseline, SQLite's rows with the ≥ 3× goal, and at the durabilities that sync our queue without its reservation, with no goal")
    func sections() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-compare-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var harness = BenchmarkHarness()
        harness.rounds = 1
        var comparison = StorageComparison(root: root, payload: Array(#"{"event":"purchase"}"#.utf8), harness: harness)
        comparison.events = 100
        comparison.batch = 10
        let measured = try comparison.measure()
        #expect(measured.sections.count == 3)
        for section in measured.sections {
            #expect(section.baseline.hasPrefix("queue, "))
            let sqlite = section.results.filter { $0.name.hasPrefix("SQLite") }
            let ours = section.results.dropFirst().filter { !$0.name.hasPrefix("SQLite") }
            #expect(!sqlite.isEmpty)
            #expect(sqlite.allSatisfy { section.goals[$0.name] == .ratioAtLeast(3) })
            #expect(ours.allSatisfy { $0.name.hasPrefix("queue, ") && $0.name.hasSuffix("unreserved") && section.goals[$0.name] == nil })
            #expect(ours.count == (section.title.contains("no fsync") ? 0 : 1), "\(section.title)")
        }
        #expect(measured.context.first?.contains("SQLite's time ÷ ours") == true)
    }
    #endif
}
