import AutoTrack
import AutoTrackLocking
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A disk with `quota` bytes per file: a write reaching past it puts down what fits and
/// then fails with `ENOSPC`.
final class QuotaWriteLayer: QueueWriteLayer {
    let quota: Int
    /// The writes refused or cut short for want of room.
    let refusals = Locked(0)
    private let system = SystemQueueWriteLayer()

    init(quota: Int) { self.quota = quota }

    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        let room = quota - offset
        if room < bytes.count { refusals.withLock { $0 += 1 } }
        guard room > 0 else { return -Int(ENOSPC) }
        return system.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[0..<min(room, bytes.count)]), at: offset)
    }

    func synchronize(_ descriptor: Int32) -> Int32 { system.synchronize(descriptor) }
    func truncate(_ descriptor: Int32, to length: Int) -> Int32 { system.truncate(descriptor, to: length) }
}

/// Synced appends write over zeros reserved ahead of them, so that their sync does not
/// also commit a larger file; the zeros never read as records, never outlive a clean
/// close or a finished segment, and a crash leaves nothing but a tail to cut.
@Suite("The durable queue's reservation ahead of synced appends")
struct QueueReservationTests {
    func payload(_ number: Int) -> [UInt8] { Array("reserved \(number) ".utf8) + [UInt8](repeating: UInt8(1 + number % 250), count: 30 + number % 40) }

