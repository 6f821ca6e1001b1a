/// AutoTrackEvents: `Event` appears in this file's public API.
public import AutoTrackEvents

/// Reads events back from the JSON that ``EventJSONEncoder`` writes.
///
/// Required fields: `event`, `time`, `properties`, `type`, `distinct_id`, `lib`
/// (with `$lib`, `$lib_version`, `$lib_method`) and `_track_id`. `anonymous_id`,
/// `login_id` and `lib.$app_version` are optional. Unknown top-level fields (such as a
/// collector's `_flush_time`) are ignored, so newer writers stay readable.
///
/// Property values map back by JSON type: integers to `.integer`, other numbers to
/// `.number`, booleans, arrays of strings to `.strings`, and strings to `.string` —
/// except that a string of exactly the date form `yyyy-MM-dd HH:mm:ss.SSS` naming a
/// real calendar instant reads as `.date` when ``recognizesDates`` is on (the default),
/// as the collector itself types such values. `null`, objects and mixed arrays are
/// refused. Duplicate keys are refused rather than silently resolved.
public struct EventJSONDecoder: Sendable {
    /// The parser settings (nesting limit).
    public var parser: JSONParser
    /// The time zone of date-typed properties, in seconds east of UTC; must match the
    /// encoder's.
    public var dateOffsetSeconds: Int
    /// Whether strings in the date form read back as dates.
    public var recognizesDates: Bool
    /// What a record without `_track_id` becomes.
    public var missingTrackID: MissingTrackIDPolicy = .refuse

    /// What the decoder does with a record that has no `_track_id` (Sensors' own
    /// server SDKs send none).
    public enum MissingTrackIDPolicy: Hashable, Sendable {
        /// A typed error (``EventDecodingError/missingField(_:)``): the package's own
        /// writers always send one.
        case refuse
        /// An identifier derived from the record's content (FNV-1a of its compact
        /// JSON, 53 bits), so a record resent unchanged deduplicates — what a collector
        /// accepting other clients does.
        case deriveFromContent
    }

    /// Creates a decoder.
    public init(parser: JSONParser = JSONParser(), dateOffsetSeconds: Int = 0, recognizesDates: Bool = true) {
        self.parser = parser
        self.dateOffsetSeconds = dateOffsetSeconds
        self.recognizesDates = recognizesDates
    }

    /// Decodes one event from JSON text.
    public func decodeEvent(from bytes: some Collection<UInt8>) throws(EventDecodingError) -> Event {
        try event(from: try parse(bytes))
    }

    /// Decodes one event from JSON text.
    public func decodeEvent(from text: String) throws(EventDecodingError) -> Event {
        try decodeEvent(from: Array(text.utf8))
    }

