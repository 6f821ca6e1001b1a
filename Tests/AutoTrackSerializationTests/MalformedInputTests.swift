import AutoTrackEvents
import AutoTrackSerialization
import Foundation
import Testing

/// Hostile and broken input: each case must produce its typed error, never a crash.
@Suite("Malformed input yields typed errors")
struct MalformedInputTests {
    static let valid = EventJSONEncoder().encodeToString(Fixtures.event(properties: ["a": 1]))

    /// `valid` with one substring replaced.
    static func mutate(_ find: String, _ replace: String) -> [UInt8] {
        Array(valid.replacingOccurrences(of: find, with: replace).utf8)
    }

    typealias Reason = JSONSyntaxError.Reason

    static let syntaxCases: [(String, [UInt8], Reason)] = [
        ("empty", [], .emptyInput),
        ("whitespace only", Array(" \n\t ".utf8), .emptyInput),
        ("truncated object", Array(valid.utf8.dropLast()), .unexpectedEndOfInput),
        ("truncated mid-string", Array(valid.utf8.prefix(12)), .unexpectedEndOfInput),
        ("truncated after colon", Array("{\"a\":".utf8), .unexpectedEndOfInput),
        ("truncated number", Array("-".utf8), .unexpectedEndOfInput),
        ("truncated escape", Array("\"\\".utf8), .unexpectedEndOfInput),
        ("truncated unicode escape", Array("\"\\u12".utf8), .unexpectedEndOfInput),
        ("trailing garbage", Array((valid + "x").utf8), .trailingCharacters),
        ("two documents", Array((valid + valid).utf8), .trailingCharacters),
        ("trailing comma in object", Array("{\"a\":1,}".utf8), .unexpectedByte(0x7D, expected: "a quoted key")),
        ("trailing comma in array", Array("[1,]".utf8), .unexpectedByte(0x5D, expected: "a value")),
        ("missing colon", Array("{\"a\" 1}".utf8), .unexpectedByte(0x31, expected: "':'")),
        ("missing comma", Array("[1 2]".utf8), .unexpectedByte(0x32, expected: "',' or ']'")),
        ("single quotes", Array("{'a':1}".utf8), .unexpectedByte(0x27, expected: "a quoted key")),
        ("unquoted key", Array("{a:1}".utf8), .unexpectedByte(0x61, expected: "a quoted key")),
        ("comment", Array("// hi\n{}".utf8), .unexpectedByte(0x2F, expected: "a value")),
        ("NaN literal", Array("[NaN]".utf8), .unexpectedByte(0x4E, expected: "a value")),
        ("Infinity literal", Array("[Infinity]".utf8), .unexpectedByte(0x49, expected: "a value")),
        ("misspelt true", Array("[tru]".utf8), .invalidLiteral),
        ("misspelt null", Array("nul".utf8), .unexpectedEndOfInput),
        ("leading zero", Array("[012]".utf8), .invalidNumber),
        ("bare minus", Array("[-]".utf8), .invalidNumber),
        ("dot without digits", Array("[1.]".utf8), .invalidNumber),
        ("leading dot", Array("[.5]".utf8), .unexpectedByte(0x2E, expected: "a value")),
        ("empty exponent", Array("[1e]".utf8), .invalidNumber),
        ("plus sign", Array("[+1]".utf8), .unexpectedByte(0x2B, expected: "a value")),
        ("integer overflow", Array("[9223372036854775808]".utf8), .numberOutOfRange),
        ("negative integer overflow", Array("[-9223372036854775809]".utf8), .numberOutOfRange),
        ("huge integer", Array("[123456789012345678901234567890]".utf8), .numberOutOfRange),
        ("double overflow", Array("[1e400]".utf8), .numberOutOfRange),
        ("negative double overflow", Array("[-1.5e309]".utf8), .numberOutOfRange),
        ("invalid UTF-8 byte", [0x22, 0xFF, 0x22], .invalidUTF8),
        ("overlong UTF-8", [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8),
        ("UTF-8 surrogate", [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8),
        ("truncated UTF-8 sequence", [0x22, 0xE4, 0xB8, 0x22], .invalidUTF8),
        ("invalid UTF-8 after escape", [0x22, 0x5C, 0x6E, 0xFE, 0x22], .invalidUTF8),
        ("code point above U+10FFFF", [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8),
        ("invalid escape", Array("\"\\x\"".utf8), .invalidEscape(0x78)),
        ("bad hex in escape", Array("\"\\u12G4\"".utf8), .invalidUnicodeEscape),
        ("lone high surrogate", Array("\"\\ud83d\"".utf8), .invalidUnicodeEscape),
        ("lone low surrogate", Array("\"\\ude00\"".utf8), .invalidUnicodeEscape),
        ("high surrogate then non-surrogate", Array("\"\\ud83d\\u0041\"".utf8), .invalidUnicodeEscape),
        ("raw newline in string", Array("\"a\nb\"".utf8), .unescapedControlCharacter(0x0A)),
        ("raw NUL in string", [0x22, 0x00, 0x22], .unescapedControlCharacter(0x00)),
        ("nesting bomb of arrays", Array(String(repeating: "[", count: 100_000).utf8), .nestingTooDeep(limit: 64)),
        ("nesting bomb of objects", Array(String(repeating: "{\"a\":", count: 10_000).utf8), .nestingTooDeep(limit: 64)),
        ("unclosed array", Array("[1,2".utf8), .unexpectedEndOfInput),
        ("byte-order mark", [0xEF, 0xBB, 0xBF] + Array("{}".utf8), .unexpectedByte(0xEF, expected: "a value")),
    ]

    @Test("syntax errors", arguments: syntaxCases)
    func syntax(label: String, input: [UInt8], reason: Reason) {
        do throws(EventDecodingError) {
            _ = try EventJSONDecoder().decodeEvent(from: input)
            Issue.record("\(label): decoded without error")
        } catch {
            guard case .syntax(let syntaxError) = error else {
                Issue.record("\(label): \(error)")
                return
            }
            #expect(syntaxError.reason == reason, "\(label)")
            #expect(syntaxError.offset >= 0 && syntaxError.offset <= input.count)
        }
    }

    static let schemaCases: [(String, [UInt8], EventDecodingError)] = [
        ("top level is an array", Array("[]".utf8), .wrongType(field: "(event)", expected: "object", found: "array")),
        ("top level is a string", Array("\"x\"".utf8), .wrongType(field: "(event)", expected: "object", found: "string")),
        ("event missing", mutate("\"event\":\"$AppClick\",", ""), .missingField("event")),
        ("time missing", mutate("\"time\":1648801408348,", ""), .missingField("time")),
        ("properties missing", mutate("\"properties\":{\"a\":1},", ""), .missingField("properties")),
        ("lib version missing", mutate("\"$lib_version\":\"1.0.0\",", ""), .missingField("lib.$lib_version")),
        ("track id missing", mutate(",\"_track_id\":1", ""), .missingField("_track_id")),
        ("event is a number", mutate("\"$AppClick\"", "7"), .wrongType(field: "event", expected: "string", found: "integer")),
        ("time is a string", mutate("1648801408348", "\"now\""), .wrongType(field: "time", expected: "integer", found: "string")),
        ("time is fractional", mutate("1648801408348", "1648801408348.5"), .wrongType(field: "time", expected: "integer", found: "number")),
        ("properties is an array", mutate("{\"a\":1}", "[1]"), .wrongType(field: "properties", expected: "object", found: "array")),
        ("property is null", mutate("{\"a\":1}", "{\"a\":null}"),
         .wrongType(field: "properties.a", expected: "string, number, bool or list of strings", found: "null")),
        ("property is an object", mutate("{\"a\":1}", "{\"a\":{}}"),
         .wrongType(field: "properties.a", expected: "string, number, bool or list of strings", found: "object")),
        ("list holds a number", mutate("{\"a\":1}", "{\"a\":[\"x\",2]}"), .wrongType(field: "properties.a[1]", expected: "string", found: "integer")),
        ("duplicate property", mutate("{\"a\":1}", "{\"a\":1,\"a\":2}"), .duplicateKey(field: "properties.a")),
        ("duplicate top-level key", mutate("\"time\":", "\"time\":1,\"time\":"), .duplicateKey(field: "time")),
        ("invalid event name", mutate("\"$AppClick\"", "\"bad name\""),
         .invalidValue(field: "event", reason: "character 3 is ' '; only letters, digits, '_' and '$' are allowed")),
        ("negative track id", mutate("\"_track_id\":1", "\"_track_id\":-1"), .invalidValue(field: "_track_id", reason: "-1 is negative")),
        ("lib is a string", mutate("\"lib\":{", "\"lib\":\"x\",\"ignored\":{"), .wrongType(field: "lib", expected: "object", found: "string")),
    ]

    @Test("schema errors", arguments: schemaCases)
    func schema(label: String, input: [UInt8], expected: EventDecodingError) {
        #expect(throws: expected, "\(label)") { try EventJSONDecoder().decodeEvent(from: input) }
    }

    @Test("unknown top-level fields are ignored")
    func unknownFields() throws {
        let input = Self.mutate("\"type\":", "\"_flush_time\":1,\"type\":")
        #expect(try EventJSONDecoder().decodeEvent(from: input) == Fixtures.event(properties: ["a": 1]))
    }

    @Test("the corpus is large enough")
    func corpusSize() {
        #expect(Self.syntaxCases.count + Self.schemaCases.count >= 40)
    }

    @Test("a deeper limit accepts deeper nesting; the limit is clamped")
    func depthLimit() throws {
        let nested = Array((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8)
        #expect(throws: JSONSyntaxError(.nestingTooDeep(limit: 64), at: 64)) { try JSONParser().parse(nested) }
        _ = try JSONParser(maximumDepth: 100).parse(nested)
        #expect(JSONParser(maximumDepth: 1_000_000).maximumDepth == JSONParser.deepestAllowed)
        #expect(JSONParser(maximumDepth: 0).maximumDepth == 1)
    }

    @Test("escapes decode: pairs, short forms, slash and NUL")
    func escapes() throws {
        let value = try JSONParser().parse("\"\\ud83d\\ude00 \\u00e9 \\/ \\b\\f\\n\\r\\t \\u0000 \\\"\\\\\"")
        #expect(value == .string("😀 é / \u{8}\u{C}\n\r\t \u{0} \"\\"))
    }

    @Test("random byte soup never traps")
    func byteSoup() {
        var random = SplitMix64(seed: 3)
        let pieces = Array("{}[]\",:0123456789-+.eEtrufalsn\\u ".utf8) + [0x00, 0xFF, 0xC3, 0xA9]
        var failures = 0
        for _ in 0..<5000 {
            let input = (0..<Int.random(in: 0...40, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            if (try? EventJSONDecoder().decodeEvent(from: input)) == nil { failures += 1 }
        }
        #expect(failures > 4900, "nearly all soup is rejected, with an error rather than a crash")
    }

    @Test("errors describe themselves")
    func descriptions() {
        #expect(JSONSyntaxError(.trailingCharacters, at: 9).description == "invalid JSON at byte 9: a complete value is followed by more text")
        #expect(EventDecodingError.missingField("lib.$lib").description == "required field 'lib.$lib' is missing")
    }
}
