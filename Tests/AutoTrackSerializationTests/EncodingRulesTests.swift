import AutoTrackEvents
import AutoTrackSerialization
import Foundation
import Testing

@Suite("Encoding rules: escaping, numbers, dates, batches")
struct EncodingRulesTests {
    static func encodedProperty(_ value: PropertyValue, offset: Int = 0) -> String {
        let bytes = EventJSONEncoder(dateOffsetSeconds: offset).encode(["v": value] as Properties)
        let text = String(decoding: bytes, as: UTF8.self)
        return String(text.dropFirst(5).dropLast()) // strip {"v": and }
    }

    @Test("quote, backslash and every control character are escaped", arguments: 0..<0x20)
    func controlCharacters(code: Int) throws {
        let text = "a" + String(Character(Unicode.Scalar(UInt8(code)))) + "b"
        let encoded = Self.encodedProperty(.string(text))
        let short: [Int: String] = [0x08: "\\b", 0x0C: "\\f", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"]
        let expected = short[code] ?? String(format: "\\u%04x", code)
        #expect(encoded == "\"a\(expected)b\"")
        let parsed = try Fixtures.foundationParse(Array(encoded.utf8)) as? String
        #expect(parsed == text)
    }

    @Test("escaping finds a special character at every position of strings up to 40 bytes, among ASCII and multi-byte text")
    func everyPosition() {
        /// The escaping rule spelled out, one scalar at a time.
        func reference(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x22: out += "\\\""
                case 0x5C: out += "\\\\"
                case 0x08: out += "\\b"
                case 0x0C: out += "\\f"
                case 0x0A: out += "\\n"
                case 0x0D: out += "\\r"
                case 0x09: out += "\\t"
                case 0..<0x20: out += String(format: "\\u%04x", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let fillers = ["a", "é", "中", "\u{7F}", " "]
        let specials = ["\"", "\\", "\u{0}", "\n", "\u{1F}", "\t"]
        for filler in fillers {
            for length in 0...40 {
                let plain = String(repeating: filler, count: length)
                #expect(Self.encodedProperty(.string(plain)) == reference(plain))
                for position in 0...length {
                    for special in specials {
                        var characters = Array(plain)
                        characters.insert(Character(special), at: position)
                        let text = String(characters)
                        #expect(Self.encodedProperty(.string(text)) == reference(text), "\(filler) × \(length), \(special.debugDescription) at \(position)")
                    }
                }
            }
        }
    }

    @Test("quote, backslash and slash", arguments: [
        ("\"", "\"\\\"\""), ("\\", "\"\\\\\""), ("/", "\"/\""), ("\u{7F}", "\"\u{7F}\""), ("\u{2028}", "\"\u{2028}\""),
    ])
    func specialCharacters(text: String, expected: String) {
        #expect(Self.encodedProperty(.string(text)) == expected)
    }

    @Test("integers are exact at the extremes", arguments: [Int64.min, Int64.min + 1, -1, 0, 9, 10, 1_648_801_408_348, Int64.max])
    func integers(value: Int64) throws {
        #expect(Self.encodedProperty(.integer(value)) == String(value))
        let event = Fixtures.event(properties: ["v": .integer(value)])
        #expect(try EventJSONDecoder().decodeEvent(from: EventJSONEncoder().encode(event)) == event)
    }

    @Test("doubles use the shortest round-trip text", arguments: [
        (0.1, "0.1"), (1.0, "1.0"), (-0.0, "-0.0"), (1e-5, "1e-05"), (123456.789, "123456.789"),
        (1e16, "1e+16"), (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
        (Double.leastNonzeroMagnitude, "5e-324"), (0.30000000000000004, "0.30000000000000004"),
    ])
    func doubles(value: Double, expected: String) throws {
        let text = Self.encodedProperty(.number(value))
        #expect(text == expected)
        #expect(Double(text) == value, "strtod reads the text back exactly")
        let parsed = try #require(try Fixtures.foundationParse(Array(text.utf8)) as? NSNumber)
        #expect(FoundationComparison.mismatch(parsed, NSNumber(value: value)) == nil)
        let event = Fixtures.event(properties: ["v": .number(value)])
        #expect(try EventJSONDecoder().decodeEvent(from: EventJSONEncoder().encode(event)) == event, "our decoder is exact")
    }

    @Test("dates are yyyy-MM-dd HH:mm:ss.SSS in the configured zone", arguments: [
        (Int64(1_648_801_408_348), 0, "2022-04-01 08:23:28.348"),
        (1_648_801_408_348, 8 * 3600, "2022-04-01 16:23:28.348"),
        (1_648_801_408_348, -5 * 3600 - 1800, "2022-04-01 02:53:28.348"),
        (0, 0, "1970-01-01 00:00:00.000"),
        (-1, 0, "1969-12-31 23:59:59.999"),
        (951_782_400_000, 0, "2000-02-29 00:00:00.000"),
        (Timestamp.earliestPropertyDate.millisecondsSince1970, 0, "0001-01-02 00:00:00.000"),
        (Timestamp.latestPropertyDate.millisecondsSince1970, 0, "9999-12-30 23:59:59.999"),
    ])
    func dates(milliseconds: Int64, offset: Int, expected: String) {
        #expect(Self.encodedProperty(.date(Timestamp(millisecondsSince1970: milliseconds)), offset: offset) == "\"\(expected)\"")
    }

    @Test("dates before the 1582 reform use the proleptic Gregorian calendar", arguments: [
        (Int64(-62_135_596_800_000), "0001-01-01 00:00:00.000"),
        (-62_035_848_000_000, "0004-02-29 12:00:00.000"),
        (-12_220_156_801_000, "1582-10-04 23:59:59.000"),
        (-12_219_292_800_000, "1582-10-15 00:00:00.000"),
        (253_402_300_799_000, "9999-12-31 23:59:59.000"),
    ])
    func prolepticDates(milliseconds: Int64, expected: String) throws {
        let time = Timestamp(millisecondsSince1970: milliseconds)
        #expect(Self.encodedProperty(.date(time)) == "\"\(expected)\"")
        let event = Fixtures.event(properties: ["d": .date(time)])
        #expect(try EventJSONDecoder().decodeEvent(from: EventJSONEncoder().encode(event)) == event)
    }

    /// Foundation's `.gregorian` calendar switches to Julian dates before 15 October
    /// 1582, so the comparison starts in 1583; earlier dates are pinned above.
    @Test("dates agree with Foundation's calendar on random instants since 1583")
    func datesAgreeWithFoundation() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: -12_212_553_600_000...253_000_000_000_000, using: &random)
            let offset = Int.random(in: -14...14, using: &random) * 3600
            let time = Timestamp(millisecondsSince1970: milliseconds)
            let ours = Self.encodedProperty(.date(time), offset: offset)
            #expect(ours == "\"\(Fixtures.formatDate(time, offsetSeconds: offset))\"")
        }
    }

    @Test("extreme timestamps never trap, even outside the property date range")
    func extremeDates() {
        for milliseconds in [Int64.min, Int64.max, -62_200_000_000_000] {
            let text = Self.encodedProperty(.date(Timestamp(millisecondsSince1970: milliseconds)), offset: 50_400)
            #expect(text.hasPrefix("\""))
        }
    }

    @Test("empty containers are written compactly in both layouts")
    func emptyContainers() {
        let event = Fixtures.event(properties: ["tags": .strings([])])
        let pretty = EventJSONEncoder(layout: .pretty).encodeToString(event)
        #expect(pretty.contains("\"tags\" : []"))
        let bare = Fixtures.event(properties: [:])
        #expect(EventJSONEncoder().encodeToString(bare).contains("\"properties\":{}"))
        #expect(EventJSONEncoder(layout: .pretty).encodeToString(bare).contains("\"properties\" : {}"))
    }

    @Test("every event and batch parses with JSONSerialization to the same values")
    func foundationAgrees() throws {
        let events = RandomEvents.make(seed: 99, count: 200)
        for layout in [EventJSONEncoder.Layout.compact, .pretty] {
            let encoder = EventJSONEncoder(layout: layout, dateOffsetSeconds: 3600)
            for event in events {
                let parsed = try Fixtures.foundationParse(encoder.encode(event))
                let expected = Fixtures.foundationValue(of: event, dateOffsetSeconds: 3600)
                #expect(FoundationComparison.mismatch(parsed, expected) == nil)
            }
            let batch = try Fixtures.foundationParse(encoder.encodeBatch(events))
            let expected = events.map { Fixtures.foundationValue(of: $0, dateOffsetSeconds: 3600) } as NSArray
            #expect(FoundationComparison.mismatch(batch, expected) == nil)
        }
    }

    @Test("batches as a JSON array and as NDJSON decode back in order")
    func batches() throws {
        let events = RandomEvents.make(seed: 5, count: 50)
        let decoder = EventJSONDecoder()
        for layout in [EventJSONEncoder.Layout.compact, .pretty] {
            let encoder = EventJSONEncoder(layout: layout)
            #expect(try decoder.decodeBatch(from: encoder.encodeBatch(events)) == events)
            let ndjson = encoder.encodeNDJSON(events)
            #expect(ndjson.filter { $0 == 0x0A }.count == events.count, "one line per event, even in pretty mode")
            #expect(try decoder.decodeNDJSON(from: ndjson) == events)
        }
        #expect(EventJSONEncoder().encodeBatch([Event]()) == Array("[]".utf8))
        #expect(try decoder.decodeBatch(from: Array("[]".utf8)).isEmpty)
        #expect(try decoder.decodeNDJSON(from: [UInt8]()).isEmpty)
    }

    @Test("NDJSON tolerates CRLF and blank lines and names the failing line")
    func ndjsonLines() throws {
        let events = RandomEvents.make(seed: 6, count: 2)
        let lines = events.map { EventJSONEncoder().encodeToString($0) }
        let text = "\(lines[0])\r\n\n  \n\(lines[1])\n"
        #expect(try EventJSONDecoder().decodeNDJSON(from: Array(text.utf8)) == events)
        let broken = "\(lines[0])\n{\"event\":1}\n"
        #expect(throws: EventDecodingError.element(index: 2, .wrongType(field: "event", expected: "string", found: "integer"))) {
            try EventJSONDecoder().decodeNDJSON(from: Array(broken.utf8))
        }
    }
}
