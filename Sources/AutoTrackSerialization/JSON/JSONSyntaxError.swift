/// Why a byte sequence is not acceptable JSON, and where.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Hashable, Sendable {
        /// There was nothing but whitespace.
        case emptyInput
        /// The text ended inside a value.
        case unexpectedEndOfInput
        /// A byte that cannot start or continue the value here; `expected` says what
        /// could.
        case unexpectedByte(UInt8, expected: String)
        /// A complete value was followed by more than whitespace.
        case trailingCharacters
        /// Arrays and objects nest deeper than the parser's limit.
        case nestingTooDeep(limit: Int)
        /// A number does not follow JSON's grammar (leading zeros, a lone `-`, `1.`,
        /// `1e` …).
        case invalidNumber
        /// A number is beyond `Int64` (integers) or beyond `Double`'s finite range.
        case numberOutOfRange
        /// The bytes of a string are not valid UTF-8.
        case invalidUTF8
        /// A backslash is followed by a character that is not an escape.
        case invalidEscape(UInt8)
        /// A `\u` escape is not four hex digits, or is a surrogate without its pair.
        case invalidUnicodeEscape
        /// A control character (below U+0020) appears unescaped in a string.
        case unescapedControlCharacter(UInt8)
        /// A bare word that is not `true`, `false` or `null`.
        case invalidLiteral
    }

    /// What is wrong.
    public var reason: Reason
    /// The byte offset in the input where the problem was found.
    public var offset: Int

    /// Creates an error.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// What is wrong and where, in words.
    public var description: String {
        let what: String
        switch reason {
        case .emptyInput: what = "the input is empty"
        case .unexpectedEndOfInput: what = "the input ends in the middle of a value"
        case .unexpectedByte(let byte, let expected): what = "found \(Self.show(byte)) where \(expected) was expected"
        case .trailingCharacters: what = "a complete value is followed by more text"
        case .nestingTooDeep(let limit): what = "arrays and objects nest deeper than \(limit) levels"
        case .invalidNumber: what = "a number does not follow JSON's number grammar"
        case .numberOutOfRange: what = "a number is out of range (64-bit integer or finite double)"
        case .invalidUTF8: what = "a string is not valid UTF-8"
        case .invalidEscape(let byte): what = "\\\(Self.show(byte)) is not a JSON escape"
        case .invalidUnicodeEscape: what = "a \\u escape is malformed or an unpaired surrogate"
        case .unescapedControlCharacter(let byte): what = "control character \(Self.show(byte)) must be escaped in a string"
        case .invalidLiteral: what = "a bare word is not true, false or null"
        }
        return "invalid JSON at byte \(offset): \(what)"
    }

    private static func show(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte)
            ? "'\(Character(Unicode.Scalar(byte)))'"
            : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}
