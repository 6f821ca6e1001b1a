#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// Foundation: `URL` appears in this file's public API.
public import Foundation
import AutoTrackLocking

/// A durable, bounded FIFO of byte records: append-only segment files of framed
/// records (marker, type, length, seeded CRC-32, payload — see the format below).
///
/// - **Durability.** A record acknowledged by ``append(_:sync:)`` is in the file
///   (with `sync`, on the disk); a crash at any moment loses at most the records being
///   written, which were never acknowledged. Opening a queue scans every segment,
///   keeps every intact record — past a damaged one, recovery resynchronises at the
///   next intact frame — and cuts off the torn or zero-filled tail of the newest
///   segment. No run of zeros or garbage parses as a record.
/// - **Synced appends.** An append with `sync` ends in `fdatasync` (`fsync` where the
///   system has no `fdatasync`). It writes over zeros reserved ahead of it in the
///   segment, so that its sync need not also commit a larger file: see
///   ``QueueStatistics/truncatedBytes`` for what recovery does with them.
/// - **Failures.** A failed write or `fsync` (a full disk, an I/O error, a short
///   write) throws ``QueueError/io(operation:path:errno:)`` and leaves memory and disk
///   as before the call: the index is unchanged and the partial bytes are cut off (at
///   the latest before the next append). The queue goes on once space returns.
/// - **Delivery.** Records leave only through ``remove(_:)``, after the transport has
///   confirmed them; the read position is persisted in place in one of two
///   checksummed cursor slots, written alternately (a torn write leaves the other slot
///   valid), so a crash never resends less than was unconfirmed. A segment deleted,
///   replaced or damaged while the queue is open never blocks delivery: its unreadable
///   records are skipped and counted, the rest go out.
/// - **Bounds.** Past ``Limits/maximumRecords`` or ``Limits/maximumBytes``, the oldest
///   records are dropped — counted in ``QueueStatistics/droppedOldest``, never silent.
/// - **Ownership and privacy.** One queue owns its directory: an exclusive lock on
///   `lock` inside it makes a second queue — in this process or another — fail with
///   ``QueueError/locked(path:)``. Directories the queue creates are 0700, its files
///   0600, whatever the umask.
/// - **Threads.** Every method may be called from any thread; producers are serialised.
///
/// Every loss is counted in ``statistics``, by reason.
public final class DurableQueue: Sendable {
    /// The queue's bounds.
    public struct Limits: Hashable, Sendable {
        /// The most records kept.
        public var maximumRecords: Int
        /// The most payload bytes kept.
        public var maximumBytes: Int
        /// The size past which the next append starts a new segment file (an append
        /// is written to one segment, so a segment may exceed it by one batch).
        public var segmentBytes: Int
        /// The largest single record.
        public var maximumRecordBytes: Int

        /// Creates limits.
        public init(maximumRecords: Int = 100_000, maximumBytes: Int = 64 << 20, segmentBytes: Int = 1 << 20, maximumRecordBytes: Int = 1 << 20) {
            self.maximumRecords = max(1, maximumRecords)
            self.maximumBytes = max(1, maximumBytes)
            self.segmentBytes = max(1024, segmentBytes)
            self.maximumRecordBytes = max(16, maximumRecordBytes)
        }
    }

    /// A record handed out by ``peek(_:)``, with the position that removes it.
    public struct Record: Hashable, Sendable {
        /// The payload.
        public let payload: [UInt8]
        let segment: Int
        let endOffset: Int
    }

    struct Entry {
        let segment: Int
        let offset: Int
        let size: Int // payload bytes
        var end: Int { offset + RecordFraming.headerBytes + size }
    }

