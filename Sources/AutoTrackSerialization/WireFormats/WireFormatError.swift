/// Why a collector request body could not be built or read.
public enum WireFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A form field the format requires is absent.
    case missingField(String)
    /// A form field appears twice.
    case duplicateField(String)
    /// A form field has a value the format does not allow.
    case invalidField(String, reason: String)
    /// A `%` escape is malformed at this byte offset of the field value.
    case invalidPercentEncoding(offset: Int)
    /// The Base64 text is malformed at this byte offset.
    case invalidBase64(offset: Int)
    /// The body's `crc` does not match the hash of its data.
    case crcMismatch(declared: Int32, computed: Int32)
    /// gzip compression or decompression failed.
    case compression(GzipError)
    /// The decompressed data is not a valid batch of events.
    case events(EventDecodingError)

    /// What is wrong, in words.
    public var description: String {
        switch self {
        case .missingField(let name): "form field '\(name)' is missing"
        case .duplicateField(let name): "form field '\(name)' appears more than once"
        case .invalidField(let name, let reason): "form field '\(name)' is invalid: \(reason)"
        case .invalidPercentEncoding(let offset): "malformed %-escape at byte \(offset)"
        case .invalidBase64(let offset): "malformed Base64 at byte \(offset)"
        case .crcMismatch(let declared, let computed): "crc \(declared) does not match the data (computed \(computed))"
        case .compression(let error): error.description
        case .events(let error): error.description
        }
    }
}
