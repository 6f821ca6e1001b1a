import AutoTrackEvents
import AutoTrackSerialization

/// Hands the queue's stored records to the transport, batch by batch, and removes what
/// the transport settled: delivered, or refused for good. Stops at the first temporary
/// failure, leaving the rest queued. The tracker's sender thread only.
struct QueueDelivery: Sendable {
    let queue: DurableQueue
    let transport: any Transport
    /// ``transport`` when it takes stored events as they are.
    let wireTransport: (any EncodedEventTransport)?
    let decoder: EventJSONDecoder
    /// Records handed to the transport per call: the policy's batch size, times the
    /// batches a wire-form transport takes at once.
    let recordsPerDelivery: Int

    init(queue: DurableQueue, transport: any Transport, decoder: EventJSONDecoder, batchSize: Int) {
        self.queue = queue
        self.transport = transport
        self.decoder = decoder
        wireTransport = transport as? any EncodedEventTransport
        let batches = wireTransport?.batchesPerDelivery ?? 1
        let (records, overflow) = batchSize.multipliedReportingOverflow(by: max(1, batches))
        recordsPerDelivery = overflow ? .max : records
    }

    /// Sends everything queued, batch by batch while `mayContinue` says so (checked
    /// before each batch); what it did, and how many queue reads or removals failed
    /// (those events stay queued).
    func deliverQueued(while mayContinue: () -> Bool = { true }) -> (report: Tracker.FlushReport, failures: Int) {
        var report = Tracker.FlushReport()
        var failures = 0
        while mayContinue() {
            let records: [DurableQueue.Record]
            do {
                records = try queue.peek(recordsPerDelivery)
            } catch {
                failures += 1
                report.deferred = true
                break
            }
            if records.isEmpty { break }
            let (result, events, recordOfEvent, undecodable) = deliver(records)
            switch result {
            case .accepted:
                report.delivered += events
                report.rejected += undecodable
                if !removeDelivered(records) {
                    failures += 1
                    report.deferred = true
                }
            case .rejected(let reason):
                report.rejected += records.count
                report.rejectionReasons.append(reason)
                if !removeDelivered(records) {
                    failures += 1
                    report.deferred = true
                }
            case .retryLater:
                report.deferred = true
            case .partial(let settled, let rejected, let reasons, let retryReason):
                // Records up to the first unsettled event are done with (undecodable
                // ones among them are rejected).
                let settledRecords = settled >= events ? records.count : recordOfEvent[settled]
                let undecodableSettled = settledRecords - min(settled, events)
                report.delivered += min(settled, events) - rejected.count
                report.rejected += rejected.count + undecodableSettled
                report.rejectionReasons += reasons
                if !removeDelivered(Array(records[..<settledRecords])) { failures += 1 }
                if retryReason != nil || settledRecords < records.count || failures > 0 { report.deferred = true }
            }
            if report.deferred { break }
        }
        return (report, failures)
    }

    /// Hands one batch of stored records to the transport: as they are, each checked to
    /// be one JSON object, to a transport that takes the wire form; decoded, to any
    /// other. Records that fail the check (or the decoding) are left out of the batch
    /// and reported as `undecodable`; `recordOfEvent` maps each event sent to its
    /// record.
    private func deliver(_ records: [DurableQueue.Record]) -> (result: DeliveryResult, events: Int, recordOfEvent: [Int], undecodable: Int) {
        if let wireTransport {
            return deliver(records, reading: { try? EncodedEvent(validating: $0) }, to: wireTransport.deliver(encoded:))
        }
        return deliver(records, reading: { try? decoder.decodeEvent(from: $0) }, to: transport.deliver)
    }

    /// Reads each record as an event for `send` (one that does not read is left out),
    /// then sends them.
    private func deliver<Item>(
        _ records: [DurableQueue.Record], reading read: ([UInt8]) -> Item?, to send: ([Item]) -> DeliveryResult
    ) -> (result: DeliveryResult, events: Int, recordOfEvent: [Int], undecodable: Int) {
        var items: [Item] = []
        var recordOfEvent: [Int] = []
        items.reserveCapacity(records.count)
        recordOfEvent.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            guard let item = read(record.payload) else { continue }
            items.append(item)
            recordOfEvent.append(index)
        }
        let result = items.isEmpty ? .accepted : send(items)
        return (result, items.count, recordOfEvent, records.count - items.count)
    }

    /// Removes records the transport has taken; `false` when the queue failed (they
    /// will be sent again: delivery is at-least-once).
    private func removeDelivered(_ records: [DurableQueue.Record]) -> Bool {
        do {
            try queue.remove(records)
            return true
        } catch {
            return false
        }
    }
}
