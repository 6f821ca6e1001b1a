import AutoTrack
import AutoTrackEvents
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceHostIntegration
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackSampleSession
import AutoTrackSerialization
import Foundation

/// `bench pipeline`: events per second from `track` into the durable queue (without
/// and with an `fsync` per stored batch, against the naive `fsync` per event), through
/// `flush` to the embedded NDJSON transport and to a transport that only counts, and
/// the time an autotracked click costs the thread of the user action.
struct PipelineBenchmark {
    /// Accepts every batch without sending it: isolates the tracker's own flush work.
    final class CountingTransport: Transport {
        func deliver(_ events: [Event]) -> DeliveryResult { .accepted }
    }

    /// Takes decoded events only, so the tracker decodes every stored record (the
    /// flush before stored events passed through) and the wrapped transport encodes
    /// them again.
    struct DecodingTransport: Transport {
        let wrapped: any Transport
        func deliver(_ events: [Event]) -> DeliveryResult { wrapped.deliver(events) }
    }

    /// Builds the Sensors form body of every batch (gzip level 6, Base64, crc, form
    /// encoding) and sends it nowhere: the collector's body without the network.
    final class SensorsBodyTransport: EncodedEventTransport {
        func deliver(_ events: [Event]) -> DeliveryResult {
            ((try? SensorsFormBody.encode(events))?.body.count ?? 0) > 0 ? .accepted : .retryLater(reason: "no body")
        }
        func deliver(encoded events: [EncodedEvent]) -> DeliveryResult {
            ((try? SensorsFormBody.encode(encoded: events))?.body.count ?? 0) > 0 ? .accepted : .retryLater(reason: "no body")
        }
    }

    private let eventsPerRun = 2000
    private let properties: Properties = [
        "product_id": "SKU-1029", "product_name": "Trail running shoes", "price": 89.5, "quantity": 2,
        "tags": ["sport", "outdoor"], "in_stock": true,
    ]

    func run() -> BenchmarkReport {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-bench-pipeline-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        do { return try measure(in: root) } catch {
            return BenchmarkReport(group: "pipeline", context: ["setup failed: \(error)"], sections: [])
        }
    }

    private func tracker(_ directory: URL, sync: Bool = false, batchSize: Int = .max, transport: TransportChoice? = nil) throws -> Tracker {
        try Tracker(configuration: TrackerConfiguration(
            storeDirectory: directory, device: .current(appVersion: "1.0", screenWidth: 390, screenHeight: 844), transport: transport,
            flushPolicy: FlushPolicy(batchSize: batchSize, interval: nil),
            queueLimits: DurableQueue.Limits(maximumRecords: .max, maximumBytes: .max, segmentBytes: 4 << 20), syncEachBatch: sync))
    }

