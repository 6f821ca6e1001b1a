internal import CZlib
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// Foundation: `URL` appears in this file's public API.
public import Foundation
import Synchronization

/// Why the durable queue could not do what was asked.
public enum QueueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file operation failed: which, on which file, and the `errno` when the system
    /// gave one.
    case io(operation: QueueFileOperation, path: String, errno: Int32?)
    /// A segment file holds fewer bytes than the records indexed in it (changed or
    /// truncated behind the queue's back).
    case segmentShorterThanIndexed(path: String, expectedBytes: Int, readBytes: Int)
    /// A record is larger than the queue allows.
    case recordTooLarge(bytes: Int, limit: Int)
    /// The queue was closed; nothing more can be appended.
    case closed

    /// What went wrong.
    public var description: String {
        switch self {
        case .io(let operation, let path, let code):
            "queue I/O failed: \(operation.rawValue) \(path)" + (code.map { ": errno \($0) (\(String(cString: strerror($0))))" } ?? "")
        case .segmentShorterThanIndexed(let path, let expected, let read):
            "queue segment \(path) is shorter than its records: read \(read) of \(expected) bytes"
        case .recordTooLarge(let bytes, let limit): "a record of \(bytes) bytes exceeds the \(limit)-byte limit"
        case .closed: "the queue is closed"
        }
    }

    /// The `errno` behind a Foundation file error, if it carries one.
    static func errno(of error: any Error) -> Int32? {
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return Int32(nsError.code) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        return nil
    }
}

/// The file operations of a durable queue, as named in its errors.
public enum QueueFileOperation: String, Hashable, Sendable {
    /// Creating the queue's directory.
    case createDirectory = "creating"
    /// Opening a segment for appending.
    case openSegment = "opening"
    /// Opening the cursor file.
    case openCursor = "opening the cursor"
    /// Writing the cursor.
    case writeCursor = "writing the cursor"
    /// Appending records to a segment.
    case append = "appending to"
    /// `fsync` of a segment.
    case sync = "syncing"
    /// Reading records from a segment.
    case read = "reading"
}

/// Counters a queue reports.
public struct QueueStatistics: Hashable, Sendable {
    /// Records waiting to be sent.
    public var pendingRecords: Int
    /// Their payload bytes.
    public var pendingBytes: Int
    /// Records dropped, oldest first, to stay within the limits.
    public var droppedOldest: Int
    /// Complete records recovered from disk when the queue was opened.
    public var recoveredRecords: Int
    /// Bytes of torn or corrupt tails cut off during recovery.
    public var truncatedBytes: Int
}

/// A durable, bounded FIFO of byte records: append-only segment files, each record
/// framed as `length (UInt32 LE) · CRC-32 (UInt32 LE) · payload`.
///
/// - **Durability.** A record acknowledged by ``append(_:sync:)`` is in the file
///   (with `sync`, on the disk); a crash at any moment loses at most the record being
///   written. Opening a queue scans every segment, keeps every complete record whose
///   CRC matches, and truncates a torn tail.
/// - **Delivery.** Records leave only through ``remove(_:)``, after the transport has
///   confirmed them; the read position is persisted in place in one of two
///   checksummed cursor slots, written alternately (a torn write leaves the other slot
///   valid), so a crash never resends less than was unconfirmed.
/// - **Bounds.** Past ``Limits/maximumRecords`` or ``Limits/maximumBytes``, the oldest
///   records are dropped — counted in ``QueueStatistics/droppedOldest``, never silent.
/// - **Threads.** Every method may be called from any thread; producers are serialised.
public final class DurableQueue: Sendable {
    /// The queue's bounds.
    public struct Limits: Hashable, Sendable {
        /// The most records kept.
        public var maximumRecords: Int
        /// The most payload bytes kept.
        public var maximumBytes: Int
        /// The size at which a segment file is closed and a new one started.
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
        var end: Int { offset + DurableQueue.frameHeaderBytes + size }
    }

