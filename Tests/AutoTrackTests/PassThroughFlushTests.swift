import AutoTrack
import AutoTrackEvents
import AutoTrackTesting
import AutoTrackSerialization
import Foundation
import Testing
import AutoTrackLocking

/// A flush hands stored events to a wire-form transport as they are: no decoding, no
/// re-encoding, a record that is not one JSON object rejected and counted.
@Suite("Flush passes stored events through")
struct PassThroughFlushTests {
    /// Records every call: the wire-form batches, or the decoded ones.
    final class RecordingTransport: EncodedEventTransport {
        let encodedCalls = Locked<[[EncodedEvent]]>([])
        let decodedCalls = Locked<[[Event]]>([])
        let batchesPerDelivery: Int

        init(batchesPerDelivery: Int = 1) { self.batchesPerDelivery = batchesPerDelivery }

        func deliver(_ events: [Event]) -> DeliveryResult {
            decodedCalls.withLock { $0.append(events) }
            return .accepted
        }

        func deliver(encoded events: [EncodedEvent]) -> DeliveryResult {
            encodedCalls.withLock { $0.append(events) }
            return .accepted
        }
    }

    /// Takes decoded events only.
    final class DecodedOnlyTransport: Transport {
        let calls = Locked<[[Event]]>([])
        func deliver(_ events: [Event]) -> DeliveryResult {
            calls.withLock { $0.append(events) }
            return .accepted
        }
    }

    private func tracker(_ label: String, transport: any Transport, batchSize: Int) throws -> (Tracker, InMemoryTracker) {
        try makeCollectingTracker(temporaryDirectory(label)) {
            $0.transport = .custom(transport)
            $0.flushPolicy = FlushPolicy(batchSize: batchSize, interval: nil)
        }
    }

    /// Stored records as the tracker writes them, put straight into the queue so that
    /// no automatic flush runs before the test's own.
    private func store(_ count: Int, in tracker: Tracker) throws -> [[UInt8]] {
        let encoder = EventJSONEncoder()
        let payloads = try (0..<count).map { index in
            encoder.encode(Event(
                id: EventID(truncatingBits: UInt64(index + 1)), name: try EventName(validating: "purchase"),
                time: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(index)), identity: .anonymous("device"),
                library: LibraryInfo(name: "Swift", version: "0.1.0", method: .code, appVersion: "1.0"),
                properties: ["index": .number(Double(index)), "name": "買う \u{1F6D2}"]))
        }
        try tracker.queue.append(payloads)
        return payloads
    }

    @Test("the stored bytes reach the transport unchanged, batches grouped as the transport asks")
    func storedBytesUnchanged() throws {
        let transport = RecordingTransport(batchesPerDelivery: 4)
        let (tracker, _) = try tracker("pass-through", transport: transport, batchSize: 10)
        let payloads = try store(100, in: tracker)
        let report = tracker.flush()
        #expect(report.delivered == 100)
        let calls = transport.encodedCalls.withLock { $0 }
        #expect(calls.map(\.count) == [40, 40, 20])
        #expect(transport.decodedCalls.withLock { $0.isEmpty })
        #expect(calls.flatMap { $0 }.map(\.json) == payloads)
        #expect(tracker.queue.statistics.pendingRecords == 0)
        tracker.shutdown()
    }

    @Test("a transport that only takes decoded events gets them, in the policy's batches")
    func decodedTransport() throws {
        let transport = DecodedOnlyTransport()
        let (tracker, _) = try tracker("decoded", transport: transport, batchSize: 10)
        let payloads = try store(25, in: tracker)
        #expect(tracker.flush().delivered == 25)
        #expect(transport.calls.withLock { $0.map(\.count) } == [10, 10, 5])
        #expect(try transport.calls.withLock { $0.flatMap { $0 } } == payloads.map { try EventJSONDecoder().decodeEvent(from: $0) })
        tracker.shutdown()
    }

    @Test("a record that is not one JSON object is rejected and counted; the others go out", arguments: [
        Array("not json".utf8), Array("[1,2]".utf8), Array("{\"a\":1".utf8), [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D],
        Array("{\n}".utf8),
    ])
    func badRecord(payload: [UInt8]) throws {
        let transport = RecordingTransport()
        let (tracker, _) = try tracker("bad-record", transport: transport, batchSize: 50)
        try tracker.track("before")
        tracker.waitUntilQueued()
        try tracker.queue.append([payload])
        try tracker.track("after")
        tracker.waitUntilQueued()
        let report = tracker.flush()
        #expect(report.delivered == 2)
        #expect(report.rejected == 1)
        #expect(tracker.diagnostics.rejected == 1)
        let names = try transport.encodedCalls.withLock { $0 }.flatMap { $0 }.map { try EventJSONDecoder().decodeEvent(from: $0.json).name.rawValue }
        #expect(names == ["before", "after"])
        #expect(tracker.queue.statistics.pendingRecords == 0)
        tracker.shutdown()
    }

    @Test("the NDJSON file gets the stored lines, one fsync per group of batches, and decodes back")
    func localFile() throws {
        let directory = temporaryDirectory("ndjson-group")
        let file = directory.appendingPathComponent("events.ndjson")
        let (tracker, collected) = try makeCollectingTracker(directory) {
            $0.transport = .localFile(file)
            $0.flushPolicy = FlushPolicy(batchSize: 5, interval: nil)
        }
        for index in 0..<203 { try tracker.track("view", properties: ["n": .number(Double(index))]) }
        tracker.waitUntilQueued()
        tracker.flush()
        #expect(tracker.diagnostics.delivered == 203)
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        let decoded = try lines.map { try EventJSONDecoder().decodeEvent(from: Array($0.utf8)) }
        #expect(decoded == collected.events)
        #expect(LocalFileTransport(file: file).batchesPerDelivery == 16)
        #expect(LocalFileTransport(file: file, batchesPerDelivery: 0).batchesPerDelivery == 1)
        tracker.shutdown()
    }
}
