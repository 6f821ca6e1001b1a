import AutoTrack
import Dispatch
import Foundation
import Testing

@Suite("The durable queue: framing, recovery, bounds, confirmation")
struct DurableQueueTests {
    func payload(_ number: Int) -> [UInt8] { Array("record \(number) ".utf8) + [UInt8](repeating: UInt8(number % 251), count: 50 + number % 97) }

    @Test("records come out in order and leave only when removed; a reopened queue keeps what was not removed")
    func fifo() throws {
        let directory = temporaryDirectory("fifo")
        defer { try? FileManager.default.removeItem(at: directory) }
        var queue: DurableQueue? = try DurableQueue(directory: directory, limits: .init(segmentBytes: 2048))
        try queue!.append((0..<100).map(payload))
        let first = try queue!.peek(30)
        #expect(first.map(\.payload) == (0..<30).map(payload))
        #expect(try queue!.peek(30) == first, "peeking does not consume")
        try queue!.remove(first)
        #expect(queue!.statistics.pendingRecords == 70)
        queue = nil
        let reopened = try DurableQueue(directory: directory, limits: .init(segmentBytes: 2048))
        #expect(reopened.statistics.recoveredRecords == 70)
        #expect(try reopened.peek(100).map(\.payload) == (30..<100).map(payload))
        try reopened.remove(try reopened.peek(100))
        #expect(reopened.statistics.pendingRecords == 0)
        let segments = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("segment-") }
        #expect(segments.count <= 2, "consumed segments are deleted")
    }

    @Test("a file where the queue's directory should be: a structured error naming the operation, the path and errno")
    func structuredIOError() throws {
        let parent = temporaryDirectory("blocked")
        defer { try? FileManager.default.removeItem(at: parent) }
        let blocker = parent.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let directory = blocker.appendingPathComponent("queue")
        let error = try #require(throws: QueueError.self) { try DurableQueue(directory: directory) }
        guard case .io(let operation, let path, let code) = error else {
            Issue.record("expected an I/O error, got \(error)")
            return
        }
        #expect(operation == .createDirectory)
        #expect(path == directory.path)
        #expect(code == ENOTDIR || code == EEXIST, "errno \(String(describing: code))")
        #expect(error.description.contains(directory.path))
    }

    @Test("a batch holding one oversized record is refused whole, with a typed error")
    func oversizedRecord() throws {
        let directory = temporaryDirectory("oversized")
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = try DurableQueue(directory: directory, limits: .init(maximumRecordBytes: 100))
        try queue.append([payload(0)])
        #expect(throws: QueueError.recordTooLarge(bytes: 101, limit: 100)) {
            try queue.append([payload(1), [UInt8](repeating: 7, count: 101), payload(2)])
        }
        #expect(try queue.peek(10).map(\.payload) == [payload(0)], "nothing of the refused batch was written")
        try queue.append([payload(3)])
        #expect(try queue.peek(10).map(\.payload) == [payload(0), payload(3)])
    }

    @Test("a torn cursor write falls back to the previous cursor: records may be resent, never lost")
    func tornCursor() throws {
        let directory = temporaryDirectory("torn-cursor")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let queue = try DurableQueue(directory: directory)
            try queue.append((0..<10).map(payload))
            try queue.remove(try queue.peek(3))
            try queue.remove(try queue.peek(2))
            queue.close()
        }
        do {
            let reopened = try DurableQueue(directory: directory)
            #expect(try reopened.peek(10).map(\.payload) == (5..<10).map(payload), "the newest cursor holds")
            reopened.close()
        }
        // Spoil the newest slot (the second write went to slot 0) as a torn write would.
        let cursor = directory.appendingPathComponent("cursor")
        var bytes = try [UInt8](Data(contentsOf: cursor))
        #expect(bytes.count == 64)
        bytes[13] ^= 0xFF
        try Data(bytes).write(to: cursor)
        let recovered = try DurableQueue(directory: directory)
        #expect(try recovered.peek(10).map(\.payload) == (3..<10).map(payload), "the older slot is used")
        try recovered.remove(try recovered.peek(1))
        recovered.close()
        let again = try DurableQueue(directory: directory)
        #expect(try again.peek(10).map(\.payload) == (4..<10).map(payload), "later cursors win over both")
    }

    @Test("appending to a closed queue is a typed error, not a silent drop")
    func appendAfterClose() throws {
        let directory = temporaryDirectory("closed")
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = try DurableQueue(directory: directory)
        try queue.append([payload(0)])
        queue.close()
        #expect(throws: QueueError.closed) { try queue.append([payload(1)]) }
        #expect(queue.statistics.pendingRecords == 1)
    }

    @Test("a torn tail is cut off on open; every complete record is kept", arguments: [1, 3, 7, 8, 20])
    func tornTail(tornBytes: Int) throws {
        let directory = temporaryDirectory("torn")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let queue = try DurableQueue(directory: directory)
            try queue.append((0..<10).map(payload))
        }
        let segment = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasPrefix("segment-") })
        let handle = try FileHandle(forWritingTo: directory.appendingPathComponent(segment))
        try handle.seekToEnd()
        try handle.write(contentsOf: Array([0xA7, 0x51, 1, 0, 1, 2, 3, 4, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9].prefix(tornBytes)))
        try handle.close()
        let recovered = try DurableQueue(directory: directory)
        #expect(recovered.statistics.recoveredRecords == 10)
        #expect(recovered.statistics.truncatedBytes == tornBytes)
        try recovered.append([payload(10)])
        #expect(try recovered.peek(20).map(\.payload) == (0...10).map(payload), "appends continue after the cut")
    }

    @Test("a corrupted record (CRC mismatch) is skipped and counted; every record before and after it is kept")
    func corruption() throws {
        let directory = temporaryDirectory("crc")
        defer { try? FileManager.default.removeItem(at: directory) }
        do { try DurableQueue(directory: directory).append((0..<5).map(payload)) }
        let url = directory.appendingPathComponent(try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasPrefix("segment-") }!)
        var bytes = try [UInt8](Data(contentsOf: url))
        let thirdRecordStart = (0..<2).reduce(0) { offset, number in offset + 12 + payload(number).count }
        bytes[thirdRecordStart + 14] ^= 0xFF
        try Data(bytes).write(to: url)
        let recovered = try DurableQueue(directory: directory)
        #expect(recovered.statistics.recoveredRecords == 4)
        #expect(recovered.statistics.damagedRecords == 1)
        #expect(recovered.statistics.skippedBytes == 12 + payload(2).count)
        #expect(try recovered.peek(10).map(\.payload) == [payload(0), payload(1), payload(3), payload(4)])
    }

    @Test("past its bounds the queue drops the oldest records and counts them")
    func dropOldest() throws {
        let directory = temporaryDirectory("bounds")
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = try DurableQueue(directory: directory, limits: .init(maximumRecords: 50, maximumBytes: 1 << 20))
        try queue.append((0..<80).map(payload))
        #expect(queue.statistics.pendingRecords == 50)
        #expect(queue.statistics.droppedOldest == 30)
        #expect(try queue.peek(1).first?.payload == payload(30))
        let byBytes = try DurableQueue(directory: temporaryDirectory("bytes"), limits: .init(maximumBytes: 1000))
        try byBytes.append((0..<40).map(payload))
        #expect(byBytes.statistics.pendingBytes <= 1000)
        #expect(byBytes.statistics.droppedOldest > 0)
        #expect(throws: QueueError.recordTooLarge(bytes: 2 << 20, limit: 1 << 20)) { try queue.append([[UInt8](repeating: 0, count: 2 << 20)]) }
    }

    @Test("8 concurrent producers: every record arrives intact")
    func concurrentProducers() throws {
        let directory = temporaryDirectory("concurrent")
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = try DurableQueue(directory: directory, limits: .init(segmentBytes: 16 << 10))
        DispatchQueue.concurrentPerform(iterations: 8) { producer in
            for index in 0..<250 { try? queue.append([payload(producer * 1000 + index)]) }
        }
        let all = try queue.peek(10_000)
        #expect(all.count == 2000)
        #expect(Set(all.map(\.payload)) == Set((0..<8).flatMap { producer in (0..<250).map { payload(producer * 1000 + $0) } }))
        queue.close()
        let reopened = try DurableQueue(directory: directory, limits: .init(segmentBytes: 16 << 10))
        #expect(reopened.statistics.recoveredRecords == 2000)
    }
}