    struct State {
        var entries: [Entry] = []          // pending records, oldest first
        var headIndex = 0                  // entries before this are consumed
        var pendingBytes = 0
        var writeSegment = 0
        var writeDescriptor: Int32 = -1    // the segment being appended to; -1 when closed
        var writeOffset = 0
        var writeCapacity = 0              // the write segment's size: past writeOffset, reserved zeros
        var reservationRefused = false     // a reservation did not fit in the write segment: none again
        var pendingTruncation: Int?        // a failed write not yet cut off the write segment
        var statistics = QueueStatistics()
        var cursorDescriptor: Int32 = -1   // the open cursor file, -1 until first written
        var cursorSequence: UInt64 = 0     // the sequence number of the newest cursor slot
        var oldestSegment = 1              // no segment file below this one remains
        var lockDescriptor: Int32 = -1
    }

    /// The directory holding the segments.
    public let directory: URL
    /// The bounds.
    public let limits: Limits
    let state: Locked<State>
    let files: any QueueWriteLayer
    /// How far ahead of synced appends the write segment is filled with zeros; 0 for
    /// not at all (appends grow the file, as `bench pipeline`'s comparison row does).
    package let reservationBytes: Int

    /// Opens (or creates) the queue in `directory`, recovering what is on disk.
    /// - Throws: ``QueueError/locked(path:)`` when another queue owns the directory;
    ///   ``QueueError/io(operation:path:errno:)`` when it cannot be created or opened.
    public convenience init(directory: URL, limits: Limits = Limits()) throws(QueueError) {
        try self.init(directory: directory, limits: limits, files: SystemQueueWriteLayer())
    }

    /// Opens the queue with another write layer (tests inject failures through it) or
    /// another reservation ahead of synced appends.
    package init(
        directory: URL, limits: Limits = Limits(), files: any QueueWriteLayer,
        reservationBytes: Int = DurableQueue.defaultReservationBytes
    ) throws(QueueError) {
        self.directory = directory
        self.limits = limits
        self.files = files
        self.reservationBytes = max(0, reservationBytes)
        state = Locked(State())
        try recover()
    }

    // MARK: Operations