    func segments(_ directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("segment-") }.sorted()
            .map { directory.appendingPathComponent($0) }
    }

    func size(_ file: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
    }

    /// The bytes `records` take in a segment.
    func framed(_ records: [[UInt8]]) -> Int { records.reduce(0) { $0 + $1.count + DurableQueue.recordHeaderBytes } }

    @Test("synced appends grow the segment once per reservation, not once per append")
    func growsOncePerReservation() throws {
        let directory = temporaryDirectory("reservation-growth")
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = try DurableQueue(directory: directory, limits: .init(segmentBytes: 4 << 20))
        var sizes: Set<Int> = []
        for batch in 0..<20 {
            try queue.append((0..<5).map { payload(batch * 5 + $0) }, sync: true)
            sizes.insert(try size(try #require(try segments(directory).first)))
        }
        #expect(sizes == [DurableQueue.defaultReservationBytes])
        // Unsynced appends reserve nothing.
        let unsynced = temporaryDirectory("reservation-unsynced")
        defer { try? FileManager.default.removeItem(at: unsynced) }
        let plain = try DurableQueue(directory: unsynced)
        let records = (0..<5).map(payload)
        try plain.append(records)
        #expect(try size(try #require(try segments(unsynced).first)) == framed(records))
    }

    @Test("a clean close gives the reservation back: the segment holds exactly its records and reopens with nothing cut")
    func closeTrims() throws {
        let directory = temporaryDirectory("reservation-close")
        defer { try? FileManager.default.removeItem(at: directory) }
        let records = (0..<30).map(payload)
        do {
            let queue = try DurableQueue(directory: directory)
            try queue.append(Array(records[0..<10]), sync: true)
            try queue.append(Array(records[10..<30]), sync: true)
            queue.close()
        }
        #expect(try size(try #require(try segments(directory).first)) == framed(records))
        let reopened = try DurableQueue(directory: directory)
        #expect(reopened.statistics.truncatedBytes == 0)
        #expect(reopened.statistics.damagedRecords == 0)
        #expect(try reopened.peek(100).map(\.payload) == records)
    }

    @Test("a crash with space reserved: the zeros are cut as the tail, every acknowledged record is kept, appends resume in place")
    func crashLeavesOnlyATail() throws {
        let directory = temporaryDirectory("reservation-crash")
        let copy = temporaryDirectory("reservation-crash-copy")
        defer {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: copy)
        }
        let records = (0..<12).map(payload)
        let queue = try DurableQueue(directory: directory)
        try queue.append(records, sync: true)
        // The files as a crash leaves them: copied while the queue is open.
        try FileManager.default.copyItem(at: directory, to: copy)
        queue.close()
        try? FileManager.default.removeItem(at: copy.appendingPathComponent("lock"))
        let recovered = try DurableQueue(directory: copy)
        #expect(recovered.statistics.recoveredRecords == records.count)
        #expect(recovered.statistics.truncatedBytes == DurableQueue.defaultReservationBytes - framed(records))
        #expect(recovered.statistics.damagedRecords == 0)
        try recovered.append([payload(99)], sync: true)
        #expect(try recovered.peek(100).map(\.payload) == records + [payload(99)])
        recovered.close()
        #expect(try size(try #require(try segments(copy).first)) == framed(records + [payload(99)]))
    }

    @Test("a segment left for the next ends with its last record: no older segment ends in zeros")
    func finishedSegmentsAreTrimmed() throws {
        let directory = temporaryDirectory("reservation-segments")
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = try DurableQueue(directory: directory, limits: .init(segmentBytes: 4096))
        var written: [[UInt8]] = []
        var perSegment: [[[UInt8]]] = [[]]
        for batch in 0..<40 {
            let records = (0..<3).map { payload(batch * 3 + $0) }
            let before = try segments(directory).count
            // Mixed: a reservation made by a synced append, the segment left by an unsynced one.
            try queue.append(records, sync: batch % 2 == 0)
            if try segments(directory).count > before, before > 0 { perSegment.append([]) }
            perSegment[perSegment.count - 1] += records
            written += records
        }
        let files = try segments(directory)
        #expect(files.count == perSegment.count)
        #expect(files.count > 2)
        for (file, records) in zip(files.dropLast(), perSegment) {
            #expect(try size(file) == framed(records), "\(file.lastPathComponent)")
        }
        queue.close()
        let reopened = try DurableQueue(directory: directory, limits: .init(segmentBytes: 4096))
        #expect(reopened.statistics.damagedRecords == 0)
        #expect(reopened.statistics.truncatedBytes == 0)
        #expect(try reopened.peek(1000).map(\.payload) == written)
    }

    @Test("on a nearly full disk the reservation is given up, not the append: every record that fits is stored")
    func nearlyFullDisk() throws {
        let directory = temporaryDirectory("reservation-full")
        defer { try? FileManager.default.removeItem(at: directory) }
        let quota = 8 << 10
        let queue = try DurableQueue(directory: directory, files: QuotaWriteLayer(quota: quota))
        var acknowledged: [[UInt8]] = []
        var refused = 0
        for batch in 0..<200 {
            let records = (0..<2).map { payload(batch * 2 + $0) }
            do {
                try queue.append(records, sync: true)
                acknowledged += records
            } catch {
                guard case .io(.append, _, ENOSPC) = error else { throw error }
                refused += 1
            }
        }
        #expect(refused > 0)
        // Everything that fitted was taken: less than one batch of the quota is unused.
        #expect(framed(acknowledged) > quota - 2 * framed([payload(0), payload(199)]))
        queue.close()
        let reopened = try DurableQueue(directory: directory)
        #expect(try reopened.peek(1000).map(\.payload) == acknowledged)
        #expect(reopened.statistics.truncatedBytes == 0)
    }

    @Test("a reservation that did not fit is not tried again in that segment: the disk is not filled on every append")
    func refusedReservationIsNotRetried() throws {
        let directory = temporaryDirectory("reservation-refused")
        defer { try? FileManager.default.removeItem(at: directory) }
        let layer = QuotaWriteLayer(quota: 64 << 10)
        let queue = try DurableQueue(directory: directory, files: layer)
        var records: [[UInt8]] = []
        var refusedByFirst = 0
        for batch in 0..<20 {
            let batchRecords = (0..<3).map { payload(batch * 3 + $0) }
            try queue.append(batchRecords, sync: true)
            records += batchRecords
            if batch == 0 { refusedByFirst = layer.refusals.withLock { $0 } }
        }
        // The first append's reservation ran into the quota; none of the 19 after it tried.
        #expect(refusedByFirst > 0)
        #expect(layer.refusals.withLock { $0 } == refusedByFirst)
        #expect(try queue.peek(100).map(\.payload) == records)
    }
}
