import AutoTrackEvents

/// Appends JSON tokens to a byte buffer. The single place where AutoTrack turns
/// values into JSON text, used by the event encoder and the batch writers.
///
/// Strings are escaped completely: `"` and `\` are backslash-escaped, the control
/// characters U+0000…U+001F use their short escapes (`\b \f \n \r \t`) or `\u00XX`,
/// and everything else — including `/`, DEL and all non-ASCII text — is written as
/// UTF-8 unchanged. Integers are written exactly. Doubles use Swift's shortest
/// representation that reads back to the same value.
///
/// The text grows in a buffer of its own — noncopyable, so it has one owner and no
/// reference count — instead of an array: an event is a few hundred one-byte appends,
/// and an array checks uniqueness and capacity out of line on each.
struct JSONWriter: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    /// The bytes written so far.
    private(set) var count = 0
    private var capacity: Int

    init(reservingCapacity capacity: Int = 1024) {
        self.capacity = max(capacity, 64)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    /// The JSON text, as UTF-8; the writer is used up.
    consuming func finish() -> [UInt8] {
        Array(UnsafeBufferPointer(start: storage, count: count))
    }

    /// Appends `count` zero bytes: room a caller fills in later.
    mutating func writeZeros(_ count: Int) {
        reserve(count)
        (storage + self.count).initialize(repeating: 0, count: count)
        self.count &+= count
    }

    /// Forgets every byte from `count` on.
    mutating func truncate(to count: Int) {
        precondition(count >= 0 && count <= self.count)
        self.count = count
    }

    /// The bytes written so far, to read or change in place.
    mutating func withWrittenBytes<Result, Failure: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeMutableRawBufferPointer(start: storage, count: count))
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(toHold: count &+ extra) }
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        var newCapacity = capacity &* 2
        while newCapacity < needed { newCapacity &*= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.initialize(from: storage, count: count)
        storage.deallocate()
        storage = grown
        capacity = newCapacity
    }

    @inline(__always)
    mutating func write(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count &+= 1
    }

    /// Appends bytes as they are.
    @inline(__always)
    mutating func write(_ run: UnsafeBufferPointer<UInt8>) {
        guard let base = run.baseAddress, run.count > 0 else { return }
        reserve(run.count)
        (storage + count).initialize(from: base, count: run.count)
        count &+= run.count
    }

    /// Appends ASCII text that needs no escaping (punctuation, known keys).
    @inline(__always)
    mutating func writeRaw(_ text: StaticString) {
        write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func writeNewline(indent level: Int) {
        write(0x0A)
        for _ in 0..<(level * 2) { write(0x20) }
    }

    // MARK: Strings

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `text` as a quoted, escaped JSON string.
    mutating func writeString(_ text: String) {
        if let written = text.utf8.withContiguousStorageIfAvailable({ bytes in writeEscaped(bytes) }) { return written }
        var copy = text
        copy.withUTF8 { writeEscaped($0) }
    }

    /// The position of the first byte that must be escaped (a control character, `"`
    /// or `\`), or `utf8.count`: eight bytes at a time, then byte by byte.
    static func firstByteToEscape(in utf8: UnsafeBufferPointer<UInt8>) -> Int {
        let count = utf8.count
        var index = 0
        if let base = utf8.baseAddress {
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            while index &+ 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // A byte below 0x20 (ASCII only: bytes of 0x80 and up never match), or
                // a byte equal to '"' or '\\' (a zero byte after the XOR).
                let control = (word &- 0x2020_2020_2020_2020) & ~word & highs
                let quote = word ^ 0x2222_2222_2222_2222
                let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
                let equal = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highs
                if control | equal != 0 { break }
                index &+= 8
            }
        }
        while index < count {
            let byte = utf8[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { return index }
            index &+= 1
        }
        return count
    }

    /// Appends already-UTF-8 bytes as a quoted, escaped JSON string.
    mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        // Quotes and the text as it is, in one reservation, when nothing needs escaping
        // (nearly always); the escaping loop otherwise.
        let count = utf8.count
        var index = Self.firstByteToEscape(in: utf8)
        if index == count {
            reserve(count &+ 2)
            storage[self.count] = 0x22
            if let base = utf8.baseAddress, count > 0 { (storage + (self.count &+ 1)).initialize(from: base, count: count) }
            storage[self.count &+ 1 &+ count] = 0x22
            self.count &+= count &+ 2
            return
        }
        write(0x22)
        var runStart = 0
        while index < count {
            let byte = utf8[index]
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C {
                index += 1
                continue
            }
            if runStart < index {
                write(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            }
            write(0x5C)
            switch byte {
            case 0x22: write(0x22)
            case 0x5C: write(0x5C)
            case 0x08: write(0x62) // b
            case 0x0C: write(0x66) // f
            case 0x0A: write(0x6E) // n
            case 0x0D: write(0x72) // r
            case 0x09: write(0x74) // t
            default:
                write(0x75) // u00XX
                write(0x30)
                write(0x30)
                write(JSONWriter.hexDigits[Int(byte >> 4)])
                write(JSONWriter.hexDigits[Int(byte & 0x0F)])
            }
            index += 1
            runStart = index
        }
        if runStart < count {
            write(UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        }
        write(0x22)
    }

    // MARK: Numbers

    /// Appends a decimal integer, exactly.
    mutating func writeInteger(_ value: Int64) {
        if value < 0 {
            write(0x2D)
            // Magnitude as unsigned so that Int64.min does not overflow.
            writeUnsigned(value.magnitude)
        } else {
            writeUnsigned(UInt64(value))
        }
    }

    mutating func writeUnsigned(_ value: UInt64) {
        if value < 10 {
            write(0x30 &+ UInt8(truncatingIfNeeded: value))
            return
        }
        // At most 20 digits, written backwards into their place.
        var digits = 1
        var power: UInt64 = 10
        while digits < 20 && value >= power {
            digits &+= 1
            power &*= 10
        }
        reserve(digits)
        var position = count &+ digits
        var remaining = value
        while remaining > 0 {
            position &-= 1
            let (quotient, digit) = remaining.quotientAndRemainder(dividingBy: 10)
            storage[position] = 0x30 &+ UInt8(truncatingIfNeeded: digit)
            remaining = quotient
        }
        count &+= digits
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
        text.withUTF8 { write($0) }
    }

    // MARK: Dates

    /// Appends a date as the quoted string `yyyy-MM-dd HH:mm:ss.SSS`, in the time zone
    /// `offsetSeconds` east of UTC.
    mutating func writeDate(_ time: Timestamp, offsetSeconds: Int) {
        let parts = CivilTime(time, offsetSeconds: offsetSeconds)
        write(0x22)
        if parts.year < 0 { write(0x2D) }
        writePadded(Int(parts.year.magnitude), width: 4)
        write(0x2D)
        writePadded(parts.month, width: 2)
        write(0x2D)
        writePadded(parts.day, width: 2)
        write(0x20)
        writePadded(parts.hour, width: 2)
        write(0x3A)
        writePadded(parts.minute, width: 2)
        write(0x3A)
        writePadded(parts.second, width: 2)
        write(0x2E)
        writePadded(parts.millisecond, width: 3)
        write(0x22)
    }

    private mutating func writePadded(_ value: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 1 && value < divisor {
            write(0x30)
            divisor /= 10
        }
        writeUnsigned(UInt64(value))
    }
}
