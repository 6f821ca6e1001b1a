/// AutoTrackEvents: `Event` appears in this file's public API.
public import AutoTrackEvents

/// One event already in its wire form: a compact, single-line JSON object, as
/// ``EventJSONEncoder`` writes it and as the durable queue stores it.
///
/// A flush passes stored events on in this form, so a batch body is made by joining
/// bytes — never by decoding each event and encoding it again. The bytes are checked
/// once, when the value is made: every `EncodedEvent` is one well-formed JSON object
/// (strict RFC 8259, valid UTF-8) with no line break in it, so joining any of them
/// gives a valid JSON array or NDJSON text.
///
/// ```swift
/// let stored = EventJSONEncoder().encode(event)
/// let encoded = try EncodedEvent(validating: stored)
/// let body = EncodedEvent.jsonArray([encoded])   // == encoder.encodeBatch([event])
/// ```
public struct EncodedEvent: Hashable, Sendable {
    /// The JSON object's UTF-8 bytes.
    public let json: [UInt8]

    /// Checks `json` and wraps it. Throws when it is not one well-formed JSON object or
    /// holds a raw line break (a pretty-printed document: NDJSON needs one per line).
    public init(validating json: [UInt8], parser: JSONParser = JSONParser()) throws(JSONSyntaxError) {
        try parser.validateObject(json)
        if let lineBreak = json.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            throw JSONSyntaxError(.unexpectedByte(json[lineBreak], expected: "a compact (single-line) document"), at: lineBreak)
        }
        self.json = json
    }

    /// Wraps bytes this module's encoder has just written in the compact layout.
    init(encodedCompact json: [UInt8]) {
        self.json = json
    }

    /// The event's `_track_id`, read from its last member, where ``EventJSONEncoder``
    /// writes it (`…,"_track_id":123}`); `nil` for an object that does not end so.
    /// For logs and request headers, never for identity.
    public var trackID: Int64? {
        let suffix = Self.trackIDKey
        guard json.last == 0x7D else { return nil }
        var start = json.count - 1
        while start > 0, json[start - 1] >= 0x30 && json[start - 1] <= 0x39 || json[start - 1] == 0x2D { start -= 1 }
        guard start < json.count - 1, start >= suffix.count, json[(start - suffix.count)..<start].elementsEqual(suffix) else { return nil }
        return Int64(String(decoding: json[start..<(json.count - 1)], as: UTF8.self))
    }

    private static let trackIDKey = Array("\"_track_id\":".utf8)

    /// The events as one compact JSON array, in order: what
    /// ``EventJSONEncoder/encodeBatch(_:)`` writes for the same events in the compact
    /// layout.
    public static func jsonArray(_ events: some Collection<EncodedEvent>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.reduce(2) { $0 + $1.json.count + 1 })
        bytes.append(0x5B) // [
        for (position, event) in events.enumerated() {
            if position > 0 { bytes.append(0x2C) } // ,
            bytes.append(contentsOf: event.json)
        }
        bytes.append(0x5D) // ]
        return bytes
    }

    /// The events as NDJSON, one per line, each line ending in `\n`: what
    /// ``EventJSONEncoder/encodeNDJSON(_:)`` writes for the same events.
    public static func ndjson(_ events: some Collection<EncodedEvent>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.reduce(0) { $0 + $1.json.count + 1 })
        for event in events {
            bytes.append(contentsOf: event.json)
            bytes.append(0x0A)
        }
        return bytes
    }
}

extension EventJSONEncoder {
    /// `event` in its wire form: compact whatever this encoder's layout, with this
    /// encoder's date offset.
    public func encodeWireForm(_ event: Event) -> EncodedEvent {
        var compact = self
        compact.layout = .compact
        return EncodedEvent(encodedCompact: compact.encode(event))
    }
}
