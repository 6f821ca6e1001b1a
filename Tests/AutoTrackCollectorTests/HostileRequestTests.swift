import AutoTrackCollector
import AutoTrackEvents
import AutoTrackSerialization
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Sends raw bytes to the collector and returns the status code and body of its
/// answer (status 0 when it closed without answering).
func rawRequest(_ bytes: [UInt8], port: Int, shutdownWrite: Bool = true, readTimeout: Int = 10) -> (status: Int, body: String) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { return (-1, "connect failed") }
    var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var sent = 0
    while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if count <= 0 { break }
        sent += count
    }
    if shutdownWrite { shutdown(descriptor, Int32(SHUT_WR)) }
    var response: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        response += chunk[0..<count]
    }
    let text = String(decoding: response, as: UTF8.self)
    let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    return (status, body)
}

func post(_ body: [UInt8], contentType: String = "application/x-www-form-urlencoded", extraHeaders: String = "") -> [UInt8] {
    Array("POST /sa HTTP/1.1\r\nHost: x\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\(extraHeaders)\r\n".utf8) + body
}

@Suite("The local collector against hostile requests: never a crash, every bad body a 4xx with a reason")
struct HostileRequestTests {
    static func event(_ id: Int64, name: String = "buy") -> Event {
        Event(id: EventID(rawValue: id)!, name: EventName(rawValue: name)!, time: Timestamp(millisecondsSince1970: 1), identity: .anonymous("d"),
              properties: ["n": .integer(id)])
    }

    static func formBody(_ fields: String) -> [UInt8] { Array(fields.utf8) }

    /// Base64 of gzip of `json`, form-encoded.
    static func packed(_ json: String, gzip: Bool = true) throws -> String {
        let bytes = Array(json.utf8)
        let data = gzip ? try Gzip.compress(bytes) : bytes
        var encoded: [UInt8] = []
        FormEncoding.encode(Base64.encode(data), into: &encoded)
        return String(decoding: encoded, as: UTF8.self)
    }

    static let validJSON = String(decoding: EventJSONEncoder().encodeBatch([event(1)]), as: UTF8.self)

    /// Requests, each with the status it must get.
    static func corpus() throws -> [(String, [UInt8], Int)] {
        let bomb = try Gzip.compress([UInt8](repeating: 0x20, count: 40 << 20))
        var bombField: [UInt8] = []
        FormEncoding.encode(Base64.encode(bomb), into: &bombField)
        return [
            ("negative length", Array("POST /sa HTTP/1.1\r\nContent-Length: -1\r\n\r\n".utf8), 400),
            ("huge length", Array("POST /sa HTTP/1.1\r\nContent-Length: 9223372036854775807\r\n\r\n".utf8), 400),
            ("empty length", Array("POST /sa HTTP/1.1\r\nContent-Length: \r\n\r\n".utf8), 400),
            ("length past the limit", Array("POST /sa HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n".utf8), 413),
            ("no length", Array("POST /sa HTTP/1.1\r\nHost: x\r\n\r\n".utf8), 411),
            ("two lengths", Array("POST /sa HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx".utf8), 411),
            ("chunked", Array("POST /sa HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".utf8), 411),
            ("malformed request line", Array("HELLO\r\n\r\n".utf8), 400),
            ("header without colon", Array("POST /sa HTTP/1.1\r\nnonsense\r\n\r\n".utf8), 400),
            ("huge headers", Array("POST /sa HTTP/1.1\r\nX-Pad: \(String(repeating: "a", count: 64 << 10))\r\n\r\n".utf8), 431),
            ("garbage form body", post(formBody("%%%&&&===")), 400),
            ("no data field", post(formBody("gzip=1&crc=3")), 400),
            ("wrong crc", post(formBody("crc=12345&gzip=1&data_list=\(try packed(validJSON))")), 400),
            ("invalid base64", post(formBody("gzip=1&data_list=%21%21%21")), 400),
            ("invalid gzip", post(formBody("gzip=1&data_list=\(try packed(validJSON, gzip: false))")), 400),
            ("gzip bomb", post(bombField.isEmpty ? [] : Array("gzip=1&data_list=".utf8) + bombField), 400),
            ("non-array JSON batch", post(Array("{\"event\":1}".utf8), contentType: "application/json"), 400),
            ("invalid JSON", post(Array("[{".utf8), contentType: "application/json"), 400),
            ("event missing fields", post(Array("[{\"event\":\"x\"}]".utf8), contentType: "application/json"), 400),
        ]
    }

    @Test("every hostile request gets its 4xx with a reason; the collector goes on answering")
    func hostileCorpus() throws {
        let collector = try LocalCollector()
        defer { collector.stop() }
        var answered = 0
        for (name, bytes, expected) in try Self.corpus() {
            let (status, body) = rawRequest(bytes, port: collector.port)
            #expect(status == expected, "\(name): \(status) \(body)")
            #expect(!body.isEmpty, "\(name): a reason")
            answered += 1
        }
        let valid = rawRequest(post(Array(Self.validJSON.utf8), contentType: "application/json"), port: collector.port)
        #expect(valid.status == 200)
        #expect(collector.uniqueEvents.count == 1)
        #expect(collector.counts.refused >= answered - 1)
        print("hostile corpus: \(answered) requests, 0 crashes; \(collector.counts)")
    }

    @Test("a client that sends nothing is dropped at the read timeout and holds no thread")
    func slowClients() throws {
        let collector = try LocalCollector(limits: LocalCollector.Limits(readTimeoutSeconds: 0.5))
        defer { collector.stop() }
        let start = Date()
        let (status, _) = rawRequest(Array("POST /sa HTTP/1.1\r\n".utf8), port: collector.port, shutdownWrite: false, readTimeout: 5)
        #expect(status == 0, "closed without an answer")
        #expect(Date().timeIntervalSince(start) < 4, "at the collector's timeout, not the client's")
        #expect(rawRequest(post(Array(Self.validJSON.utf8), contentType: "application/json"), port: collector.port).status == 200)
    }

    @Test("the Sensors protocol as clients send it: data or data_list, gzip 1 or 0, crc optional, no _track_id")
    func sensorsVariants() throws {
        let collector = try LocalCollector()
        defer { collector.stop() }
        let single = "{\"type\":\"track\",\"time\":1700000000000,\"distinct_id\":\"u1\",\"properties\":{\"$lib\":\"python\",\"n\":1},"
            + "\"lib\":{\"$lib\":\"python\",\"$lib_version\":\"1.11.0\",\"$lib_method\":\"code\",\"$lib_detail\":\"x\"},\"event\":\"Buy\"}"
        #expect(rawRequest(post(Self.formBody("data=\(try Self.packed(single))&gzip=1")), port: collector.port).status == 200)
        #expect(rawRequest(post(Self.formBody("data_list=\(try Self.packed("[\(single)]", gzip: false))&gzip=0")), port: collector.port).status == 200)
        let encoded = try SensorsFormBody.encode([Self.event(7)]).body
        #expect(rawRequest(post(encoded), port: collector.port).status == 200)
        #expect(collector.events.count == 3)
        #expect(collector.uniqueEvents.count == 2, "the same record sent twice without _track_id is one event")
        #expect(collector.counts.duplicates == 1)
    }
}