    private func measure(in root: URL) throws -> BenchmarkReport {
        let harness = BenchmarkHarness()
        let count = eventsPerRun
        var context = ["\(count) events per run; the store is on \(root.deletingLastPathComponent().path); median of \(harness.rounds) rounds"]

        // track → queue.
        let unsynced = try tracker(root.appendingPathComponent("unsynced"))
        let synced = try tracker(root.appendingPathComponent("synced"), sync: true)
        let naive = try DurableQueue(directory: root.appendingPathComponent("naive/queue"),
                                     limits: DurableQueue.Limits(maximumRecords: .max, maximumBytes: .max))
        let sample = Event(
            id: EventID(truncatingBits: 0x1234_5678_9ABC), name: try EventName(validating: "purchase"), time: Timestamp(millisecondsSince1970: 1_700_000_000_000),
            identity: .anonymous("device"), library: LibraryInfo(name: "Swift", version: "0.1.0", method: .code, appVersion: "1.0"),
            properties: DeviceInfo.current(appVersion: "1.0").presetProperties.merging(properties))
        let samplePayload = EventJSONEncoder().encode(sample)
        let naiveCount = count / 20
        var trickleRuns = 0 // counted by the trickle variant's body
        func tracking(_ tracker: Tracker) -> () -> Int {
            {
                for _ in 0..<count { try? tracker.track("purchase", properties: properties) }
                tracker.waitUntilQueued()
                return tracker.diagnostics.queued
            }
        }
        let intoQueue = harness.measure([
            .init(name: "track → queue, no fsync", operationsPerRun: count, bytesPerRun: count * samplePayload.count, body: tracking(unsynced)),
            .init(name: "track → queue, fsync per batch", operationsPerRun: count, bytesPerRun: count * samplePayload.count, body: tracking(synced)),
            .init(name: "track → queue, fsync, one at a time", operationsPerRun: naiveCount, bytesPerRun: naiveCount * samplePayload.count) {
                // Events that trickle in, as from a user: every batch holds one event.
                trickleRuns += 1
                for _ in 0..<naiveCount {
                    try? synced.track("purchase", properties: properties)
                    synced.waitUntilQueued()
                }
                return synced.diagnostics.queued
            },
            .init(name: "queue append, fsync per event", operationsPerRun: naiveCount, bytesPerRun: naiveCount * samplePayload.count) {
                for _ in 0..<naiveCount { try? naive.append([samplePayload], sync: true) }
                return naive.statistics.pendingRecords
            },
        ])
        // The trickle variant stores one batch per event; the rest are the bulk variant's.
        let syncedDiagnostics = synced.diagnostics
        let trickled = trickleRuns * naiveCount
        context.append(String(format: "fsync per batch, bulk: %d events in %d batches (%.1f events per fsync); one at a time: 1 per fsync",
                              syncedDiagnostics.queued - trickled, syncedDiagnostics.storedBatches - trickled,
                              Double(syncedDiagnostics.queued - trickled) / Double(max(1, syncedDiagnostics.storedBatches - trickled))))
        unsynced.shutdown()
        synced.shutdown()

        // The same events stored by SQLite, as peers' queues store them.
        let comparison = try StorageComparison(root: root, payload: samplePayload, harness: harness).measure()
        context += comparison.context

        // The CRC of each stored record, on the worker.
        let checksummed = 20_000
        let checksums = harness.measure([
            .init(name: "zlib crc32", operationsPerRun: checksummed, bytesPerRun: checksummed * samplePayload.count) {
                samplePayload.withUnsafeBytes { payload in
                    var crc: UInt32 = 0
                    for _ in 0..<checksummed { crc = RecordChecksum.continuingWithZlib(crc, over: payload) }
                    return Int(crc)
                }
            },
            .init(name: RecordChecksum.isAccelerated ? "folded (PCLMULQDQ) + zlib tail" : "record checksum (zlib: no PCLMULQDQ)",
                  operationsPerRun: checksummed, bytesPerRun: checksummed * samplePayload.count) {
                samplePayload.withUnsafeBytes { payload in
                    var crc: UInt32 = 0
                    for _ in 0..<checksummed { crc = RecordChecksum.continuing(crc, over: payload) }
                    return Int(crc)
                }
            },
        ])

        // flush: the queue is refilled directly (untimed), so tracking cannot flush first.
        let refill = [[UInt8]](repeating: samplePayload, count: count)
        func flushing(_ name: String, _ tracker: Tracker) -> BenchmarkHarness.Variant {
            .init(name: name, operationsPerRun: count, bytesPerRun: count * samplePayload.count,
                  prepare: { try? tracker.queue.append(refill) }, body: { tracker.flush().delivered })
        }
        let decodedFile = root.appendingPathComponent("file-decoded.ndjson")
        let toFileDecoding = try tracker(root.appendingPathComponent("file-decoding"), batchSize: 50,
                                         transport: .custom(DecodingTransport(wrapped: LocalFileTransport(file: decodedFile))))
        let toFile = try tracker(root.appendingPathComponent("file"), batchSize: 50)
        let toFileLarge = try tracker(root.appendingPathComponent("file-large"), batchSize: 500)
        let toSensorsDecoding = try tracker(root.appendingPathComponent("sensors-decoding"), batchSize: 50,
                                            transport: .custom(DecodingTransport(wrapped: SensorsBodyTransport())))
        let toSensors = try tracker(root.appendingPathComponent("sensors"), batchSize: 50, transport: .custom(SensorsBodyTransport()))
        let toCounter = try tracker(root.appendingPathComponent("counting"), batchSize: 50, transport: .custom(CountingTransport()))
        let flushed = harness.measure([
            flushing("NDJSON file, 50, decoded (as before)", toFileDecoding),
            flushing("NDJSON file, 50, as stored, 16 per fsync", toFile),
            flushing("NDJSON file, 500, as stored, 16/fsync", toFileLarge),
            flushing("Sensors body, 50, decoded (as before)", toSensorsDecoding),
            flushing("Sensors body, 50, as stored", toSensors),
            flushing("counting transport (decodes), 50", toCounter),
        ])
        context.append(String(format: "flush, stored JSON passed through vs decoded and re-encoded (as before): NDJSON file %.2f× the throughput, Sensors body %.2f×",
                              flushed[0].nanosecondsPerOperation / flushed[1].nanosecondsPerOperation,
                              flushed[3].nanosecondsPerOperation / flushed[4].nanosecondsPerOperation))
        for flusher in [toFileDecoding, toFile, toFileLarge, toSensorsDecoding, toSensors, toCounter] { flusher.shutdown() }

        // An autotracked click, on the calling thread.
        let plainApp = try SampleApp()
        let plainBuy = buyButton(in: plainApp)
        let tracked = try tracker(root.appendingPathComponent("clicks"))
        let host = try ReferenceHost()
        try tracked.enableAutoTrack(on: host)
        let trackedApp = try SampleApp(host: host)
        try trackedApp.launch()
        try plainApp.launch()
        let trackedBuy = buyButton(in: trackedApp)
        // The same hooks reporting to a sink that drops everything: the capture alone.
        let captureHost = try ReferenceHost()
        let captureContext = InteractionContext(sink: HooksBenchmark.DiscardingSink())
        for hook in BuiltInHooks.standard() { _ = try hook.install(on: captureHost, context: captureContext) }
        let captureApp = try SampleApp(host: captureHost)
        try captureApp.launch()
        let captureBuy = buyButton(in: captureApp)
        let taps = count
        func tapping(_ app: SampleApp, _ button: ControlObject) -> () -> Int {
            {
                var done = 0
                for _ in 0..<taps where (try? app.host.driver.tap(button)) != nil { done &+= 1 }
                return done
            }
        }
        let clicks = harness.measure([
            .init(name: "tap Buy, no autotrack", operationsPerRun: taps, bytesPerRun: 0, body: tapping(plainApp, plainBuy)),
            .init(name: "tap Buy, hooks, sink discards", operationsPerRun: taps, bytesPerRun: 0, body: tapping(captureApp, captureBuy)),
            .init(name: "tap Buy, autotracked (caller)", operationsPerRun: taps, bytesPerRun: 0,
                  prepare: { tracked.waitUntilQueued() }, body: tapping(trackedApp, trackedBuy)),
            .init(name: "tap Buy, autotracked, until queued", operationsPerRun: taps, bytesPerRun: 0,
                  prepare: { tracked.waitUntilQueued() }) {
                let done = tapping(trackedApp, trackedBuy)()
                tracked.waitUntilQueued()
                return done
            },
        ])
        let clickDiagnostics = tracked.diagnostics
        context.append(String(format: "autotracked click on the calling thread: %.2f µs (%.2f µs more than the untracked tap); %d clicks queued",
                              clicks[2].nanosecondsPerOperation / 1000,
                              (clicks[2].nanosecondsPerOperation - clicks[0].nanosecondsPerOperation) / 1000, clickDiagnostics.queued))
        tracked.shutdown()

        return BenchmarkReport(group: "pipeline", context: context, sections: [
            .init(title: "track → durable queue", unit: "event", results: intoQueue, baseline: "track → queue, no fsync", showThroughput: true,
                  goals: ["track → queue, no fsync": .throughputAtLeast(500_000)]),
        ] + comparison.sections + [
            .init(title: "record checksum (one stored event)", unit: "record", results: checksums, baseline: "zlib crc32", showThroughput: true),
            .init(title: "flush (queue → transport → removed)", unit: "event", results: flushed,
                  baseline: "NDJSON file, 50, decoded (as before)", showThroughput: true),
            .init(title: "An autotracked click", unit: "tap", results: clicks, baseline: "tap Buy, no autotrack", showThroughput: false,
                  goals: ["tap Buy, autotracked (caller)": .ratioAtMost(2)]),
        ])
    }

    private func buyButton(in app: SampleApp) -> ControlObject {
        // The Buy button of the first row, as the scripted session taps it.
        app.table.cell(at: IndexPath(row: 0, section: 0))!.contentView.subviews[1] as! ControlObject
    }
}
