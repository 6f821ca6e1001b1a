#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// Foundation: `URL` appears in this file's public API.
public import Foundation
import Synchronization

/// A durable, bounded FIFO of byte records: append-only segment files of framed
/// records (marker, type, length, seeded CRC-32, payload — see the format below).
///
/// - **Durability.** A record acknowledged by ``append(_:sync:)`` is in the file
///   (with `sync`, on the disk); a crash at any moment loses at most the records being
///   written, which were never acknowledged. Opening a queue scans every segment,
///   keeps every intact record — past a damaged one, recovery resynchronises at the
///   next intact frame — and cuts off the torn or zero-filled tail of the newest
///   segment. No run of zeros or garbage parses as a record.
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

    private struct Entry {
        let segment: Int
        let offset: Int
        let size: Int // payload bytes
        var end: Int { offset + RecordFraming.headerBytes + size }
    }

    private struct State {
        var entries: [Entry] = []          // pending records, oldest first
        var headIndex = 0                  // entries before this are consumed
        var pendingBytes = 0
        var writeSegment = 0
        var writeDescriptor: Int32 = -1    // the segment being appended to; -1 when closed
        var writeOffset = 0
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
    private let state: Mutex<State>
    private let files: any QueueWriteLayer

    /// Opens (or creates) the queue in `directory`, recovering what is on disk.
    /// - Throws: ``QueueError/locked(path:)`` when another queue owns the directory;
    ///   ``QueueError/io(operation:path:errno:)`` when it cannot be created or opened.
    public convenience init(directory: URL, limits: Limits = Limits()) throws(QueueError) {
        try self.init(directory: directory, limits: limits, files: SystemQueueWriteLayer())
    }

    /// Opens the queue with another write layer (tests inject failures through it).
    package init(directory: URL, limits: Limits = Limits(), files: any QueueWriteLayer) throws(QueueError) {
        self.directory = directory
        self.limits = limits
        self.files = files
        state = Mutex(State())
        try recover()
    }

    // MARK: Files

    private func segmentPath(_ number: Int) -> String {
        directory.appendingPathComponent(String(format: "segment-%09d.atq", number)).path
    }

    private var cursorPath: String { directory.appendingPathComponent("cursor").path }
    private var lockPath: String { directory.appendingPathComponent("lock").path }

    /// Takes the lock, reads every segment, keeps intact records, cuts the newest
    /// segment's tail, and drops what the persisted cursor says was already sent.
    private func recover() throws(QueueError) {
        if let code = PrivateFiles.createDirectory(directory.path) {
            throw .io(operation: .createDirectory, path: directory.path, errno: code)
        }
        let lock: Int32
        switch PrivateFiles.lock(lockPath) {
        case .success(let descriptor): lock = descriptor
        case .failure(.held): throw .locked(path: directory.path)
        case .failure(.error(let code)): throw .io(operation: .lock, path: lockPath, errno: code)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let numbers = names.filter { $0.hasPrefix("segment-") && $0.hasSuffix(".atq") }
            .compactMap { Int($0.dropFirst("segment-".count).dropLast(".atq".count)) }.sorted()
        let cursor = readCursor()
        var recovered = State()
        recovered.lockDescriptor = lock
        recovered.writeSegment = numbers.last ?? 1
        for number in numbers {
            let isNewest = number == numbers.last
            // Wholly sent: deleted below, so not worth reading (the newest segment is
            // read anyway, to find where writing resumes).
            if let cursor, number < cursor.segment, !isNewest { continue }
            guard let bytes = PrivateFiles.read(segmentPath(number)) else {
                recovered.statistics.missingSegments += 1
                continue
            }
            let scan = bytes.withUnsafeBytes { RecordFraming.scan($0, maximumLength: limits.maximumRecordBytes) }
            recovered.statistics.damagedRecords += scan.damagedRecords
            recovered.statistics.skippedBytes += scan.skippedBytes
            for record in scan.records {
                if let cursor, (number, record.offset) < (cursor.segment, cursor.offset) { continue } // already sent
                recovered.entries.append(Entry(segment: number, offset: record.offset, size: record.length))
                recovered.pendingBytes += record.length
            }
            let tail = bytes.count - scan.end
            if isNewest {
                // A torn record or the zeros a power cut leaves: never acknowledged.
                recovered.statistics.truncatedBytes += tail
                recovered.writeOffset = scan.end
                if tail > 0 { recovered.pendingTruncation = scan.end }
            } else if tail > 0 {
                recovered.statistics.damagedRecords += 1
                recovered.statistics.skippedBytes += tail
            }
        }
        // A segment missing between the oldest still needed and the newest: its records
        // are lost, the others are kept (counted, never blocking).
        if let first = numbers.first(where: { number in cursor.map { number >= $0.segment } ?? true }), let last = numbers.last, last > first {
            recovered.statistics.missingSegments += (last - first + 1) - numbers.filter { $0 >= first }.count
        }
        recovered.statistics.recoveredRecords = recovered.entries.count
        // Segments wholly before the cursor are gone for good.
        if let cursor {
            for number in numbers where number < cursor.segment { unlink(segmentPath(number)) }
        }
        recovered.oldestSegment = numbers.first { number in cursor.map { number >= $0.segment } ?? true } ?? recovered.writeSegment
        recovered.cursorSequence = cursor?.sequence ?? 0
        let snapshot = recovered
        state.withLock { $0 = snapshot }
        try state.withLock { (state: inout State) throws(QueueError) in
            try openWriteSegment(&state)
            try cutPendingTruncation(&state)
        }
    }

    private func openWriteSegment(_ state: inout State) throws(QueueError) {
        let path = segmentPath(state.writeSegment)
        let descriptor = PrivateFiles.open(path, O_WRONLY | O_APPEND)
        guard descriptor >= 0 else { throw .io(operation: .openSegment, path: path, errno: errno) }
        state.writeDescriptor = descriptor
        let end = Int(lseek(descriptor, 0, SEEK_END))
        if end > state.writeOffset, state.pendingTruncation == nil {
            state.pendingTruncation = state.writeOffset  // bytes past the last intact record
        } else if end >= 0, end < state.writeOffset {
            state.writeOffset = end                      // the file shrank behind the queue's back
        }
    }

    /// Cuts bytes of a failed write (or a torn tail) off the write segment, before
    /// anything else is appended after them.
    private func cutPendingTruncation(_ state: inout State) throws(QueueError) {
        guard let length = state.pendingTruncation else { return }
        let code = files.truncate(state.writeDescriptor, to: length)
        guard code == 0 else { throw .io(operation: .truncate, path: segmentPath(state.writeSegment), errno: code) }
        state.pendingTruncation = nil
        state.writeOffset = length
    }

    // The cursor — where the oldest unsent record starts — lives in two 32-byte slots
    // written in turn in place: magic "ATQC", sequence, segment, offset (UInt64s,
    // little-endian) and a CRC-32 of those 28 bytes. A torn write spoils one slot and
    // the other, one step older, still holds (at worst a batch is sent twice). Writing
    // in place, rather than a new file renamed over the old one, costs no inode per
    // confirmed batch.
    private static let cursorSlotBytes = 32
    private static let cursorMagic: [UInt8] = Array("ATQC".utf8)

    private static func crc(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        RecordChecksum.continuing(0, over: bytes)
    }

    private func readCursor() -> (segment: Int, offset: Int, sequence: UInt64)? {
        guard let bytes = PrivateFiles.read(cursorPath) else { return nil }
        var newest: (segment: Int, offset: Int, sequence: UInt64)?
        for slot in 0..<2 {
            let start = slot * Self.cursorSlotBytes
            guard bytes.count >= start + Self.cursorSlotBytes else { break }
            let record = Array(bytes[start..<(start + Self.cursorSlotBytes)])
            let valid = record.withUnsafeBytes { raw in
                Array(record[0..<4]) == Self.cursorMagic
                    && Self.crc(UnsafeRawBufferPointer(rebasing: raw[0..<28])) == RecordFraming.readUInt32(raw, 28)
            }
            guard valid else { continue }
            let (sequence, segment, offset) = record.withUnsafeBytes { raw in
                (Self.readUInt64(raw, 4), Self.readUInt64(raw, 12), Self.readUInt64(raw, 20))
            }
            guard segment <= UInt64(Int.max), offset <= UInt64(Int.max) else { continue }
            if newest.map({ sequence > $0.sequence }) ?? true {
                newest = (Int(segment), Int(offset), sequence)
            }
        }
        return newest
    }

    private static func readUInt64(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(RecordFraming.readUInt32(bytes, offset)) | UInt64(RecordFraming.readUInt32(bytes, offset + 4)) << 32
    }

    private func writeCursor(_ state: inout State) throws(QueueError) {
        let head = state.headIndex < state.entries.count
            ? (state.entries[state.headIndex].segment, state.entries[state.headIndex].offset)
            : (state.writeSegment, state.writeOffset)
        if state.cursorDescriptor < 0 {
            state.cursorDescriptor = PrivateFiles.open(cursorPath, O_RDWR)
            guard state.cursorDescriptor >= 0 else { throw .io(operation: .openCursor, path: cursorPath, errno: errno) }
        }
        let sequence = state.cursorSequence &+ 1
        var record = Self.cursorMagic
        for value in [sequence, UInt64(head.0), UInt64(head.1)] {
            for shift in stride(from: 0, to: 64, by: 8) { record.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        let checksum = record.withUnsafeBytes { Self.crc($0) }
        for shift in stride(from: 0, to: 32, by: 8) { record.append(UInt8(truncatingIfNeeded: checksum >> UInt32(shift))) }
        let slotOffset = off_t(Int(sequence % 2) * Self.cursorSlotBytes)
        let written = record.withUnsafeBytes { pwrite(state.cursorDescriptor, $0.baseAddress, $0.count, slotOffset) }
        guard written == Self.cursorSlotBytes else {
            throw .io(operation: .writeCursor, path: cursorPath, errno: written < 0 ? errno : nil)
        }
        state.cursorSequence = sequence
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
    private func appendFramed(_ bytes: UnsafeRawBufferPointer, payloadSizes: [Int], sync: Bool) throws(QueueError) {
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
            if let failure = writeAll(bytes, state: state, sync: sync) {
                // Nothing of this call is kept: cut the partial bytes off now, or before
                // the next append if even that fails.
                state.pendingTruncation = start
                try? cutPendingTruncation(&state)
                state.statistics.writeFailures += 1
                throw failure
            }
            state.writeOffset = start + bytes.count
            state.entries += added
            state.pendingBytes += payloadSizes.reduce(0, +)
            try enforceLimits(&state)
        }
    }

    /// Writes `bytes` at the end of the write segment (retrying short writes), then
    /// syncs when asked; the error, or `nil`.
    private func writeAll(_ bytes: UnsafeRawBufferPointer, state: State, sync: Bool) -> QueueError? {
        // Named only in an error: making the path costs more than a small write.
        var path: String { segmentPath(state.writeSegment) }
        var done = 0
        while done < bytes.count {
            let written = files.write(state.writeDescriptor, UnsafeRawBufferPointer(rebasing: bytes[done...]))
            if written < 0 {
                if -written == Int(EINTR) { continue }
                return .io(operation: .append, path: path, errno: Int32(-written))
            }
            if written == 0 { return .io(operation: .append, path: path, errno: nil) }
            done += written
        }
        if sync {
            let code = files.fsync(state.writeDescriptor)
            if code != 0 { return .io(operation: .sync, path: path, errno: code) }
        }
        return nil
    }

    private func startNextSegment(_ state: inout State, sync: Bool) throws(QueueError) {
        // A segment is complete before the next one starts, synced if asked.
        if sync {
            let code = files.fsync(state.writeDescriptor)
            if code != 0 { throw .io(operation: .sync, path: segmentPath(state.writeSegment), errno: code) }
        }
        // Open the next one before letting go of this one: a failure leaves the queue
        // appending where it was.
        let next = segmentPath(state.writeSegment + 1)
        // (A stray file of that name holds nothing indexed: it is emptied.)
        let descriptor = PrivateFiles.open(next, O_WRONLY | O_APPEND | O_TRUNC)
        guard descriptor >= 0 else { throw .io(operation: .openSegment, path: next, errno: errno) }
        PrivateFiles.closeDescriptor(state.writeDescriptor)
        state.writeDescriptor = descriptor
        state.writeSegment += 1
        state.writeOffset = 0
    }

    private func enforceLimits(_ state: inout State) throws(QueueError) {
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
    private func readRecords(_ entries: ArraySlice<Entry>) -> ([Record], [Int]) {
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
    private func consume(_ state: inout State) throws(QueueError) {
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
