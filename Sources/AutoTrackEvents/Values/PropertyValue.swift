/// The value of one event property.
///
/// These are the types analytics collectors accept for a property: text, whole numbers,
/// finite floating-point numbers, booleans, dates and lists of text. Floating-point
/// values must be finite; ``PropertyRules`` rejects NaN and infinities.
public enum PropertyValue: Hashable, Sendable {
    /// Text, at most ``PropertyRules/maximumStringBytes`` UTF-8 bytes once validated.
    case string(String)
    /// A whole number, written exactly.
    case integer(Int64)
    /// A finite floating-point number, written in its shortest round-trip form.
    case number(Double)
    /// A boolean.
    case bool(Bool)
    /// A date, written as `yyyy-MM-dd HH:mm:ss.SSS`.
    case date(Timestamp)
    /// A list of text values (a collector's "list" type).
    case strings([String])

    /// The name of this value's type as used in diagnostics: `string`, `integer`,
    /// `number`, `bool`, `date` or `list`.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .number: "number"
        case .bool: "bool"
        case .date: "date"
        case .strings: "list"
        }
    }
}

extension PropertyValue: ExpressibleByStringLiteral {
    /// Creates a `.string` value from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyValue: ExpressibleByIntegerLiteral {
    /// Creates an `.integer` value from a literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension PropertyValue: ExpressibleByFloatLiteral {
    /// Creates a `.number` value from a literal.
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension PropertyValue: ExpressibleByBooleanLiteral {
    /// Creates a `.bool` value from a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PropertyValue: ExpressibleByArrayLiteral {
    /// Creates a `.strings` value from a literal list of text.
    public init(arrayLiteral elements: String...) { self = .strings(elements) }
}

extension PropertyValue: CustomStringConvertible {
    /// A short human-readable rendering, for logs and diagnostics (not the wire form).
    public var description: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .bool(let value): String(value)
        case .date(let time): "date(\(time.millisecondsSince1970) ms)"
        case .strings(let list): "[" + list.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }
}
