/// AutoTrackEvents: `Event` appears in this file's public API.
public import AutoTrackEvents

/// How a batch of events is put in a collector request body.
public enum CollectorWireFormat: String, Hashable, Sendable, CaseIterable {
    /// The Sensors-compatible form body; see ``SensorsFormBody``.
    case sensorsForm = "sensors-form"
    /// A plain JSON array of events, `application/json`.
    case jsonBatch = "json"

    /// The request's `Content-Type`.
    public var contentType: String {
        switch self {
        case .sensorsForm: SensorsFormBody.contentType
        case .jsonBatch: "application/json"
        }
    }

    /// The request body for `events`.
    public func body(for events: [Event], encoder: EventJSONEncoder = EventJSONEncoder()) throws(WireFormatError) -> [UInt8] {
        switch self {
        case .sensorsForm:
            return try SensorsFormBody.encode(events, encoder: encoder).body
        case .jsonBatch:
            var compact = encoder
            compact.layout = .compact
            return compact.encodeBatch(events)
        }
    }

    /// The request body for events already in their wire form, joined as they are
    /// (the same body ``body(for:encoder:)`` gives for the events they encode).
    public func body(forEncoded events: some Collection<EncodedEvent>) throws(WireFormatError) -> [UInt8] {
        switch self {
        case .sensorsForm: try SensorsFormBody.encode(encoded: events).body
        case .jsonBatch: EncodedEvent.jsonArray(events)
        }
    }

    /// Reads the events back from a request body of this format.
    public func events(from body: [UInt8], decoder: EventJSONDecoder = EventJSONDecoder()) throws(WireFormatError) -> [Event] {
        switch self {
        case .sensorsForm:
            return try SensorsFormBody.decode(body, decoder: decoder)
        case .jsonBatch:
            do {
                return try decoder.decodeBatch(from: body)
            } catch {
                throw .events(error)
            }
        }
    }
}
