import AutoTrackEvents
import AutoTrackSerialization
import CZlib
import Foundation
import Testing

@Suite("Collector wire bodies: the Sensors form and plain JSON")
struct WireFormatTests {
    static let events = RandomEvents.make(seed: 12, count: 40)

    @Test("Java String.hashCode matches hand-computed values")
    func javaHash() {
        #expect(JavaStringHash.hash("") == 0)
        #expect(JavaStringHash.hash("a") == 97)
        #expect(JavaStringHash.hash("ab") == 97 * 31 + 98)
        // "hello" in Java is 99162322; "Hello, World" wraps to -505841268.
        #expect(JavaStringHash.hash("hello") == 99_162_322)
        #expect(JavaStringHash.hash("Hello, World") == -505_841_268)
        #expect(JavaStringHash.hash(ascii: Array("hello".utf8)) == 99_162_322)
        // UTF-16 units, not bytes: "é" is one unit (233), "😀" two surrogates.
        #expect(JavaStringHash.hash("é") == 233)
        #expect(JavaStringHash.hash("😀") == 0xD83D &* 31 &+ 0xDE00)
    }

    @Test("the body has the documented shape and its crc is the hash of the Base64 text")
    func shape() throws {
        let (body, crc) = try SensorsFormBody.encode(Self.events)
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.hasPrefix("crc=\(crc)&gzip=1&data_list="))
        let encoded = String(text.split(separator: "&")[2].dropFirst("data_list=".count))
        #expect(!encoded.contains("+") && !encoded.contains("/") && !encoded.contains("="))
        let base64 = try #require(encoded.removingPercentEncoding)
        // Hand-computed crc: h = 31·h + c over the Base64 text, wrapping int32.
        var expected: Int32 = 0
        for unit in base64.utf16 { expected = expected &* 31 &+ Int32(unit) }
        #expect(crc == expected)
        #expect(String(crc) == String(text.split(separator: "&")[0].dropFirst(4)))
    }

    @Test("our decoder reads the body back to the same batch")
    func decodeBack() throws {
        let (body, _) = try SensorsFormBody.encode(Self.events)
        #expect(try SensorsFormBody.decode(body) == Self.events)
        #expect(try CollectorWireFormat.sensorsForm.events(from: body) == Self.events)
    }

    @Test("Foundation Base64 plus system zlib inflate give the same JSON array")
    func independentInflate() throws {
        let (body, _) = try SensorsFormBody.encode(Self.events)
        let text = String(decoding: body, as: UTF8.self)
        let encoded = String(text.split(separator: "&")[2].dropFirst("data_list=".count))
        let base64 = try #require(encoded.removingPercentEncoding)
        let data = try #require(Data(base64Encoded: base64))
        let json = try inflateWithZlib(Array(data))
        #expect(json == EventJSONEncoder().encodeBatch(Self.events))
        let parsed = try Fixtures.foundationParse(json)
        #expect(FoundationComparison.mismatch(parsed, Self.events.map { Fixtures.foundationValue(of: $0) } as NSArray) == nil)
    }

    @Test("a damaged body is refused with the crc mismatch")
    func damaged() throws {
        let encoded = try SensorsFormBody.encode(Self.events)
        var body = encoded.body
        let crc = encoded.crc
        let isLowercaseBeforeZ: (UInt8) -> Bool = { (0x61...0x79).contains($0) }
        let index = try #require(body.lastIndex(where: isLowercaseBeforeZ))
        body[index] += 1
        do throws(WireFormatError) {
            _ = try SensorsFormBody.decode(body)
            Issue.record("damaged body accepted")
        } catch {
            guard case .crcMismatch(let declared, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(declared == crc)
        }
    }

    @Test("form errors are typed", arguments: [
        ("crc=1&gzip=1", WireFormatError.missingField("data_list")),
        ("gzip=1&data=AAAA&data_list=AAAA", .invalidField("data", reason: "a body carries data or data_list, not both")),
        ("crc=x&gzip=1&data_list=AAAA", .invalidField("crc", reason: "not a 32-bit decimal integer")),
        ("crc=99999999999&data_list=AAAA", .invalidField("crc", reason: "not a 32-bit decimal integer")),
        ("crc=1&gzip=2&data_list=AAAA", .invalidField("gzip", reason: "'2' is neither 0 nor 1")),
        ("crc=1&crc=1&data_list=AAAA", .duplicateField("crc")),
        ("crc=1&data_list=%G1", .invalidPercentEncoding(offset: 0)),
        ("crc=\(JavaStringHash.hash("AAA"))&data_list=AAA", .invalidBase64(offset: 3)),
        ("crc=\(JavaStringHash.hash("A*AA"))&data_list=A*AA", .invalidBase64(offset: 1)),
        ("crc=\(JavaStringHash.hash("AAAA"))&gzip=1&data_list=AAAA", .compression(.corruptData("incorrect header check"))),
    ])
    func formErrors(body: String, expected: WireFormatError) {
        #expect(throws: expected) { try SensorsFormBody.decode(Array(body.utf8)) }
    }

    @Test("gzip=0 carries uncompressed Base64 JSON")
    func uncompressed() throws {
        let json = EventJSONEncoder().encodeBatch(Self.events)
        let base64 = Base64.encode(json)
        var body = Array("crc=\(JavaStringHash.hash(ascii: base64))&gzip=0&data_list=".utf8)
        FormEncoding.encode(base64, into: &body)
        #expect(try SensorsFormBody.decode(body) == Self.events)
    }

    @Test("plain JSON batch bodies round-trip and name their content type")
    func jsonBatch() throws {
        let body = try CollectorWireFormat.jsonBatch.body(for: Self.events)
        #expect(body == EventJSONEncoder().encodeBatch(Self.events))
        #expect(try CollectorWireFormat.jsonBatch.events(from: body) == Self.events)
        #expect(CollectorWireFormat.jsonBatch.contentType == "application/json")
        #expect(CollectorWireFormat.sensorsForm.contentType == "application/x-www-form-urlencoded")
    }

    @Test("Base64 agrees with Foundation for every length 0…300")
    func base64() throws {
        var random = SplitMix64(seed: 1)
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let ours = Base64.encode(bytes)
            #expect(String(decoding: ours, as: UTF8.self) == Data(bytes).base64EncodedString())
            #expect(try Base64.decode(ours) == bytes)
        }
        #expect(throws: WireFormatError.invalidBase64(offset: 1)) { try Base64.decode(Array("QR==".utf8)) }
        #expect(throws: WireFormatError.invalidBase64(offset: 1)) { try Base64.decode(Array("Q=R=".utf8)) }
    }

    @Test("gzip round-trips, refuses truncation and bombs")
    func gzip() throws {
        let input = Array(String(repeating: "全埋点 autotrack ", count: 5000).utf8)
        let compressed = try Gzip.compress(input)
        #expect(compressed.count < input.count / 10)
        #expect(Array(compressed.prefix(2)) == [0x1F, 0x8B])
        #expect(try Gzip.decompress(compressed) == input)
        #expect(throws: GzipError.truncated) { try Gzip.decompress(Array(compressed.dropLast(10))) }
        #expect(throws: GzipError.truncated) { try Gzip.decompress([]) }
        #expect(throws: GzipError.trailingData(count: 3)) { try Gzip.decompress(compressed + [1, 2, 3]) }
        #expect(throws: GzipError.outputTooLarge(limit: 1000)) { try Gzip.decompress(compressed, maximumSize: 1000) }
    }

    @Test("form encoding escapes everything but the unreserved set")
    func formEncoding() throws {
        var output: [UInt8] = []
        FormEncoding.encode(Array("a+b/c=d e~*-._é".utf8), into: &output)
        #expect(String(decoding: output, as: UTF8.self) == "a%2Bb%2Fc%3Dd+e%7E*-._%C3%A9")
        #expect(try FormEncoding.decode(output) == Array("a+b/c=d e~*-._é".utf8))
    }

    /// Inflates with zlib directly (gzip framing), independent of `Gzip`.
    func inflateWithZlib(_ input: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        #expect(inflateInit2_(&stream, 31, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: 16 << 20)
        var source = input
        let code = source.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                return inflate(&stream, Z_FINISH)
            }
        }
        #expect(code == Z_STREAM_END)
        return Array(output.prefix(Int(stream.total_out)))
    }
}
