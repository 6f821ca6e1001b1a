/// AutoTrackEvents: `Event` appears in this file's public API.
public import AutoTrackEvents

/// The Sensors-compatible collector body:
/// `crc=<h>&gzip=1&data_list=<form-encoded Base64(gzip(JSON array))>`.
///
/// - `data_list` is the batch as a compact JSON array, gzip-compressed, Base64-encoded
///   and then form-encoded (so `+`, `/` and `=` become `%2B`, `%2F`, `%3D`).
/// - `crc` is Java's `String.hashCode()` of the Base64 text *before* form encoding,
///   as a signed decimal; the collector recomputes it to detect a damaged body.
/// - `gzip=1` says the data is compressed; a body with `gzip=0` carries the Base64 of
///   the uncompressed JSON and is accepted by ``decode(_:decoder:maximumSize:)`` too.
///
/// Decoding reads the protocol as real clients send it: `data_list` (an array) or
/// `data` (one event, as Sensors' SDKs send single events), `gzip` 1 or 0 (or absent),
/// and `crc` optional — checked when present.
public enum SensorsFormBody {
    /// The `Content-Type` of the body.
    public static let contentType = "application/x-www-form-urlencoded"

    /// The body for `events`, with its crc.
    public static func encode(
        _ events: some Sequence<Event>, encoder: EventJSONEncoder = EventJSONEncoder(), compressionLevel: Int32 = 6
    ) throws(WireFormatError) -> (body: [UInt8], crc: Int32) {
        var compact = encoder
        compact.layout = .compact
        return try encode(batchJSON: compact.encodeBatch(events), compressionLevel: compressionLevel)
    }

    /// The body for events already in their wire form, with its crc: their bytes are
    /// joined into the batch array as they are (the same body as
    /// ``encode(_:encoder:compressionLevel:)`` gives for the events they encode).
    public static func encode(
        encoded events: some Collection<EncodedEvent>, compressionLevel: Int32 = 6
    ) throws(WireFormatError) -> (body: [UInt8], crc: Int32) {
        try encode(batchJSON: EncodedEvent.jsonArray(events), compressionLevel: compressionLevel)
    }

    /// The body for a batch's compact JSON array.
    private static func encode(batchJSON json: [UInt8], compressionLevel: Int32) throws(WireFormatError) -> (body: [UInt8], crc: Int32) {
        let compressed: [UInt8]
        do {
            compressed = try Gzip.compress(json, level: compressionLevel)
        } catch {
            throw .compression(error)
        }
        let base64 = Base64.encode(compressed)
        let crc = JavaStringHash.hash(ascii: base64)
        var body: [UInt8] = []
        body.reserveCapacity(base64.count + base64.count / 8 + 40)
        body.append(contentsOf: "crc=".utf8)
        body.append(contentsOf: String(crc).utf8)
        body.append(contentsOf: "&gzip=1&data_list=".utf8)
        FormEncoding.encode(base64, into: &body)
        return (body, crc)
    }

    /// The parts of a decoded body, before the JSON is read.
    public struct Parts: Hashable, Sendable {
        /// The declared crc, when the body has one (then it matched).
        public var crc: Int32?
        /// Whether the data was gzip-compressed.
        public var gzip: Bool
        /// Whether the body carries one event (`data`) rather than an array (`data_list`).
        public var isSingleEvent: Bool
        /// The Base64 text of `data_list` or `data`.
        public var base64: [UInt8]
        /// The JSON the body carries: an array, or one event object.
        public var json: [UInt8]
    }

    /// Splits and checks a body: form fields, crc (when present), Base64, gzip. Unknown
    /// fields are ignored.
    public static func parts(_ body: some Collection<UInt8>, maximumSize: Int = 256 << 20) throws(WireFormatError) -> Parts {
        var fields: [String: [UInt8]] = [:]
        for pair in Array(body).split(separator: 0x26, omittingEmptySubsequences: true) {
            let pieces = pair.split(separator: 0x3D, maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(decoding: try FormEncoding.decode(pieces[0]), as: UTF8.self)
            let value = pieces.count > 1 ? try FormEncoding.decode(pieces[1]) : []
            guard fields.updateValue(value, forKey: name) == nil else { throw .duplicateField(name) }
        }
        var declared: Int32?
        if let crcText = fields["crc"] {
            guard let value = Int32(String(decoding: crcText, as: UTF8.self)) else {
                throw .invalidField("crc", reason: "not a 32-bit decimal integer")
            }
            declared = value
        }
        if fields["data_list"] != nil, fields["data"] != nil { throw .invalidField("data", reason: "a body carries data or data_list, not both") }
        guard let base64 = fields["data_list"] ?? fields["data"] else { throw .missingField("data_list") }
        let isSingleEvent = fields["data_list"] == nil
        let gzip: Bool
        switch fields["gzip"].map({ String(decoding: $0, as: UTF8.self) }) {
        case "1"?: gzip = true
        case "0"?, nil: gzip = false
        case let other?: throw .invalidField("gzip", reason: "'\(other)' is neither 0 nor 1")
        }
        if let declared {
            let computed = JavaStringHash.hash(ascii: base64)
            guard computed == declared else { throw .crcMismatch(declared: declared, computed: computed) }
        }
        let data = try Base64.decode(base64)
        let json: [UInt8]
        if gzip {
            do {
                json = try Gzip.decompress(data, maximumSize: maximumSize)
            } catch {
                throw .compression(error)
            }
        } else {
            json = data
        }
        return Parts(crc: declared, gzip: gzip, isSingleEvent: isSingleEvent, base64: base64, json: json)
    }

    /// Reads the events back from a body.
    public static func decode(
        _ body: some Collection<UInt8>, decoder: EventJSONDecoder = EventJSONDecoder(), maximumSize: Int = 256 << 20
    ) throws(WireFormatError) -> [Event] {
        let parts = try parts(body, maximumSize: maximumSize)
        do {
            return parts.isSingleEvent ? [try decoder.decodeEvent(from: parts.json)] : try decoder.decodeBatch(from: parts.json)
        } catch {
            throw .events(error)
        }
    }
}
