import AutoTrack
import AutoTrackCollector
import AutoTrackEvents
import AutoTrackSerialization
import Foundation
import Testing

@Suite("Delivery over HTTP to a local collector, with faults", .serialized)
struct DeliveryTests {
    func tracker(_ directory: URL, transport: HTTPTransport, batch: Int = 50) throws -> Tracker {
        try Tracker(configuration: TrackerConfiguration(
            storeDirectory: directory, device: testDevice, transport: .custom(transport),
            flushPolicy: FlushPolicy(batchSize: batch, interval: nil), eventIDs: SequentialEventIDGenerator()))
    }

    @Test("10 000 events through 500s, 429s, dropped connections and a hang: every event arrives, each id once after de-duplication", arguments: CollectorWireFormat.allCases)
    func faultyCollector(format: CollectorWireFormat) throws {
        let collector = try LocalCollector { request in
            switch request {
            case 5: .hang(seconds: 2.5)
            case _ where request % 7 == 0: .status(500)
            case _ where request % 11 == 0: .dropConnection
            case _ where request % 13 == 0: .status(429)
            case _ where request % 17 == 0: .status(408)
            default: .accept
            }
        }
        defer { collector.stop() }
        let directory = temporaryDirectory("delivery")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = HTTPTransport(
            endpoint: collector.url, wireFormat: format, timeout: 1,
            retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(1), maximumDelay: .milliseconds(5)), sleep: { _ in })
        let tracker = try tracker(directory, transport: transport)
        for index in 0..<10_000 { try tracker.track("purchase", properties: ["n": .integer(Int64(index))]) }
        tracker.waitUntilQueued()
        var flushes = 0
        while tracker.queue.statistics.pendingRecords > 0 && flushes < 100 {
            tracker.flush()
            flushes += 1
        }
        tracker.shutdown()
        // The hung request is recorded when its handler finishes and frees its slot.
        #expect(eventually { collector.openConnections == 0 }, "the hung request finished")
        let received = collector.events
        let unique = Set(received.map(\.id))
        #expect(unique.count == 10_000, "every event arrived")
        #expect(Set(received.compactMap { event -> Int64? in if case .integer(let n)? = event.properties["n"] { n } else { nil } }) == Set(Int64(0)..<10_000))
        #expect(tracker.diagnostics.delivered == 10_000)
        #expect(tracker.queue.statistics.pendingRecords == 0)
        let duplicates = received.count - unique.count
        // The hung batch was accepted late and resent, so its events arrived twice; a
        // loaded machine may time out another request too, and a resend is one batch.
        #expect(duplicates > 0 && duplicates <= 50 * transport.requestCounts.retries,
                "the hung batch was resent (\(duplicates) duplicates, \(transport.requestCounts.retries) retries)")
        #expect(collector.undecodableBodies == 0)
        print("delivery (\(format.rawValue)): \(collector.requestCount) requests, \(transport.requestCounts.retries) retries, \(duplicates) resent duplicates")
    }

    @Test("a 400 for a batch with nothing wrong in it: bisection delivers every event, nothing is rejected")
    func rejection() throws {
        let collector = try LocalCollector { request in request == 1 ? .status(400) : .accept }
        defer { collector.stop() }
        let directory = temporaryDirectory("reject")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = HTTPTransport(endpoint: collector.url, wireFormat: .jsonBatch, timeout: 2, sleep: { _ in })
        let tracker = try Tracker(configuration: TrackerConfiguration(
            storeDirectory: directory, device: testDevice, transport: .custom(transport),
            flushPolicy: FlushPolicy(batchSize: 10, interval: nil)))
        for index in 0..<25 { try tracker.track("view", properties: ["n": .integer(Int64(index))]) }
        tracker.waitUntilQueued()
        tracker.flush()
        tracker.shutdown()
        #expect(tracker.diagnostics.rejected == 0)
        #expect(collector.uniqueEvents.count == 25)
    }

    @Test("a poison event: only it is rejected, with the collector's reason; the rest of its batch is delivered")
    func poisonEvent() throws {
        let collector = try LocalCollector(rules: LocalCollector.Rules(refusedEventNames: ["poison"]))
        defer { collector.stop() }
        let directory = temporaryDirectory("poison")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = HTTPTransport(endpoint: collector.url, wireFormat: .sensorsForm, timeout: 2, sleep: { _ in })
        let tracker = try self.tracker(directory, transport: transport, batch: 1000)
        for index in 0..<20 { try tracker.track(index == 13 ? "poison" : "view", properties: ["n": .integer(Int64(index))]) }
        tracker.waitUntilQueued()
        let report = tracker.flush()
        #expect(report.delivered == 19)
        #expect(report.rejected == 1)
        #expect(report.rejectionReasons.count == 1 && report.rejectionReasons[0].contains("poison"), "\(report.rejectionReasons)")
        #expect(!report.deferred)
        #expect(collector.uniqueEvents.count == 19)
        #expect(tracker.queue.statistics.pendingRecords == 0)
        tracker.shutdown()
    }

    @Test("413: the batch is split until the halves pass; nothing is rejected")
    func tooLarge() throws {
        let collector = try LocalCollector(rules: LocalCollector.Rules(maximumEventsPerBatch: 6))
        defer { collector.stop() }
        let directory = temporaryDirectory("too-large")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = HTTPTransport(endpoint: collector.url, wireFormat: .jsonBatch, timeout: 2, sleep: { _ in })
        let tracker = try self.tracker(directory, transport: transport, batch: 1000)
        for index in 0..<40 { try tracker.track("view", properties: ["n": .integer(Int64(index))]) }
        tracker.waitUntilQueued()
        let report = tracker.flush()
        #expect(report.delivered == 40 && report.rejected == 0 && !report.deferred)
        #expect(collector.uniqueEvents.map(\.properties["n"]) == (0..<40).map { PropertyValue.integer(Int64($0)) }, "in order")
        tracker.shutdown()
    }

    @Test("answers lost after the collector stored the body, and late answers: resends, yet 0 duplicates after deduplication")
    func duplicatesAfterDeduplication() throws {
        let collector = try LocalCollector { request in
            switch request % 5 {
            case 1: .storeThenDrop
            case 3: .hang(seconds: 1.5)
            default: .accept
            }
        }
        defer { collector.stop() }
        let directory = temporaryDirectory("dedupe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = HTTPTransport(
            endpoint: collector.url, wireFormat: .sensorsForm, timeout: 1,
            retryPolicy: RetryPolicy(maximumAttempts: 4, initialDelay: .milliseconds(1), maximumDelay: .milliseconds(5)), sleep: { _ in })
        let tracker = try self.tracker(directory, transport: transport, batch: 25)
        for index in 0..<500 { try tracker.track("view", properties: ["n": .integer(Int64(index))]) }
        tracker.waitUntilQueued()
        var flushes = 0
        while tracker.queue.statistics.pendingRecords > 0 && flushes < 50 {
            tracker.flush()
            flushes += 1
        }
        tracker.shutdown()
        #expect(eventually { collector.openConnections == 0 }, "late answers landed")
        let resent = collector.events.count - 500
        #expect(resent > 0, "the wire saw resends")
        #expect(collector.uniqueEvents.count == 500)
        #expect(Set(collector.uniqueEvents.map(\.id)).count == 500, "0 duplicates after deduplication")
        #expect(collector.counts.duplicates == resent)
        print("deduplication: 500 events, \(resent) resent on the wire, \(collector.uniqueEvents.count) stored, 0 duplicates")
    }

    @Test("an unreachable collector keeps everything queued, and a later flush delivers it")
    func unreachable() throws {
        let directory = temporaryDirectory("offline")
        defer { try? FileManager.default.removeItem(at: directory) }
        let closed = try LocalCollector()
        let url = closed.url
        closed.stop()
        let offline = HTTPTransport(endpoint: url, wireFormat: .sensorsForm, timeout: 0.5,
                                    retryPolicy: RetryPolicy(maximumAttempts: 2), sleep: { _ in })
        do {
            let tracker = try tracker(directory, transport: offline)
            for index in 0..<30 { try tracker.track("view", properties: ["n": .integer(Int64(index))]) }
            tracker.waitUntilQueued()
            #expect(tracker.flush().deferred)
            #expect(tracker.queue.statistics.pendingRecords == 30)
            tracker.shutdown()
        }
        let collector = try LocalCollector()
        defer { collector.stop() }
        let online = HTTPTransport(endpoint: collector.url, wireFormat: .sensorsForm, timeout: 2, sleep: { _ in })
        let tracker = try tracker(directory, transport: online)
        #expect(tracker.flush().delivered == 30)
        #expect(collector.events.count == 30)
    }

    @Test("retry delays grow exponentially with bounded jitter")
    func backoff() {
        let policy = RetryPolicy(maximumAttempts: 6, initialDelay: .milliseconds(100), maximumDelay: .seconds(1), jitter: 0.2)
        #expect(policy.delay(beforeRetry: 1, random: 0.5) == .milliseconds(100))
        #expect(policy.delay(beforeRetry: 3, random: 0.5) == .milliseconds(400))
        #expect(policy.delay(beforeRetry: 10, random: 0.5) == .seconds(1))
        #expect(policy.delay(beforeRetry: 1, random: 0) == .milliseconds(80))
        #expect(policy.delay(beforeRetry: 1, random: 1) == .milliseconds(120))
    }
}