    /// Appends records and returns when they are in the file — with `sync`, after
    /// `fsync`. All records are checked first: if one is too large nothing is written.
    /// The records go out in a single write to one segment (a new one is started first
    /// when the current one is full). Drops the oldest records if the limits are
    /// exceeded.
    ///
    /// On a failed write or `fsync` nothing of the call is kept — not in the index, not
    /// in the file — and the error is thrown; later appends work once the cause is gone.
    public func append(_ payloads: [[UInt8]], sync: Bool = false) throws(QueueError) {
        // Laid out with room for each header, then framed and written as the tracker's
        // batches are.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payloads.reduce(0) { $0 + $1.count + RecordFraming.headerBytes })
        for payload in payloads {
            bytes.append(contentsOf: repeatElement(0, count: RecordFraming.headerBytes))
            bytes += payload
        }
        let sizes = payloads.map(\.count)
        let failure: QueueError? = bytes.withUnsafeMutableBytes { framing in
            do throws(QueueError) {
                try append(framing: framing, payloadSizes: sizes, sync: sync)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// The bytes before each payload in ``append(framing:payloadSizes:sync:)``.
    package static let recordHeaderBytes = RecordFraming.headerBytes

    /// ``append(_:sync:)`` for records already laid out in `bytes`: each payload after
    /// `RecordFraming.headerBytes` bytes left for its frame header, which this fills in
    /// (its length and checksum) before writing them all at once.
    package func append(framing bytes: UnsafeMutableRawBufferPointer, payloadSizes: [Int], sync: Bool = false) throws(QueueError) {
        if let oversized = payloadSizes.first(where: { $0 > limits.maximumRecordBytes }) {
            throw .recordTooLarge(bytes: oversized, limit: limits.maximumRecordBytes)
        }
        precondition(payloadSizes.reduce(0) { $0 + $1 + RecordFraming.headerBytes } == bytes.count, "records do not fill the buffer")
        guard !payloadSizes.isEmpty else { return }
        var offset = 0
        for size in payloadSizes {
            RecordFraming.writeHeader(in: bytes, at: offset, payloadLength: size)
            offset += RecordFraming.headerBytes + size
        }
        try appendFramed(UnsafeRawBufferPointer(bytes), payloadSizes: payloadSizes, sync: sync)
    }

    /// Writes framed records at the end of the write segment and indexes them.
    func appendFramed(_ bytes: UnsafeRawBufferPointer, payloadSizes: [Int], sync: Bool) throws(QueueError) {
        try state.withLock { (state: inout State) throws(QueueError) in
            guard state.writeDescriptor >= 0 else { throw .closed }
            do throws(QueueError) {
                try cutPendingTruncation(&state)
                if state.writeOffset >= limits.segmentBytes { try startNextSegment(&state, sync: sync) }
            } catch {
                state.statistics.writeFailures += 1
                throw error
            }
            let start = state.writeOffset
            var added: [Entry] = []
            added.reserveCapacity(payloadSizes.count)
            var offset = start
            for size in payloadSizes {
                added.append(Entry(segment: state.writeSegment, offset: offset, size: size))
                offset += RecordFraming.headerBytes + size
            }
            if sync { reserve(&state, through: start + bytes.count) }
            if let failure = writeAll(bytes, at: start, state: state, sync: sync) {
                // Nothing of this call is kept: cut the partial bytes off now, or before
                // the next append if even that fails.
                state.pendingTruncation = start
                try? cutPendingTruncation(&state)
                state.statistics.writeFailures += 1
                throw failure
            }
            state.writeOffset = start + bytes.count
            state.writeCapacity = max(state.writeCapacity, state.writeOffset)
            state.entries += added
            state.pendingBytes += payloadSizes.reduce(0, +)
            // The records are committed now: a failure to persist the head after
            // dropping the oldest is counted, not thrown (the caller would take the
            // append for failed and write it again). The head is written again by the
            // next removal; until then a crash only brings the dropped records back.
            do throws(QueueError) {
                try enforceLimits(&state)
            } catch {
                state.statistics.cursorWriteFailures += 1
            }
        }
    }

    /// Writes `bytes` at `offset` in the write segment (retrying short writes), then
    /// syncs when asked; the error, or `nil`.
    func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int, state: State, sync: Bool) -> QueueError? {
        // Named only in an error: making the path costs more than a small write.
        var path: String { segmentPath(state.writeSegment) }
        var done = 0
        while done < bytes.count {
            let written = files.write(state.writeDescriptor, UnsafeRawBufferPointer(rebasing: bytes[done...]), at: offset + done)
            if written < 0 {
                if -written == Int(EINTR) { continue }
                return .io(operation: .append, path: path, errno: Int32(-written))
            }
            if written == 0 { return .io(operation: .append, path: path, errno: nil) }
            done += written
        }
        if sync {
            let code = files.synchronize(state.writeDescriptor)
            if code != 0 { return .io(operation: .sync, path: path, errno: code) }
        }
        return nil
    }

    func enforceLimits(_ state: inout State) throws(QueueError) {
        var dropped = 0
        while state.entries.count - state.headIndex > limits.maximumRecords || state.pendingBytes > limits.maximumBytes {
            state.pendingBytes -= state.entries[state.headIndex].size
            state.headIndex += 1
            dropped += 1
        }
        if dropped > 0 {
            state.statistics.droppedOldest += dropped
            try consume(&state)
        }
    }

    /// Up to `count` of the oldest pending records, left in the queue.
    ///
    /// Every record is checked as it is read; one that no longer reads back intact —
    /// its segment deleted, replaced or damaged while the queue was open — is dropped
    /// from the queue and counted (``QueueStatistics/unreadableRecords``), so the rest
    /// still go out.
    public func peek(_ count: Int) throws(QueueError) -> [Record] {
        state.withLock { state -> [Record] in
            while true {
                let (records, unreadable) = readRecords(state.entries[state.headIndex...].prefix(count))
                if unreadable.isEmpty { return records }
                // Drop what no longer reads back, then read again: later records fill up.
                let lost = Set(unreadable)
                state.statistics.unreadableRecords += lost.count
                var kept = Array(state.entries[..<state.headIndex])
                kept.reserveCapacity(state.entries.count - lost.count)
                for index in state.headIndex..<state.entries.count {
                    if lost.contains(index) { state.pendingBytes -= state.entries[index].size } else { kept.append(state.entries[index]) }
                }
                state.entries = kept
            }
        }
    }

    /// Reads `entries` (a run of the index), a segment run at a time: the intact
    /// records, and the indices of those that did not read back intact.
    func readRecords(_ entries: ArraySlice<Entry>) -> ([Record], [Int]) {
        var records: [Record] = []
        var unreadable: [Int] = []
        var runStart = entries.startIndex
        while runStart < entries.endIndex {
            let segment = entries[runStart].segment
            var runEnd = runStart
            while runEnd < entries.endIndex && entries[runEnd].segment == segment { runEnd += 1 }
            let run = entries[runStart..<runEnd]
            let first = run.first!.offset
            let bytes = PrivateFiles.read(segmentPath(segment), offset: first, count: run.last!.end - first) ?? []
            bytes.withUnsafeBytes { raw in
                for index in run.indices {
                    let entry = entries[index]
                    let start = entry.offset - first
                    if RecordFraming.frame(in: raw, at: start, maximumLength: limits.maximumRecordBytes) == entry.size {
                        let payloadStart = start + RecordFraming.headerBytes
                        records.append(Record(payload: Array(raw[payloadStart..<(payloadStart + entry.size)]), segment: segment, endOffset: entry.end))
                    } else {
                        unreadable.append(index)
                    }
                }
            }
            runStart = runEnd
        }
        return (records, unreadable)
    }

    /// Removes every pending record unsent (consent was withdrawn); returns how many.
    package func removeAllPending() throws(QueueError) -> Int {
        try state.withLock { (state: inout State) throws(QueueError) -> Int in
            let removed = state.entries.count - state.headIndex
            guard removed > 0 else { return 0 }
            state.headIndex = state.entries.count
            state.pendingBytes = 0
            try consume(&state)
            return removed
        }
    }

    /// Removes `records` — which must be the oldest pending ones, as handed out by
    /// ``peek(_:)`` — after the transport confirmed them.
    public func remove(_ records: [Record]) throws(QueueError) {
        guard let last = records.last else { return }
        try state.withLock { (state: inout State) throws(QueueError) in
            while state.headIndex < state.entries.count {
                let entry = state.entries[state.headIndex]
                if (entry.segment, entry.end) > (last.segment, last.endOffset) { break }
                state.pendingBytes -= entry.size
                state.headIndex += 1
            }
            try consume(&state)
        }
    }

    /// Persists the head and deletes segments no longer needed.
    func consume(_ state: inout State) throws(QueueError) {
        try writeCursor(&state)
        let headSegment = state.headIndex < state.entries.count ? state.entries[state.headIndex].segment : state.writeSegment
        while state.oldestSegment < headSegment {
            unlink(segmentPath(state.oldestSegment))
            state.oldestSegment += 1
        }
        if state.headIndex > 4096 || state.headIndex == state.entries.count {
            state.entries.removeFirst(state.headIndex)
            state.headIndex = 0
        }
    }

    /// The counters now.
    public var statistics: QueueStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.pendingRecords = state.entries.count - state.headIndex
            statistics.pendingBytes = state.pendingBytes
            return statistics
        }
    }

    /// Closes the segment being written and releases the store's lock; later appends
    /// throw ``QueueError/closed``.
    public func close() {
        state.withLock { state in
            // A clean close leaves no reserved zeros behind (a failure leaves them for
            // the next opening to cut).
            if state.writeDescriptor >= 0 { trimReservation(&state) }
            for descriptor in [state.writeDescriptor, state.cursorDescriptor, state.lockDescriptor] where descriptor >= 0 {
                PrivateFiles.closeDescriptor(descriptor)
            }
            state.writeDescriptor = -1
            state.cursorDescriptor = -1
            state.lockDescriptor = -1
        }
    }

    deinit { close() }
}
