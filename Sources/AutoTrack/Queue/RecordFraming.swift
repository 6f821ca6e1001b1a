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
    static let seed: UInt32 = Array("AutoTrack queue record".utf8).withUnsafeBytes { RecordChecksum.continuing(0, over: $0) }

    static func checksum(_ header: UnsafeRawBufferPointer, _ payload: UnsafeRawBufferPointer) -> UInt32 {
        RecordChecksum.continuing(RecordChecksum.continuing(seed, over: header), over: payload)
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
