internal import CZlib

/// The on-disk frame of one queue record (format 2):
///
/// ```
/// 0xA7 0x51 · type (0x01) · 0x00 · length (UInt32 LE) · CRC-32 (UInt32 LE) · payload
/// ```
///
/// The CRC covers type, reserved byte, length and payload, seeded with a constant, so
/// that no run of zeros (the CRC of zeros from seed 0 is 0) or of garbage parses as a
/// record; the two marker bytes let recovery resynchronise past damage at the next
/// intact record.
enum RecordFraming {
    static let headerBytes = 12
    static let marker: (UInt8, UInt8) = (0xA7, 0x51)
    static let recordType: UInt8 = 0x01
    /// CRC-32 of "AutoTrack queue record", the seed of every frame's CRC.
    static let seed: UInt = {
        let salt = Array("AutoTrack queue record".utf8)
        return salt.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
    }()

    static func checksum(_ header: UnsafeRawBufferPointer, _ payload: UnsafeRawBufferPointer) -> UInt32 {
        let crc = crc32(seed, header.baseAddress?.assumingMemoryBound(to: UInt8.self), uInt(header.count))
        return RecordChecksum.continuing(UInt32(truncatingIfNeeded: crc), over: payload)
    }

    /// Fills in the header of the record whose payload of `payloadLength` bytes follows
    /// the `headerBytes` at `offset` in `bytes`.
    static func writeHeader(in bytes: UnsafeMutableRawBufferPointer, at offset: Int, payloadLength: Int) {
        let length = UInt32(payloadLength)
        let fields = UnsafeMutableRawBufferPointer(rebasing: bytes[(offset + 2)..<(offset + 8)])
        fields[0] = recordType
        fields[1] = 0
        for index in 0..<4 { fields[2 + index] = UInt8(truncatingIfNeeded: length >> UInt32(8 * index)) }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[(offset + headerBytes)..<(offset + headerBytes + payloadLength)])
        let crc = checksum(UnsafeRawBufferPointer(fields), payload)
        bytes[offset] = marker.0
        bytes[offset + 1] = marker.1
        for index in 0..<4 { bytes[offset + 8 + index] = UInt8(truncatingIfNeeded: crc >> UInt32(8 * index)) }
    }

    static func append(_ payload: [UInt8], to buffer: inout [UInt8]) {
        let length = UInt32(payload.count)
        // Type, reserved, length (little-endian): the six header bytes the CRC covers,
        // on the stack rather than in an array per record.
        var header: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
            recordType, 0, UInt8(truncatingIfNeeded: length), UInt8(truncatingIfNeeded: length >> 8),
            UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 24))
        let crc = withUnsafeBytes(of: &header) { header in payload.withUnsafeBytes { checksum(header, $0) } }
        buffer.append(marker.0)
        buffer.append(marker.1)
        withUnsafeBytes(of: &header) { buffer.append(contentsOf: $0) }
        for shift in stride(from: 0, to: 32, by: 8) { buffer.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        buffer += payload
    }

    static func readUInt32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    /// The payload length of the intact frame at `offset`, or `nil`.
    static func frame(in bytes: UnsafeRawBufferPointer, at offset: Int, maximumLength: Int) -> Int? {
        guard offset + headerBytes <= bytes.count, bytes[offset] == marker.0, bytes[offset + 1] == marker.1,
              bytes[offset + 2] == recordType, bytes[offset + 3] == 0 else { return nil }
        let length = Int(readUInt32(bytes, offset + 4))
        guard length <= maximumLength, offset + headerBytes + length <= bytes.count else { return nil }
        let header = UnsafeRawBufferPointer(rebasing: bytes[(offset + 2)..<(offset + 8)])
        let payload = UnsafeRawBufferPointer(rebasing: bytes[(offset + headerBytes)..<(offset + headerBytes + length)])
        return checksum(header, payload) == readUInt32(bytes, offset + 8) ? length : nil
    }

    /// What a scan of one segment found.
    struct Scan {
        /// Intact records: offset and payload length.
        var records: [(offset: Int, length: Int)] = []
        /// Where the last intact record ends.
        var end = 0
        /// Damaged stretches between intact records.
        var damagedRecords = 0
        /// Their bytes.
        var skippedBytes = 0
    }

    /// Every intact record of a segment. Past a damaged stretch the scan resumes at the
    /// next intact frame; what follows the last intact record is left to the caller
    /// (the tail).
    static func scan(_ bytes: UnsafeRawBufferPointer, maximumLength: Int) -> Scan {
        var scan = Scan()
        var offset = 0
        while offset + headerBytes <= bytes.count {
            if let length = frame(in: bytes, at: offset, maximumLength: maximumLength) {
                scan.records.append((offset, length))
                offset += headerBytes + length
                scan.end = offset
                continue
            }
            // Damage: look for the next intact frame.
            var next = offset + 1
            var found: Int?
            while next + headerBytes <= bytes.count {
                if bytes[next] == marker.0, bytes[next + 1] == marker.1, frame(in: bytes, at: next, maximumLength: maximumLength) != nil {
                    found = next
                    break
                }
                next += 1
            }
            guard let found else { break }
            // At least one record lay here; as many as frame markers began in it.
            var markers = 0
            for position in offset..<(found - 1) where bytes[position] == marker.0 && bytes[position + 1] == marker.1 { markers += 1 }
            scan.damagedRecords += max(1, markers)
            scan.skippedBytes += found - offset
            offset = found
        }
        return scan
    }
}
