import AutoTrack
import Foundation

/// `bench pipeline`'s comparison with SQLite: the same encoded events stored by our
/// durable queue and by SQLite the way peers' SDKs keep their queue (one row per event;
/// and batched in transactions with a write-ahead log), at each durability the queue
/// offers — no `fsync`, an `fsync` per batch, an `fsync` per event. Each section's
/// baseline is our queue; SQLite's rows should take at least 3× its time. At the
/// durabilities that sync, a row of ours with no space reserved ahead of synced
/// appends (each append grows the file) shows what the reservation saves.
struct StorageComparison {
    let root: URL
    let payload: [UInt8]
    let harness: BenchmarkHarness
    /// Events per run at the durabilities that do not `fsync` each event.
    var events = 2000
    var batch = 50

    /// The sections, and a line on what was compared (or why nothing was).
    func measure() throws -> (sections: [BenchmarkReport.Section], context: [String]) {
        #if AUTOTRACK_SQLITE
        let limits = DurableQueue.Limits(maximumRecords: .max, maximumBytes: .max, segmentBytes: 4 << 20)
        func queue(_ name: String, reserving: Bool = true) throws -> DurableQueue {
            try DurableQueue(directory: root.appendingPathComponent("compare-\(name)"), limits: limits, files: SystemQueueWriteLayer(),
                             reservationBytes: reserving ? DurableQueue.defaultReservationBytes : 0)
        }
        func sqlite(_ name: String, wal: Bool, sync: Bool) throws -> SQLiteEventStore {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            return try SQLiteEventStore(path: root.appendingPathComponent("compare-\(name).sqlite").path, mode: .init(writeAheadLog: wal, syncEachCommit: sync))
        }
        let batches = [[UInt8]](repeating: payload, count: batch)
        let perEvent = events / 20
        func ours(_ name: String, _ queue: DurableQueue, count: Int, perBatch: Int, sync: Bool) -> BenchmarkHarness.Variant {
            let slice = [[UInt8]](repeating: payload, count: perBatch)
            return .init(name: name, operationsPerRun: count, bytesPerRun: count * payload.count) {
                for _ in 0..<(count / perBatch) { try? queue.append(slice, sync: sync) }
                return queue.statistics.pendingRecords
            }
        }
        var sqliteRows: Set<String> = []
        func theirs(_ name: String, _ store: SQLiteEventStore, count: Int, inTransactions: Bool) -> BenchmarkHarness.Variant {
            sqliteRows.insert(name)
            return .init(name: name, operationsPerRun: count, bytesPerRun: count * payload.count) {
                if inTransactions {
                    for _ in 0..<(count / batches.count) { try? store.store(batches, inOneTransaction: true) }
                } else {
                    for _ in 0..<count { try? store.store([payload], inOneTransaction: false) }
                }
                return (try? store.count()) ?? 0
            }
        }
        let atLeastThree = BenchmarkGoal.ratioAtLeast(3)
        let noSync = harness.measure([
            ours("queue, \(batch) per batch", try queue("nosync"), count: events, perBatch: batch, sync: false),
            theirs("SQLite WAL, \(batch) per transaction", try sqlite("wal-batched", wal: true, sync: false), count: events, inTransactions: true),
            theirs("SQLite WAL, a transaction per event", try sqlite("wal-each", wal: true, sync: false), count: events, inTransactions: false),
            theirs("SQLite journal, a transaction per event", try sqlite("journal-each", wal: false, sync: false), count: events, inTransactions: false),
        ])
        let batchSync = harness.measure([
            ours("queue, \(batch) per batch, fsync each", try queue("batch-sync"), count: events, perBatch: batch, sync: true),
            theirs("SQLite WAL, \(batch) per transaction, FULL", try sqlite("wal-batched-full", wal: true, sync: true), count: events, inTransactions: true),
            ours("queue, \(batch) per batch, fsync each, unreserved", try queue("batch-sync-growing", reserving: false),
                 count: events, perBatch: batch, sync: true),
        ])
        let eventSync = harness.measure([
            ours("queue, 1 per batch, fsync each", try queue("event-sync"), count: perEvent, perBatch: 1, sync: true),
            ours("queue, 1 per batch, fsync each, unreserved", try queue("event-sync-growing", reserving: false),
                 count: perEvent, perBatch: 1, sync: true),
            theirs("SQLite WAL, per event, FULL", try sqlite("wal-each-full", wal: true, sync: true), count: perEvent, inTransactions: false),
            theirs("SQLite journal, per event, FULL", try sqlite("journal-each-full", wal: false, sync: true), count: perEvent, inTransactions: false),
        ])
        func section(_ title: String, _ results: [BenchmarkResult]) -> BenchmarkReport.Section {
            .init(title: title, unit: "event", results: results, baseline: results[0].name, showThroughput: true,
                  goals: Dictionary(uniqueKeysWithValues: results.filter { sqliteRows.contains($0.name) }.map { ($0.name, atLeastThree) }))
        }
        func times(_ results: [BenchmarkResult]) -> String {
            results.filter { sqliteRows.contains($0.name) }.map { String(format: "%.1f×", $0.nanosecondsPerOperation / results[0].nanosecondsPerOperation) }.joined(separator: ", ")
        }
        return ([
            section("Storing events, no fsync: our queue vs SQLite (synchronous=OFF)", noSync),
            section("Storing events, an fsync per batch: our queue vs SQLite (synchronous=FULL)", batchSync),
            section("Storing events, an fsync per event: our queue vs SQLite (synchronous=FULL)", eventSync),
        ], [
            "SQLite \(SQLiteEventStore.version): one row per event (JSON text, time, autoincrement key, time index), the same \(payload.count)-byte events; "
                + "SQLite's time ÷ ours (goal ≥ 3×): no fsync \(times(noSync)); fsync per batch \(times(batchSync)); fsync per event \(times(eventSync))",
        ])
        #else
        return ([], ["SQLite comparison: the system's SQLite is not installed (libsqlite3-dev), so it is left out"])
        #endif
    }
}
