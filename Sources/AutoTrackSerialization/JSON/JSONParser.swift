/// A strict JSON parser (RFC 8259) with typed errors and a nesting limit.
///
/// Strict means: no comments, no trailing commas, no leading zeros, no `NaN`, no
/// unescaped control characters, valid UTF-8 only, surrogate escapes only in pairs,
/// and nothing after the value but whitespace. Every failure is a
/// ``JSONSyntaxError`` naming the byte offset; no input makes it trap or recurse
/// deeper than ``maximumDepth``.
public struct JSONParser: Sendable {
    /// The largest nesting limit a parser accepts: 200 levels parse on a 512 KiB thread
    /// stack (Apple's default for secondary threads) even in a debug build, where one
    /// level costs about 1.7 KiB of stack (300 levels overflow it).
    public static let deepestAllowed = 200

    /// The deepest nesting of arrays and objects accepted; clamped to
    /// 1…``deepestAllowed``.
    public var maximumDepth: Int {
        didSet { maximumDepth = min(max(maximumDepth, 1), Self.deepestAllowed) }
    }

    /// Creates a parser; 64 levels is far beyond any event and far below any stack
    /// limit.
    public init(maximumDepth: Int = 64) {
        self.maximumDepth = min(max(maximumDepth, 1), Self.deepestAllowed)
    }

    /// Parses one JSON document.
    public func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> =
            bytes.withContiguousStorageIfAvailable { parse(buffer: $0) }
            ?? Array(bytes).withUnsafeBufferPointer { parse(buffer: $0) }
        return try result.get()
    }

    /// Parses one JSON document from text.
    public func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var text = text
        return try text.withUTF8 { parse(buffer: $0) }.get()
    }

    /// Checks that `bytes` are one well-formed JSON document whose top level is an
    /// object — by the same rules as ``parse(_:)-(Collection<UInt8>)``, with the same
    /// errors — without building its values: what a flush asks of a stored event before
    /// passing its bytes on as they are.
    public func validateObject(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) {
        let result: Result<JSONValue, JSONSyntaxError> =
            bytes.withContiguousStorageIfAvailable { parse(buffer: $0, building: false) }
            ?? Array(bytes).withUnsafeBufferPointer { parse(buffer: $0, building: false) }
        guard case .object = try result.get() else {
            let first = bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } ?? 0
            let offset = bytes.firstIndex { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }.map { bytes.distance(from: bytes.startIndex, to: $0) } ?? 0
            throw JSONSyntaxError(.unexpectedByte(first, expected: "'{' (an object)"), at: offset)
        }
    }

    /// Parses (or, without `building`, only checks) one document. Unbuilt arrays,
    /// objects, strings and numbers come back empty, of the kind the input has.
    private func parse(buffer: UnsafeBufferPointer<UInt8>, building: Bool = true) -> Result<JSONValue, JSONSyntaxError> {
        var cursor = Cursor(input: buffer, maximumDepth: maximumDepth, building: building)
        do throws(JSONSyntaxError) {
            cursor.skipWhitespace()
            if cursor.atEnd { throw JSONSyntaxError(.emptyInput, at: 0) }
            let value = try cursor.parseValue()
            cursor.skipWhitespace()
            if !cursor.atEnd { throw JSONSyntaxError(.trailingCharacters, at: cursor.position) }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }
}

/// The parser's position in one input.
private struct Cursor {
    let input: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    /// Whether values are built, or only checked (containers stay empty, strings are
    /// made only when they must be checked as UTF-8).
    let building: Bool
    var position = 0
    var depth = 0

    init(input: UnsafeBufferPointer<UInt8>, maximumDepth: Int, building: Bool) {
        self.input = input
        self.maximumDepth = maximumDepth
        self.building = building
    }

    var atEnd: Bool { position >= input.count }

    mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    func fail(_ reason: JSONSyntaxError.Reason) -> JSONSyntaxError {
        JSONSyntaxError(reason, at: position)
    }