    /// Decodes a batch written as a JSON array of events.
    public func decodeBatch(from bytes: some Collection<UInt8>) throws(EventDecodingError) -> [Event] {
        let document = try parse(bytes)
        guard case .array(let elements) = document else {
            throw .wrongType(field: "(batch)", expected: "array", found: document.typeName)
        }
        var events: [Event] = []
        events.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do {
                events.append(try event(from: element))
            } catch {
                throw .element(index: index, error)
            }
        }
        return events
    }

    /// Decodes NDJSON: one event per line. Blank lines (including a final newline) are
    /// skipped; a `\r` before `\n` is allowed. Errors name the line, counted from 1.
    public func decodeNDJSON(from bytes: some Collection<UInt8>) throws(EventDecodingError) -> [Event] {
        var events: [Event] = []
        var lineNumber = 0
        for line in Array(bytes).split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            var content = line[...]
            if content.last == 0x0D { content = content.dropLast() }
            if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            do {
                events.append(try decodeEvent(from: content))
            } catch {
                throw .element(index: lineNumber, error)
            }
        }
        return events
    }

    // MARK: Mapping

    private func parse(_ bytes: some Collection<UInt8>) throws(EventDecodingError) -> JSONValue {
        do {
            return try parser.parse(bytes)
        } catch {
            throw .syntax(error)
        }
    }

    /// Maps a parsed JSON value to an event.
    public func event(from value: JSONValue) throws(EventDecodingError) -> Event {
        let fields = try object(value, field: "")
        let nameText = try string(try require(fields, "event", in: ""), field: "event")
        guard let name = EventName(rawValue: nameText) else {
            let reason: String
            do {
                try PropertyRules.standard.checkName(nameText)
                reason = "not a valid event name"
            } catch {
                reason = error.description
            }
            throw .invalidValue(field: "event", reason: reason)
        }
        let time = try integer(try require(fields, "time", in: ""), field: "time")
        let properties = try self.properties(try require(fields, "properties", in: ""))
        let type = try string(try require(fields, "type", in: ""), field: "type")
        let distinctID = try string(try require(fields, "distinct_id", in: ""), field: "distinct_id")
        let anonymousID = try fields["anonymous_id"].map { (v) throws(EventDecodingError) in try string(v, field: "anonymous_id") }
        let loginID = try fields["login_id"].map { (v) throws(EventDecodingError) in try string(v, field: "login_id") }
        let library = try self.library(try require(fields, "lib", in: ""))
        let id: EventID
        if fields["_track_id"] == nil, missingTrackID == .deriveFromContent {
            id = EventID(truncatingBits: 0)
        } else {
            let rawID = try integer(try require(fields, "_track_id", in: ""), field: "_track_id")
            guard let given = EventID(rawValue: rawID) else {
                throw .invalidValue(field: "_track_id", reason: "\(rawID) is negative")
            }
            id = given
        }
        let event = Event(
            id: id,
            name: name,
            time: Timestamp(millisecondsSince1970: time),
            identity: Identity(distinctID: distinctID, anonymousID: anonymousID, loginID: loginID),
            library: library,
            properties: properties,
            type: RecordType(rawValue: type)
        )
        guard fields["_track_id"] == nil, missingTrackID == .deriveFromContent else { return event }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in EventJSONEncoder(layout: .compact, dateOffsetSeconds: dateOffsetSeconds).encode(event) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        var derived = event
        derived.id = EventID(truncatingBits: hash)
        return derived
    }

    private func library(_ value: JSONValue) throws(EventDecodingError) -> LibraryInfo {
        let fields = try object(value, field: "lib")
        let name = try string(try require(fields, "$lib", in: "lib"), field: "lib.$lib")
        let version = try string(try require(fields, "$lib_version", in: "lib"), field: "lib.$lib_version")
        let method = try string(try require(fields, "$lib_method", in: "lib"), field: "lib.$lib_method")
        let appVersion = try fields["$app_version"].map { (v) throws(EventDecodingError) in
            try string(v, field: "lib.$app_version")
        }
        return LibraryInfo(name: name, version: version, method: LibraryMethod(rawValue: method), appVersion: appVersion)
    }

    /// Properties from a JSON object, read as an event's `properties` are: strings
    /// (dates when written as the wire format writes them), integers, numbers,
    /// booleans and arrays of strings; anything else, or a key given twice, is a typed
    /// error.
    public func decodeProperties(from bytes: some Collection<UInt8>) throws(EventDecodingError) -> Properties {
        try properties(try parse(bytes))
    }

    /// Properties from a parsed JSON object, under the same rules.
    public func decodeProperties(from value: JSONValue) throws(EventDecodingError) -> Properties {
        try properties(value)
    }

    private func properties(_ value: JSONValue) throws(EventDecodingError) -> Properties {
        guard case .object(let members) = value else {
            throw .wrongType(field: "properties", expected: "object", found: value.typeName)
        }
        var properties = Properties()
        for member in members {
            let field = "properties.\(member.key)"
            let decoded: PropertyValue
            switch member.value {
            case .string(let text): decoded = dateValue(text).map(PropertyValue.date) ?? .string(text)
            case .integer(let number): decoded = .integer(number)
            case .number(let number): decoded = .number(number)
            case .bool(let flag): decoded = .bool(flag)
            case .array(let elements):
                var list: [String] = []
                list.reserveCapacity(elements.count)
                for (index, element) in elements.enumerated() {
                    guard case .string(let text) = element else {
                        throw .wrongType(field: "\(field)[\(index)]", expected: "string", found: element.typeName)
                    }
                    list.append(text)
                }
                decoded = .strings(list)
            case .null, .object:
                throw .wrongType(
                    field: field, expected: "string, number, bool or list of strings", found: member.value.typeName)
            }
            if properties.updateValue(decoded, forKey: member.key) != nil {
                throw .duplicateKey(field: field)
            }
        }
        return properties
    }

    /// The instant named by `text` if it is exactly `yyyy-MM-dd HH:mm:ss.SSS` and a
    /// real calendar date.
    func dateValue(_ text: String) -> Timestamp? {
        guard recognizesDates, text.utf8.count == 23 else { return nil }
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20, bytes[13] == 0x3A, bytes[16] == 0x3A,
              bytes[19] == 0x2E,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              let millisecond = number(20..<23)
        else { return nil }
        let civil = CivilTime(
            year: Int64(year), month: month, day: day, hour: hour, minute: minute, second: second,
            millisecond: millisecond)
        return civil.timestamp(offsetSeconds: dateOffsetSeconds)
    }

    // MARK: Field access

    private func object(_ value: JSONValue, field: String) throws(EventDecodingError) -> [String: JSONValue] {
        guard case .object(let members) = value else {
            throw .wrongType(field: field.isEmpty ? "(event)" : field, expected: "object", found: value.typeName)
        }
        var fields: [String: JSONValue] = [:]
        for member in members where fields.updateValue(member.value, forKey: member.key) != nil {
            throw .duplicateKey(field: field.isEmpty ? member.key : "\(field).\(member.key)")
        }
        return fields
    }

    private func require(_ fields: [String: JSONValue], _ key: String, in parent: String) throws(EventDecodingError) -> JSONValue {
        guard let value = fields[key] else { throw .missingField(parent.isEmpty ? key : "\(parent).\(key)") }
        return value
    }

    private func string(_ value: JSONValue, field: String) throws(EventDecodingError) -> String {
        guard case .string(let text) = value else {
            throw .wrongType(field: field, expected: "string", found: value.typeName)
        }
        return text
    }

    private func integer(_ value: JSONValue, field: String) throws(EventDecodingError) -> Int64 {
        guard case .integer(let number) = value else {
            throw .wrongType(field: field, expected: "integer", found: value.typeName)
        }
        return number
    }
}
