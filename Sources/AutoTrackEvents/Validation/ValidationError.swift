/// Why a name (event name or property key) is not acceptable.
public enum NameViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name is empty.
    case empty
    /// The name has more characters than allowed.
    case tooLong(length: Int, limit: Int)
    /// The first character is not a letter, `_` or `$`.
    case invalidFirstCharacter(Character)
    /// A later character is not a letter, digit, `_` or `$`; `offset` counts characters
    /// from 0.
    case invalidCharacter(Character, offset: Int)
    /// The name is a reserved word of the collector (compared case-insensitively);
    /// `matched` is the reserved word or prefix it hit.
    case reserved(matched: String)

    /// What is wrong, in words.
    public var description: String {
        switch self {
        case .empty:
            "it is empty"
        case .tooLong(let length, let limit):
            "it has \(length) characters; at most \(limit) are allowed"
        case .invalidFirstCharacter(let character):
            "it starts with \(Self.quote(character)); a name starts with a letter, '_' or '$'"
        case .invalidCharacter(let character, let offset):
            "character \(offset) is \(Self.quote(character)); only letters, digits, '_' and '$' are allowed"
        case .reserved(let matched):
            "'\(matched)' is reserved by the collector"
        }
    }

    private static func quote(_ character: Character) -> String {
        let scalars = character.unicodeScalars.map { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F
                ? "U+" + String(scalar.value, radix: 16, uppercase: true)
                : String(scalar)
        }
        return "'" + scalars.joined() + "'"
    }
}

/// Which non-finite floating-point value was rejected.
public enum NonFiniteKind: String, Hashable, Sendable {
    /// Not a number.
    case nan
    /// Positive infinity.
    case positiveInfinity
    /// Negative infinity.
    case negativeInfinity

    /// Classifies `value`; `nil` when it is finite.
    public init?(_ value: Double) {
        if value.isNaN {
            self = .nan
        } else if value == .infinity {
            self = .positiveInfinity
        } else if value == -.infinity {
            self = .negativeInfinity
        } else {
            return nil
        }
    }
}

/// Why an identifier (distinct, anonymous or login id) is not acceptable.
public enum IdentifierViolation: Error, Hashable, Sendable {
    /// The identifier is empty.
    case empty
    /// The identifier is longer than the collector stores.
    case tooLong(bytes: Int, limit: Int)
}

/// A caller's event or property that AutoTrack refuses, with what and why.
///
/// The tracking API throws these for input that came from the app's own code, so the
/// developer learns about the mistake at the call. Values the SDK generates itself are
/// never refused: `PropertyRules.sanitized(_:report:)` repairs or drops them and
/// counts what it did.
public enum ValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The event name breaks the naming rule.
    case invalidEventName(String, NameViolation)
    /// A property key breaks the naming rule.
    case invalidPropertyKey(String, NameViolation)
    /// A number property is NaN or infinite.
    case nonFiniteNumber(key: String, NonFiniteKind)
    /// A date property lies outside years 1…9999, which the date format cannot hold.
    case dateOutOfRange(key: String, Timestamp)
    /// An identity field (`distinct_id`, `anonymous_id`, `login_id`) is unusable.
    case invalidIdentifier(field: String, IdentifierViolation)

    /// What was refused and why.
    public var description: String {
        switch self {
        case .invalidEventName(let name, let violation):
            "invalid event name \(Self.shorten(name)): \(violation)"
        case .invalidPropertyKey(let key, let violation):
            "invalid property key \(Self.shorten(key)): \(violation)"
        case .nonFiniteNumber(let key, let kind):
            "property '\(key)' is \(kind.rawValue); numbers must be finite"
        case .dateOutOfRange(let key, let time):
            "property '\(key)' is a date \(time.millisecondsSince1970) ms from the epoch, outside years 1…9999"
        case .invalidIdentifier(let field, .empty):
            "\(field) is empty"
        case .invalidIdentifier(let field, .tooLong(let bytes, let limit)):
            "\(field) has \(bytes) UTF-8 bytes; at most \(limit) are allowed"
        }
    }

    private static func shorten(_ text: String) -> String {
        text.count <= 40 ? "'\(text)'" : "'\(text.prefix(40))…'"
    }
}