    func peek(expected: String) throws(JSONSyntaxError) -> UInt8 {
        guard position < input.count else { throw fail(.unexpectedEndOfInput) }
        return input[position]
    }

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        let byte = try peek(expected: "a value")
        switch byte {
        case 0x7B: return try parseObject()
        case 0x5B: return try parseArray()
        case 0x22: return .string(try parseString())
        case 0x2D, 0x30...0x39: return try parseNumber()
        case 0x74: try parseLiteral("true"); return .bool(true)
        case 0x66: try parseLiteral("false"); return .bool(false)
        case 0x6E: try parseLiteral("null"); return .null
        default: throw fail(.unexpectedByte(byte, expected: "a value"))
        }
    }

    mutating func parseLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        let start = word.utf8Start
        for offset in 0..<count {
            guard position < input.count else { throw fail(.unexpectedEndOfInput) }
            guard input[position] == start[offset] else { throw fail(.invalidLiteral) }
            position += 1
        }
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > maximumDepth { throw fail(.nestingTooDeep(limit: maximumDepth)) }
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        position += 1 // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek(expected: "a value or ']'") == 0x5D {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            let element = try parseValue()
            if building { elements.append(element) }
            skipWhitespace()
            let byte = try peek(expected: "',' or ']'")
            position += 1
            if byte == 0x2C { continue }
            if byte == 0x5D { break }
            position -= 1
            throw fail(.unexpectedByte(byte, expected: "',' or ']'"))
        }
        depth -= 1
        return .array(elements)
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        position += 1 // {
        var members: [JSONMember] = []
        skipWhitespace()
        if try peek(expected: "a key or '}'") == 0x7D {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            let quote = try peek(expected: "a key")
            guard quote == 0x22 else { throw fail(.unexpectedByte(quote, expected: "a quoted key")) }
            let key = try parseString()
            skipWhitespace()
            let colon = try peek(expected: "':'")
            guard colon == 0x3A else { throw fail(.unexpectedByte(colon, expected: "':'")) }
            position += 1
            skipWhitespace()
            let value = try parseValue()
            if building { members.append(JSONMember(key: key, value: value)) }
            skipWhitespace()
            let byte = try peek(expected: "',' or '}'")
            position += 1
            if byte == 0x2C { continue }
            if byte == 0x7D { break }
            position -= 1
            throw fail(.unexpectedByte(byte, expected: "',' or '}'"))
        }
        depth -= 1
        return .object(members)
    }

    // MARK: Strings

    /// Makes a string of UTF-8 bytes, refusing invalid UTF-8. ASCII — most keys and
    /// values — needs no validation and takes the standard library's direct path.
    private func string(fromUTF8 bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool, opening: Int) throws(JSONSyntaxError) -> String {
        if isASCII { return building ? String(decoding: bytes, as: UTF8.self) : "" }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw JSONSyntaxError(.invalidUTF8, at: opening) }
        return text
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let opening = position
        position += 1 // "
        let start = position
        // Fast path: no escapes.
        var highBits: UInt8 = 0
        while position < input.count {
            let byte = input[position]
            if byte == 0x22 {
                let raw = UnsafeBufferPointer(rebasing: input[start..<position])
                position += 1
                return try string(fromUTF8: raw, isASCII: highBits & 0x80 == 0, opening: opening)
            }
            if byte == 0x5C { break }
            if byte < 0x20 { throw fail(.unescapedControlCharacter(byte)) }
            highBits |= byte
            position += 1
        }
        guard position < input.count else { throw fail(.unexpectedEndOfInput) }
        // Slow path: copy, decoding escapes, then validate the whole.
        var decoded = Array(UnsafeBufferPointer(rebasing: input[start..<position]))
        while true {
            guard position < input.count else { throw fail(.unexpectedEndOfInput) }
            let byte = input[position]
            switch byte {
            case 0x22:
                position += 1
                return try decoded.withUnsafeBufferPointer { bytes throws(JSONSyntaxError) in
                    try string(fromUTF8: bytes, isASCII: bytes.allSatisfy { $0 < 0x80 }, opening: opening)
                }
            case 0x5C:
                try decodeEscape(into: &decoded)
            case 0..<0x20:
                throw fail(.unescapedControlCharacter(byte))
            default:
                decoded.append(byte)
                position += 1
            }
        }
    }

    mutating func decodeEscape(into decoded: inout [UInt8]) throws(JSONSyntaxError) {
        position += 1 // backslash
        guard position < input.count else { throw fail(.unexpectedEndOfInput) }
        let byte = input[position]
        position += 1
        switch byte {
        case 0x22, 0x5C, 0x2F: decoded.append(byte)
        case 0x62: decoded.append(0x08)
        case 0x66: decoded.append(0x0C)
        case 0x6E: decoded.append(0x0A)
        case 0x72: decoded.append(0x0D)
        case 0x74: decoded.append(0x09)
        case 0x75:
            let escapeStart = position - 2
            var scalar = try readHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard position + 1 < input.count, input[position] == 0x5C, input[position + 1] == 0x75 else {
                    throw JSONSyntaxError(.invalidUnicodeEscape, at: escapeStart)
                }
                position += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONSyntaxError(.invalidUnicodeEscape, at: escapeStart)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw JSONSyntaxError(.invalidUnicodeEscape, at: escapeStart)
            }
            guard let unicode = Unicode.Scalar(scalar) else {
                throw JSONSyntaxError(.invalidUnicodeEscape, at: escapeStart)
            }
            decoded.append(contentsOf: UTF8.encode(unicode)!)
        default:
            position -= 1
            throw fail(.invalidEscape(byte))
        }
    }

    mutating func readHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < input.count else { throw fail(.unexpectedEndOfInput) }
            let byte = input[position]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw fail(.invalidUnicodeEscape)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    // MARK: Numbers

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        var isInteger = true
        if input[position] == 0x2D { position += 1 }
        guard position < input.count else { throw fail(.unexpectedEndOfInput) }
        if input[position] == 0x30 {
            position += 1
            if position < input.count, (0x30...0x39).contains(input[position]) {
                throw fail(.invalidNumber) // leading zero
            }
        } else if (0x31...0x39).contains(input[position]) {
            skipDigits()
        } else {
            throw fail(.invalidNumber)
        }
        if position < input.count, input[position] == 0x2E {
            isInteger = false
            position += 1
            guard skipDigits() > 0 else { throw fail(.invalidNumber) }
        }
        if position < input.count, input[position] == 0x65 || input[position] == 0x45 {
            isInteger = false
            position += 1
            if position < input.count, input[position] == 0x2B || input[position] == 0x2D { position += 1 }
            guard skipDigits() > 0 else { throw fail(.invalidNumber) }
        }
        let text = UnsafeBufferPointer(rebasing: input[start..<position])
        if isInteger {
            guard let value = Self.integer(text) else { throw JSONSyntaxError(.numberOutOfRange, at: start) }
            return .integer(value)
        }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else {
            throw JSONSyntaxError(.numberOutOfRange, at: start)
        }
        return .number(value)
    }

    @discardableResult
    mutating func skipDigits() -> Int {
        let start = position
        while position < input.count, (0x30...0x39).contains(input[position]) { position += 1 }
        return position - start
    }

    /// Parses `-?[0-9]+` into an `Int64`, or `nil` on overflow.
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = text.first == 0x2D
        var magnitude: UInt64 = 0
        for byte in text.dropFirst(negative ? 1 : 0) {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - 0x30))
            if overflow1 || overflow2 { return nil }
            magnitude = sum
        }
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
            guard magnitude <= UInt64(Int64.max) else { return nil }
            return -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }
}