    private struct State {
        var entries: [Entry] = []          // pending records, oldest first
        var headIndex = 0                  // entries before this are consumed
        var pendingBytes = 0
        var writeSegment = 0
        var writeHandle: FileHandle?
        var writeOffset = 0
        var statistics = QueueStatistics(pendingRecords: 0, pendingBytes: 0, droppedOldest: 0, recoveredRecords: 0, truncatedBytes: 0)
        var cursorDescriptor: Int32 = -1   // the open cursor file, -1 until first written
        var cursorSequence: UInt64 = 0     // the sequence number of the newest cursor slot
        var oldestSegment = 1              // no segment file below this one remains
    }

    /// The directory holding the segments.
    public let directory: URL
    /// The bounds.
    public let limits: Limits
    private let state: Mutex<State>

    /// Opens (or creates) the queue in `directory`, recovering what is on disk.
    public init(directory: URL, limits: Limits = Limits()) throws(QueueError) {
        self.directory = directory
        self.limits = limits
        state = Mutex(State())
        try recover()
    }

    // MARK: Files

    /// `mkdir -p` with POSIX calls, so that a failure carries its `errno` (Foundation's
    /// errors on Linux do not).
    private static func createDirectory(_ path: String) throws(QueueError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) == 0 { continue }
            let code = errno
            var status = stat()
            guard code == EEXIST, stat(prefix, &status) == 0 else {
                throw .io(operation: .createDirectory, path: path, errno: code)
            }
            guard status.st_mode & S_IFMT == S_IFDIR else { throw .io(operation: .createDirectory, path: path, errno: ENOTDIR) }
        }
    }

    private func segmentURL(_ number: Int) -> URL {
        directory.appendingPathComponent(String(format: "segment-%09d.log", number))
    }

    private var cursorURL: URL { directory.appendingPathComponent("cursor") }

    private static func crc(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(truncatingIfNeeded: crc32(0, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), uInt(bytes.count)))
    }

    /// Length and CRC-32, each 4 bytes little-endian, before every payload.
    static let frameHeaderBytes = 8

    private static func appendFrame(of payload: [UInt8], to buffer: inout [UInt8]) {
        let length = UInt32(payload.count)
        let checksum = payload.withUnsafeBytes { crc($0) }
        for shift in stride(from: 0, to: 32, by: 8) { buffer.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { buffer.append(UInt8(truncatingIfNeeded: checksum >> UInt32(shift))) }
        buffer += payload
    }

    private static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    /// Reads every segment, keeps complete records, truncates torn tails, and drops
    /// what the persisted cursor says was already sent.
    private func recover() throws(QueueError) {
        let fileManager = FileManager.default
        try Self.createDirectory(directory.path)
        let names = ((try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix("segment-") && $0.hasSuffix(".log") }
        let numbers = names.compactMap { Int($0.dropFirst("segment-".count).dropLast(".log".count)) }.sorted()
        let cursor = readCursor()
        var recovered = State()
        for number in numbers {
            // Wholly sent: deleted below, so not worth reading (the newest segment is
            // read anyway, to find where writing resumes).
            if let cursor, number < cursor.segment, number != numbers.last { continue }
            let url = segmentURL(number)
            guard let data = fileManager.contents(atPath: url.path) else { continue }
            let bytes = [UInt8](data)
            var offset = 0
            while offset + Self.frameHeaderBytes <= bytes.count {
                let length = Int(Self.readUInt32(bytes, offset))
                let checksum = Self.readUInt32(bytes, offset + 4)
                guard length <= limits.maximumRecordBytes, offset + Self.frameHeaderBytes + length <= bytes.count else { break }
                let valid = bytes[(offset + Self.frameHeaderBytes)..<(offset + Self.frameHeaderBytes + length)].withUnsafeBytes { Self.crc($0) } == checksum
                guard valid else { break }
                let entry = Entry(segment: number, offset: offset, size: length)
                if let cursor, (number, offset) < (cursor.segment, cursor.offset) {
                    // Already confirmed sent.
                } else {
                    recovered.entries.append(entry)
                    recovered.pendingBytes += length
                }
                offset = entry.end
            }
            if offset < bytes.count {
                recovered.statistics.truncatedBytes += bytes.count - offset
                if let handle = try? FileHandle(forWritingTo: url) {
                    try? handle.truncate(atOffset: UInt64(offset))
                    try? handle.close()
                }
            }
            recovered.writeSegment = number
            recovered.writeOffset = offset
        }
        recovered.statistics.recoveredRecords = recovered.entries.count
        // Segments wholly before the cursor are gone for good.
        if let cursor {
            for number in numbers where number < cursor.segment { try? fileManager.removeItem(at: segmentURL(number)) }
        }
        if numbers.isEmpty { recovered.writeSegment = 1 }
        recovered.oldestSegment = numbers.first { number in cursor.map { number >= $0.segment } ?? true } ?? recovered.writeSegment
        recovered.cursorSequence = cursor?.sequence ?? 0
        let snapshot = recovered
        state.withLock { $0 = snapshot }
        try state.withLock { (state: inout State) throws(QueueError) in try openWriteSegment(&state) }
    }

    private func openWriteSegment(_ state: inout State) throws(QueueError) {
        let url = segmentURL(state.writeSegment)
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        do {
            let handle = try FileHandle(forWritingTo: url)
            try handle.seekToEnd()
            state.writeHandle = handle
            state.writeOffset = Int(try handle.offset())
        } catch {
            throw .io(operation: .openSegment, path: url.path, errno: QueueError.errno(of: error))
        }
    }

    // The cursor — where the oldest unsent record starts — lives in two 32-byte slots
    // written in turn in place: magic "ATQC", sequence, segment, offset (UInt64s,
    // little-endian) and a CRC-32 of those 28 bytes. A torn write spoils one slot and
    // the other, one step older, still holds (at worst a batch is sent twice). Writing
    // in place, rather than a new file renamed over the old one, costs no inode per
    // confirmed batch.
    private static let cursorSlotBytes = 32
    private static let cursorMagic: [UInt8] = Array("ATQC".utf8)

    private func readCursor() -> (segment: Int, offset: Int, sequence: UInt64)? {
        guard let data = FileManager.default.contents(atPath: cursorURL.path) else { return nil }
        let bytes = [UInt8](data)
        var newest: (segment: Int, offset: Int, sequence: UInt64)?
        for slot in 0..<2 {
            let start = slot * Self.cursorSlotBytes
            guard bytes.count >= start + Self.cursorSlotBytes else { break }
            let record = Array(bytes[start..<(start + Self.cursorSlotBytes)])
            guard Array(record[0..<4]) == Self.cursorMagic,
                  record[0..<28].withUnsafeBytes({ Self.crc($0) }) == Self.readUInt32(record, 28) else { continue }
            let sequence = Self.readUInt64(record, 4)
            let segment = Self.readUInt64(record, 12)
            let offset = Self.readUInt64(record, 20)
            guard segment <= UInt64(Int.max), offset <= UInt64(Int.max) else { continue }
            if newest.map({ sequence > $0.sequence }) ?? true {
                newest = (Int(segment), Int(offset), sequence)
            }
        }
        return newest
    }

    private static func readUInt64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        UInt64(readUInt32(bytes, offset)) | UInt64(readUInt32(bytes, offset + 4)) << 32
    }

    private func writeCursor(_ state: inout State) throws(QueueError) {
        let head = state.headIndex < state.entries.count
            ? (state.entries[state.headIndex].segment, state.entries[state.headIndex].offset)
            : (state.writeSegment, state.writeOffset)
        if state.cursorDescriptor < 0 {
            state.cursorDescriptor = open(cursorURL.path, O_RDWR | O_CREAT, 0o644)
            guard state.cursorDescriptor >= 0 else { throw .io(operation: .openCursor, path: cursorURL.path, errno: errno) }
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
            throw .io(operation: .writeCursor, path: cursorURL.path, errno: written < 0 ? errno : nil)
        }
        state.cursorSequence = sequence
    }

    // MARK: Operations

    /// Appends records and returns when they are in the file — with `sync`, after
    /// `fsync`. All records are checked first: if one is too large nothing is written.
    /// The records bound for one segment go out in a single write. Drops the oldest
    /// records if the limits are exceeded.
    public func append(_ payloads: [[UInt8]], sync: Bool = false) throws(QueueError) {
        if let oversized = payloads.first(where: { $0.count > limits.maximumRecordBytes }) {
            throw .recordTooLarge(bytes: oversized.count, limit: limits.maximumRecordBytes)
        }
        try state.withLock { (state: inout State) throws(QueueError) in
            guard state.writeHandle != nil else { throw .closed }
            var pendingWrite: [UInt8] = []
            for payload in payloads {
                if state.writeOffset >= limits.segmentBytes {
                    try write(&pendingWrite, state: state)
                    // A segment is complete before the next one starts, synced if asked.
                    if sync { try synchronize(state) }
                    try? state.writeHandle?.close()
                    state.writeSegment += 1
                    try openWriteSegment(&state)
                }
                Self.appendFrame(of: payload, to: &pendingWrite)
                state.entries.append(Entry(segment: state.writeSegment, offset: state.writeOffset, size: payload.count))
                state.writeOffset += payload.count + Self.frameHeaderBytes
                state.pendingBytes += payload.count
            }
            try write(&pendingWrite, state: state)
            if sync { try synchronize(state) }
            try enforceLimits(&state)
        }
    }

    private func write(_ bytes: inout [UInt8], state: State) throws(QueueError) {
        guard !bytes.isEmpty else { return }
        do {
            try state.writeHandle?.write(contentsOf: bytes)
        } catch {
            throw .io(operation: .append, path: segmentURL(state.writeSegment).path, errno: QueueError.errno(of: error))
        }
        bytes.removeAll(keepingCapacity: true)
    }

    private func synchronize(_ state: State) throws(QueueError) {
        do {
            try state.writeHandle?.synchronize()
        } catch {
            throw .io(operation: .sync, path: segmentURL(state.writeSegment).path, errno: QueueError.errno(of: error))
        }
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
    public func peek(_ count: Int) throws(QueueError) -> [Record] {
        try state.withLock { (state: inout State) throws(QueueError) -> [Record] in
            let available = state.entries[state.headIndex...].prefix(count)
            guard !available.isEmpty else { return [] }
            var records: [Record] = []
            records.reserveCapacity(available.count)
            // Records of one segment lie back to back: read each segment's run at once.
            var runStart = available.startIndex
            while runStart < available.endIndex {
                let segment = available[runStart].segment
                var runEnd = runStart
                while runEnd < available.endIndex && available[runEnd].segment == segment { runEnd += 1 }
                let run = available[runStart..<runEnd]
                let first = run.first!.offset
                let bytes: [UInt8]
                do {
                    let handle = try FileHandle(forReadingFrom: segmentURL(segment))
                    defer { try? handle.close() }
                    try handle.seek(toOffset: UInt64(first))
                    bytes = [UInt8](try handle.read(upToCount: run.last!.end - first) ?? Data())
                } catch {
                    throw .io(operation: .read, path: segmentURL(segment).path, errno: QueueError.errno(of: error))
                }
                guard bytes.count == run.last!.end - first else {
                    throw .segmentShorterThanIndexed(path: segmentURL(segment).path, expectedBytes: run.last!.end - first, readBytes: bytes.count)
                }
                for entry in run {
                    let payloadStart = entry.offset - first + Self.frameHeaderBytes
                    records.append(Record(payload: Array(bytes[payloadStart..<(payloadStart + entry.size)]), segment: segment, endOffset: entry.end))
                }
                runStart = runEnd
            }
            return records
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
    private func consume(_ state: inout State) throws(QueueError) {
        try writeCursor(&state)
        let headSegment = state.headIndex < state.entries.count ? state.entries[state.headIndex].segment : state.writeSegment
        while state.oldestSegment < headSegment {
            try? FileManager.default.removeItem(at: segmentURL(state.oldestSegment))
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

    /// Closes the segment being written; later appends throw ``QueueError/closed``.
    public func close() {
        state.withLock { state in
            try? state.writeHandle?.close()
            state.writeHandle = nil
            if state.cursorDescriptor >= 0 {
                #if canImport(Glibc)
                _ = Glibc.close(state.cursorDescriptor)
                #elseif canImport(Darwin)
                _ = Darwin.close(state.cursorDescriptor)
                #endif
                state.cursorDescriptor = -1
            }
        }
    }

    deinit { close() }
}
