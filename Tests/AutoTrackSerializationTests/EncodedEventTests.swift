import AutoTrackEvents
import AutoTrackSerialization
import Testing

/// Events in their wire form: checked once, then joined into bodies byte for byte as
/// the encoder would have written them.
@Suite("Encoded events pass through")
struct EncodedEventTests {
    static let events = RandomEvents.make(seed: 0xE0C0DE, count: 300)

    @Test("a JSON array and NDJSON of encoded events equal the encoder's, for 300 random events")
    func joinedBodies() throws {
        let encoder = EventJSONEncoder(dateOffsetSeconds: 8 * 3600)
        let encoded = try Self.events.map { try EncodedEvent(validating: encoder.encode($0)) }
        #expect(EncodedEvent.jsonArray(encoded) == encoder.encodeBatch(Self.events))
        #expect(EncodedEvent.ndjson(encoded) == encoder.encodeNDJSON(Self.events))
        #expect(EncodedEvent.jsonArray([EncodedEvent]()) == encoder.encodeBatch([Event]()))
        #expect(try EventJSONDecoder(dateOffsetSeconds: 8 * 3600).decodeBatch(from: EncodedEvent.jsonArray(encoded)) == Self.events)
    }

    @Test("wire bodies from encoded events equal those from decoded events", arguments: CollectorWireFormat.allCases)
    func wireBodies(format: CollectorWireFormat) throws {
        let encoder = EventJSONEncoder()
        let encoded = Self.events.prefix(50).map(encoder.encodeWireForm)
        #expect(try format.body(forEncoded: encoded) == format.body(for: Array(Self.events.prefix(50)), encoder: encoder))
        #expect(try format.events(from: format.body(forEncoded: encoded)) == Array(Self.events.prefix(50)))
    }

    @Test("the wire form is compact whatever the encoder's layout")
    func wireFormIsCompact() throws {
        let pretty = EventJSONEncoder(layout: .pretty)
        let event = Self.events[0]
        #expect(pretty.encodeWireForm(event).json == EventJSONEncoder().encode(event))
        #expect(throws: JSONSyntaxError.self) { try EncodedEvent(validating: pretty.encode(event)) }
    }

