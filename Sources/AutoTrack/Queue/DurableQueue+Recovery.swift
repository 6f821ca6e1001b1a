import AutoTrackLocking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

// MARK: Files: recovery, segments and the cursor

extension DurableQueue {

    func segmentPath(_ number: Int) -> String {
        directory.appendingPathComponent(String(format: "segment-%09d.atq", number)).path
    }

    var cursorPath: String { directory.appendingPathComponent("cursor").path }
    var lockPath: String { directory.appendingPathComponent("lock").path }

    /// Takes the lock, reads every segment, keeps intact records, cuts the newest
    /// segment's tail, and drops what the persisted cursor says was already sent.
    func recover() throws(QueueError) {
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

    func openWriteSegment(_ state: inout State) throws(QueueError) {
        let path = segmentPath(state.writeSegment)
        let descriptor = PrivateFiles.open(path, O_WRONLY)
        guard descriptor >= 0 else { throw .io(operation: .openSegment, path: path, errno: errno) }
        state.writeDescriptor = descriptor
        let end = Int(lseek(descriptor, 0, SEEK_END))
        state.writeCapacity = max(end, 0)
        if end > state.writeOffset, state.pendingTruncation == nil {
            state.pendingTruncation = state.writeOffset  // bytes past the last intact record
        } else if end >= 0, end < state.writeOffset {
            state.writeOffset = end                      // the file shrank behind the queue's back
        }
    }

    /// Moves appends to a new segment file, once the current one is full.
    func startNextSegment(_ state: inout State, sync: Bool) throws(QueueError) {
        // A segment is complete before the next one starts, synced if asked. (Its
        // reservation stops at the segment's limit, so none is left to cut here; the
        // cut, synced, is a safeguard that no older segment ends in zeros.)
        let trimmed = trimReservation(&state)
        if sync || trimmed {
            let code = files.synchronize(state.writeDescriptor)
            if code != 0 { throw .io(operation: .sync, path: segmentPath(state.writeSegment), errno: code) }
        }
        // Open the next one before letting go of this one: a failure leaves the queue
        // appending where it was.
        let next = segmentPath(state.writeSegment + 1)
        // (A stray file of that name holds nothing indexed: it is emptied.)
        let descriptor = PrivateFiles.open(next, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { throw .io(operation: .openSegment, path: next, errno: errno) }
        PrivateFiles.closeDescriptor(state.writeDescriptor)
        state.writeDescriptor = descriptor
        state.writeSegment += 1
        state.writeOffset = 0
        state.writeCapacity = 0
        state.reservationRefused = false
    }

    /// Cuts bytes of a failed write (or a torn tail) off the write segment, before
    /// anything else is appended after them.
    func cutPendingTruncation(_ state: inout State) throws(QueueError) {
        guard let length = state.pendingTruncation else { return }
        let code = files.truncate(state.writeDescriptor, to: length)
        guard code == 0 else { throw .io(operation: .truncate, path: segmentPath(state.writeSegment), errno: code) }
        state.pendingTruncation = nil
        state.writeOffset = length
        state.writeCapacity = length
    }

    // The cursor — where the oldest unsent record starts — lives in two 32-byte slots
    // written in turn in place: magic "ATQC", sequence, segment, offset (UInt64s,
    // little-endian) and a CRC-32 of those 28 bytes. A torn write spoils one slot and
    // the other, one step older, still holds (at worst a batch is sent twice). Writing
    // in place, rather than a new file renamed over the old one, costs no inode per
    // confirmed batch.
    private static let cursorSlotBytes = 32
    private static let cursorMagic: [UInt8] = Array("ATQC".utf8)

    static func crc(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        RecordChecksum.continuing(0, over: bytes)
    }

    func readCursor() -> (segment: Int, offset: Int, sequence: UInt64)? {
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

    static func readUInt64(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(RecordFraming.readUInt32(bytes, offset)) | UInt64(RecordFraming.readUInt32(bytes, offset + 4)) << 32
    }

    func writeCursor(_ state: inout State) throws(QueueError) {
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
}
