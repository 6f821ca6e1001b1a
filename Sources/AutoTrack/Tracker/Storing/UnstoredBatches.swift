/// Encoded batches the store refused — a full disk, a directory that cannot be
/// written — oldest first, kept in memory to be written again, in order, when it
/// recovers. Bounded by ``limit`` events: past it the oldest batches are dropped, and
/// the caller counts them. Worker thread only.
struct UnstoredBatches {
    /// One refused batch, framed as the queue writes it.
    struct Batch {
        var framing: [UInt8]
        var payloadSizes: [Int]
        /// Whether it holds the crashes a launch delivered: their records are erased
        /// when it is written, kept for the next launch when it is dropped.
        var carriesCrashes = false
    }

    /// The most events kept.
    let limit: Int
    /// Refused batches, oldest first.
    private(set) var batches: [Batch] = []
    /// The events in ``batches``.
    private(set) var events = 0
    /// Whether the next batch kept holds the crashes being delivered.
    var crashesInNextBatch = false
    /// Whether a kept batch holds the crashes being delivered.
    var holdsCrashes: Bool { batches.contains { $0.carriesCrashes } }
    /// Whether a retry is scheduled on the worker.
    var retryScheduled = false
    /// How long the next retry waits: it doubles while the store keeps refusing, from
    /// a quarter second up to 30 s, and starts again once a retry stores.
    private(set) var retryDelay: Duration = .milliseconds(250)

    init(limit: Int) { self.limit = max(0, limit) }

    /// Keeps `batch`; returns how many events of older batches (or of this one, when it
    /// alone is larger than the limit) were dropped to stay within the limit.
    mutating func keep(_ batch: Batch) -> Int {
        var batch = batch
        batch.carriesCrashes = batch.carriesCrashes || crashesInNextBatch
        crashesInNextBatch = false
        batches.append(batch)
        events += batch.payloadSizes.count
        var dropped = 0
        while events > limit, !batches.isEmpty {
            let oldest = batches.removeFirst()
            events -= oldest.payloadSizes.count
            dropped += oldest.payloadSizes.count
        }
        return dropped
    }

    /// The oldest kept batch: the next to write.
    var oldest: Batch? { batches.first }

    /// The oldest batch was written: forgets it; returns its events and whether it
    /// held the crashes being delivered.
    mutating func oldestStored() -> (events: Int, carriedCrashes: Bool) {
        let batch = batches.removeFirst()
        events -= batch.payloadSizes.count
        if batches.isEmpty { retryDelay = .milliseconds(250) }
        return (batch.payloadSizes.count, batch.carriesCrashes)
    }

    /// A retry found the store refusing still: the next one waits longer.
    mutating func retryRefused() {
        retryDelay = min(retryDelay * 2, .seconds(30))
    }

    /// Empties the buffer; returns the events it held (counted as lost by the caller:
    /// the tracker shut down).
    mutating func removeAll() -> Int {
        defer {
            batches = []
            events = 0
        }
        return events
    }
}
