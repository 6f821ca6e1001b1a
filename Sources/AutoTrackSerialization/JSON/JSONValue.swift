/// A parsed JSON document, with object members in their original order.
///
/// Numbers without a fraction or exponent are ``integer(_:)``s (exact, 64-bit); others are
/// ``number(_:)``s. The distinction is what lets an event property read back as the same
/// `PropertyValue` case it was written from.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent, within `Int64`.
    case integer(Int64)
    /// A number written with a fraction or exponent, finite.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; duplicate keys are kept as written.
    case object([JSONMember])

    /// The JSON type name, for diagnostics: `null`, `bool`, `integer`, `number`,
    /// `string`, `array` or `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The value of the first member named `key`, if this is an object that has one.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// One member of a JSON object.
public struct JSONMember: Hashable, Sendable {
    /// The member's key.
    public var key: String
    /// The member's value.
    public var value: JSONValue

    /// Creates a member.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}
