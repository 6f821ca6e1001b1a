/// Why JSON could not be read back as an event or a batch of events.
public indirect enum EventDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not valid JSON.
    case syntax(JSONSyntaxError)
    /// A required field is absent; `field` is its path, e.g. `lib.$lib_version`.
    case missingField(String)
    /// A field holds the wrong JSON type.
    case wrongType(field: String, expected: String, found: String)
    /// A field has the right type but an unacceptable value.
    case invalidValue(field: String, reason: String)
    /// An object repeats a key, so which value counts would be ambiguous.
    case duplicateKey(field: String)
    /// Element `index` of a batch (array position, or line number from 1 for NDJSON)
    /// failed.
    case element(index: Int, EventDecodingError)

    /// What is wrong, in words.
    public var description: String {
        switch self {
        case .syntax(let error): error.description
        case .missingField(let field): "required field '\(field)' is missing"
        case .wrongType(let field, let expected, let found): "field '\(field)' is \(found); expected \(expected)"
        case .invalidValue(let field, let reason): "field '\(field)' is invalid: \(reason)"
        case .duplicateKey(let field): "key '\(field)' appears more than once"
        case .element(let index, let error): "element \(index): \(error)"
        }
    }
}
