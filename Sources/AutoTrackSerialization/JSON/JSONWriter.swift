import AutoTrackEvents

/// Appends JSON tokens to a byte buffer. The single place where AutoTrack turns
/// values into JSON text, used by the event encoder and the batch writers.
///
/// Strings are escaped completely: `"` and `\` are backslash-escaped, the control
/// characters U+0000…U+001F use their short escapes (`\b \f \n \r \t`) or `\u00XX`,
/// and everything else — including `/`, DEL and all non-ASCII text — is written as
/// UTF-8 unchanged. Integers are written exactly. Doubles use Swift's shortest
/// representation that reads back to the same value.
struct JSONWriter {
    /// The JSON text so far, as UTF-8.
    var bytes: [UInt8]

    init(reservingCapacity capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    mutating func write(_ byte: UInt8) { bytes.append(byte) }

    /// Appends ASCII text that needs no escaping (punctuation, known keys).
    @inline(__always)
    mutating func writeRaw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func writeNewline(indent level: Int) {
        bytes.append(0x0A)
        for _ in 0..<(level * 2) { bytes.append(0x20) }
    }

    // MARK: Strings

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `text` as a quoted, escaped JSON string.
    mutating func writeString(_ text: String) {
        var text = text
        text.withUTF8 { writeEscaped($0) }
    }

    /// Appends already-UTF-8 bytes as a quoted, escaped JSON string.
    mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(0x22)
        var runStart = 0
        var index = 0
        let count = utf8.count
        while index < count {
            let byte = utf8[index]
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C {
                index += 1
                continue
            }
            if runStart < index {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            }
            bytes.append(0x5C)
            switch byte {
            case 0x22: bytes.append(0x22)
            case 0x5C: bytes.append(0x5C)
            case 0x08: bytes.append(0x62) // b
            case 0x0C: bytes.append(0x66) // f
            case 0x0A: bytes.append(0x6E) // n
            case 0x0D: bytes.append(0x72) // r
            case 0x09: bytes.append(0x74) // t
            default:
                bytes.append(0x75) // u00XX
                bytes.append(0x30)
                bytes.append(0x30)
                bytes.append(JSONWriter.hexDigits[Int(byte >> 4)])
                bytes.append(JSONWriter.hexDigits[Int(byte & 0x0F)])
            }
            index += 1
            runStart = index
        }
        if runStart < count {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        }
        bytes.append(0x22)
    }

    // MARK: Numbers

    /// Appends a decimal integer, exactly.
    mutating func writeInteger(_ value: Int64) {
        if value < 0 {
            bytes.append(0x2D)
            // Magnitude as unsigned so that Int64.min does not overflow.
            writeUnsigned(value.magnitude)
        } else {
            writeUnsigned(UInt64(value))
        }
    }

    mutating func writeUnsigned(_ value: UInt64) {
        if value < 10 {
            bytes.append(0x30 &+ UInt8(truncatingIfNeeded: value))
            return
        }
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0) // 32 bytes of scratch
        withUnsafeMutableBytes(of: &digits) { scratch in
            var position = scratch.count
            var remaining = value
            while remaining > 0 {
                position -= 1
                let (quotient, digit) = remaining.quotientAndRemainder(dividingBy: 10)
                scratch[position] = 0x30 &+ UInt8(truncatingIfNeeded: digit)
                remaining = quotient
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[position...]))
        }
    }

    /// Appends a finite double in its shortest round-trip form (`1.0`, `0.1`,
    /// `1e-05`, `1.7976931348623157e+308`). Callers guarantee finiteness; a non-finite
    /// value, should one slip through, is written as `null` rather than invalid JSON.
    mutating func writeDouble(_ value: Double) {
        guard value.isFinite else {
            writeRaw("null")
            return
        }
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    // MARK: Dates

    /// Appends a date as the quoted string `yyyy-MM-dd HH:mm:ss.SSS`, in the time zone
    /// `offsetSeconds` east of UTC.
    mutating func writeDate(_ time: Timestamp, offsetSeconds: Int) {
        let parts = CivilTime(time, offsetSeconds: offsetSeconds)
        bytes.append(0x22)
        if parts.year < 0 { bytes.append(0x2D) }
        writePadded(Int(parts.year.magnitude), width: 4)
        bytes.append(0x2D)
        writePadded(parts.month, width: 2)
        bytes.append(0x2D)
        writePadded(parts.day, width: 2)
        bytes.append(0x20)
        writePadded(parts.hour, width: 2)
        bytes.append(0x3A)
        writePadded(parts.minute, width: 2)
        bytes.append(0x3A)
        writePadded(parts.second, width: 2)
        bytes.append(0x2E)
        writePadded(parts.millisecond, width: 3)
        bytes.append(0x22)
    }

    private mutating func writePadded(_ value: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 1 && value < divisor {
            bytes.append(0x30)
            divisor /= 10
        }
        writeUnsigned(UInt64(value))
    }
}