    @Test("the check refuses what parsing refuses, with the same error", arguments: MalformedInputTests.syntaxCases)
    func sameErrorsAsParsing(label: String, input: [UInt8], reason: JSONSyntaxError.Reason) {
        #expect(throws: JSONSyntaxError(reason, at: Self.offset(parsing: input)), "\(label)") {
            try EncodedEvent(validating: input)
        }
    }

    static func offset(parsing input: [UInt8]) -> Int {
        do throws(JSONSyntaxError) {
            _ = try JSONParser().parse(input)
            return -1
        } catch {
            return error.offset
        }
    }

    @Test("well-formed JSON that is not one object is refused", arguments: ["[]", "\"x\"", "1", "null", " true "])
    func notAnObject(text: String) {
        #expect(throws: JSONSyntaxError.self) { try EncodedEvent(validating: Array(text.utf8)) }
    }

    @Test("a raw line break between tokens is refused (NDJSON needs one object per line)")
    func lineBreaks() throws {
        #expect(throws: JSONSyntaxError(.unexpectedByte(0x0A, expected: "a compact (single-line) document"), at: 6)) {
            try EncodedEvent(validating: Array("{\"a\":1\n}".utf8))
        }
        #expect(throws: JSONSyntaxError.self) { try EncodedEvent(validating: Array("{\"a\":1}\r".utf8)) }
        // An escaped line break inside a string is content, not a line break.
        #expect(try EncodedEvent(validating: Array("{\"a\":\"x\\ny\"}".utf8)).json.count == 12)
        // Non-ASCII text is checked as UTF-8 and kept.
        #expect(try EncodedEvent(validating: Array("{\"内容\":\"购买\"}".utf8)).json == Array("{\"内容\":\"购买\"}".utf8))
    }

    @Test("an event written after an encoded prefix equals the merged event encoded whole, overlapping keys and dates included")
    func encodedPrefix() {
        var random = SplitMix64(seed: 0xFEED)
        let prefixes = RandomEvents.make(seed: 77, count: 40).map(\.properties) + [[:], ["$os": "iOS"]]
        for offset in [0, 8 * 3600] {
            let encoder = EventJSONEncoder(dateOffsetSeconds: offset)
            for (index, event) in Self.events.prefix(120).enumerated() {
                var prefixProperties = prefixes[index % prefixes.count]
                // Now and then a key of the event's own is in the prefix too: its value
                // replaces the prefix's, in the prefix's place.
                if let key = event.properties.keys.first, random.next() % 3 == 0 { prefixProperties[key] = "from the prefix" }
                let prefix = EncodedPropertyPrefix(prefixProperties, encoder: encoder)
                var merged = event
                merged.properties = prefixProperties.merging(event.properties)
                #expect(encoder.encode(event, after: prefix) == encoder.encode(merged), "event \(index), offset \(offset)")
            }
        }
        // With the members after the properties kept between events: the same bytes,
        // for events of several identities, types and libraries in turn.
        let encoder = EventJSONEncoder()
        let prefix8 = EncodedPropertyPrefix(["$os": "iOS", "$lib": "Swift"], encoder: encoder)
        var tails: EncodedEventTails? = EncodedEventTails()
        // Each event twice, and the first ones again after others: kept tails are used.
        for event in Self.events + Self.events.prefix(3) + Self.events.prefix(3).reversed() {
            var merged = event
            merged.properties = prefix8.properties.merging(event.properties)
            #expect(encoder.encode(event, after: prefix8, tails: &tails) == encoder.encode(merged))
            var sameIdentity = event
            sameIdentity.id = EventID(truncatingBits: 42)
            sameIdentity.properties["x"] = 1
            var mergedSame = sameIdentity
            mergedSame.properties = prefix8.properties.merging(sameIdentity.properties)
            #expect(encoder.encode(sameIdentity, after: prefix8, tails: &tails) == encoder.encode(mergedSame))
        }
        // Under identity sources — one object per identity and library but its method,
        // as a tracker's call contexts are — tails are found by source, type and method:
        // the same bytes again.
        final class Source: Sendable {}
        var sources: [String: Source] = [:]
        var keyed: EncodedEventTails? = EncodedEventTails()
        for event in Self.events + Self.events.reversed() + Self.events {
            let library = event.library
            let source = sources["\(event.identity)|\(library.name)|\(library.version)|\(String(describing: library.appVersion))", default: Source()]
            sources["\(event.identity)|\(library.name)|\(library.version)|\(String(describing: library.appVersion))"] = source
            keyed?.identitySource = source
            var merged = event
            merged.properties = prefix8.properties.merging(event.properties)
            #expect(encoder.encode(event, after: prefix8, tails: &keyed) == encoder.encode(merged))
        }
        // Several events per source, with both methods in turn: kept tails are hit.
        for event in Self.events.prefix(20) {
            let source = Source()
            keyed?.identitySource = source
            for (step, method) in [LibraryMethod.code, .autoTrack, .code, .autoTrack].enumerated() {
                var variant = event
                variant.library.method = method
                variant.properties["step"] = .integer(Int64(step))
                var merged = variant
                merged.properties = prefix8.properties.merging(variant.properties)
                #expect(encoder.encode(variant, after: prefix8, tails: &keyed) == encoder.encode(merged))
            }
        }
        // A prefix encoded in another time zone, or a pretty encoder, takes the ordinary way.
        let event = Self.events[0]
        let prefix = EncodedPropertyPrefix(["when": .date(Timestamp(millisecondsSince1970: 0))], encoder: EventJSONEncoder())
        var merged = event
        merged.properties = prefix.properties.merging(event.properties)
        let shifted = EventJSONEncoder(dateOffsetSeconds: 3600)
        #expect(shifted.encode(event, after: prefix) == shifted.encode(merged))
        let pretty = EventJSONEncoder(layout: .pretty)
        #expect(pretty.encode(event, after: prefix) == pretty.encode(merged))
    }

    @Test("the track id is read from the encoder's last member")
    func trackID() throws {
        let encoder = EventJSONEncoder()
        for event in Self.events.prefix(20) {
            #expect(encoder.encodeWireForm(event).trackID == event.id.rawValue)
        }
        #expect(try EncodedEvent(validating: Array("{\"a\":1}".utf8)).trackID == nil)
        #expect(try EncodedEvent(validating: Array("{\"x\":\"_track_id\"}".utf8)).trackID == nil)
        #expect(try EncodedEvent(validating: Array("{\"_track_id\":12}".utf8)).trackID == 12)
    }
}
