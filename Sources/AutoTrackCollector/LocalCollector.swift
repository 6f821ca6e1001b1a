/// AutoTrackEvents: `Event` appears in this file's public API.
public import AutoTrackEvents
import AutoTrackSerialization
/// Foundation: `URL` appears in this file's public API.
public import Foundation
import Synchronization
import AutoTrackLocking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP collector on the loopback interface, for tests and the demo.
///
/// It speaks the Sensors protocol as real clients send it — a form body with
/// `data_list` (an array) or `data` (one event), `gzip` 1 or 0, `crc` optional but
/// checked when present — and plain JSON batches. It records every event it receives
/// (``events``, duplicates included, so tests can count resends) and keeps the
/// deduplicated stream on (`distinct_id`, `time`, `_track_id`) in ``uniqueEvents``:
/// delivery is at-least-once on the wire and exactly-once after deduplication.
///
/// It never crashes on a request: bad framing, a crc mismatch, invalid gzip, Base64 or
/// JSON get 400 with the reason in the body; oversized headers 431, bodies 413, a
/// missing length 411; headers are parsed in linear time; reads time out; connections
/// and inflated sizes are bounded (``Limits``). ``counts`` says what it did.
///
/// Faults can be injected per request to exercise a transport: answer with an error
/// status, hang past the client's timeout, drop the connection before or after storing.
public final class LocalCollector: Sendable {
    /// What to do with one request.
    public enum Behaviour: Sendable, Hashable {
        /// Decode, apply the ``Rules``, record, answer 200.
        case accept
        /// Answer this status without recording.
        case status(Int)
        /// Wait this long, then accept (a client with a shorter timeout gives up).
        case hang(seconds: Double)
        /// Close the connection without answering or recording.
        case dropConnection
        /// Record the batch, then close the connection without answering (the client
        /// cannot know it was stored).
        case storeThenDrop
    }

    /// Refusals a real collector makes on content.
    public struct Rules: Sendable, Hashable {
        /// Answer 413 to a batch of more events than this.
        public var maximumEventsPerBatch: Int?
        /// Answer 400 to a batch holding an event of one of these names (a poison event).
        public var refusedEventNames: Set<String>

        /// Creates rules; none by default.
        public init(maximumEventsPerBatch: Int? = nil, refusedEventNames: Set<String> = []) {
            self.maximumEventsPerBatch = maximumEventsPerBatch
            self.refusedEventNames = refusedEventNames
        }
    }

    /// The collector's bounds.
    public struct Limits: Sendable, Hashable {
        /// The most bytes of request line and headers (431 past it).
        public var maximumHeaderBytes: Int
        /// The largest body (413 past it).
        public var maximumBodyBytes: Int
        /// The largest decompressed body (400 past it: a gzip bomb).
        public var maximumInflatedBytes: Int
        /// Connections served at once (503 past it).
        public var maximumConnections: Int
        /// How long a read may wait for the client.
        public var readTimeoutSeconds: Double

        /// Creates limits.
        public init(
            maximumHeaderBytes: Int = 16 << 10, maximumBodyBytes: Int = 8 << 20, maximumInflatedBytes: Int = 32 << 20,
            maximumConnections: Int = 64, readTimeoutSeconds: Double = 5
        ) {
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumBodyBytes = maximumBodyBytes
            self.maximumInflatedBytes = maximumInflatedBytes
            self.maximumConnections = maximumConnections
            self.readTimeoutSeconds = readTimeoutSeconds
        }
    }

    /// What the collector has done.
    public struct Counts: Sendable, Hashable, CustomStringConvertible {
        /// Requests read.
        public var requests = 0
        /// Batches stored.
        public var batches = 0
        /// Events received, duplicates included.
        public var events = 0
        /// Events discarded as duplicates of one already stored.
        public var duplicates = 0
        /// Requests answered 4xx for their framing or content.
        public var refused = 0
        /// Connections refused at the connection limit.
        public var refusedConnections = 0

        /// `requests 3, batches 2, events 40 (0 duplicates), refused 1`.
        public var description: String {
            "requests \(requests), batches \(batches), events \(events) (\(duplicates) duplicates), refused \(refused), refused connections \(refusedConnections)"
        }
    }

    /// Chooses the behaviour for request number `n` (counting from 1).
    public typealias Script = @Sendable (_ request: Int) -> Behaviour

    private struct Key: Hashable {
        let distinctID: String
        let time: Int64
        let id: Int64
    }

    private struct Store {
        var events: [Event] = []
        var unique: [Event] = []
        var seen: Set<Key> = []
        var counts = Counts()
        var refusals: [String] = []
    }

    private let listener: Int32
    /// The port it listens on (127.0.0.1).
    public let port: Int
    /// Content refusals.
    public let rules: Rules
    /// Bounds.
    public let limits: Limits
    private let script: Script
    private let onBatch: (@Sendable ([Event]) -> Void)?
    private let store = Locked(Store())
    private let requests = Atomic<Int>(0)
    private let connections = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let decoder: EventJSONDecoder = {
        var decoder = EventJSONDecoder()
        decoder.missingTrackID = .deriveFromContent
        return decoder
    }()

    /// Starts listening on loopback `requestedPort` (0, the default, picks a free one);
    /// `onBatch` sees every batch it stores, on the connection's thread.
    public init(
        port requestedPort: UInt16 = 0, rules: Rules = Rules(), limits: Limits = Limits(),
        script: @escaping Script = { _ in .accept }, onBatch: (@Sendable ([Event]) -> Void)? = nil
    ) throws {
        self.script = script
        self.onBatch = onBatch
        self.rules = rules
        self.limits = limits
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw CollectorError.socket("socket: \(errno)") }
        var reuse: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requestedPort.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketFD, 64) == 0 else {
            close(socketFD)
            throw CollectorError.socket("bind/listen: \(errno)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        listener = socketFD
        port = Int(UInt16(bigEndian: actual.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The collector's URL.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)/sa")! }

    /// Every event received, in arrival order, duplicates included.
    public var events: [Event] { store.withLock { $0.events } }
    /// The events stored once each, deduplicated on (`distinct_id`, `time`, `_track_id`).
    public var uniqueEvents: [Event] { store.withLock { $0.unique } }
    /// What the collector has done.
    public var counts: Counts { store.withLock { $0.counts } }
    /// The reasons of the 4xx answers, in order.
    public var refusals: [String] { store.withLock { $0.refusals } }
    /// Requests seen.
    public var requestCount: Int { requests.load(ordering: .relaxed) }
    /// Bodies refused for their framing or content.
    public var undecodableBodies: Int { store.withLock { $0.counts.refused } }

    /// Stops accepting connections.
    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if stopped.load(ordering: .relaxed) { return }
                continue
            }
            if connections.add(1, ordering: .relaxed).newValue > limits.maximumConnections {
                store.withLock { $0.counts.refusedConnections += 1 }
                respond(connection, status: 503, reason: "too many connections")
                close(connection)
                connections.subtract(1, ordering: .relaxed)
                continue
            }
            let thread = Thread { [self] in
                handle(connection)
                connections.subtract(1, ordering: .relaxed)
            }
            thread.start()
        }
    }

    private func handle(_ connection: Int32) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: Int(limits.readTimeoutSeconds), tv_usec: Int(limits.readTimeoutSeconds.truncatingRemainder(dividingBy: 1) * 1e6))
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request: HTTPRequest
        switch HTTPRequest.read(connection, limits: limits) {
        case .success(let read): request = read
        case .failure(.closed): return
        case .failure(.refused(let status, let reason)):
            refuse(connection, status: status, reason: reason)
            return
        }
        let number = requests.add(1, ordering: .relaxed).newValue
        store.withLock { $0.counts.requests += 1 }
        switch script(number) {
        case .accept:
            answer(connection, request: request, respond: true)
        case .status(let status):
            respond(connection, status: status, reason: "scripted")
        case .hang(let seconds):
            Thread.sleep(forTimeInterval: seconds)
            answer(connection, request: request, respond: true)
        case .dropConnection:
            return
        case .storeThenDrop:
            answer(connection, request: request, respond: false)
        }
    }

    /// Decodes, applies the rules, stores and answers.
    private func answer(_ connection: Int32, request: HTTPRequest, respond shouldRespond: Bool) {
        let batch: [Event]
        do {
            batch = try decode(request)
        } catch {
            if shouldRespond { refuse(connection, status: 400, reason: error.description) }
            return
        }
        if let maximum = rules.maximumEventsPerBatch, batch.count > maximum {
            if shouldRespond { refuse(connection, status: 413, reason: "a batch of \(batch.count) events exceeds \(maximum)") }
            return
        }
        if let poison = batch.first(where: { rules.refusedEventNames.contains($0.name.rawValue) }) {
            if shouldRespond { refuse(connection, status: 400, reason: "event '\(poison.name.rawValue)' (_track_id \(poison.id)) is refused") }
            return
        }
        store.withLock { store in
            store.events += batch
            store.counts.batches += 1
            store.counts.events += batch.count
            for event in batch {
                let key = Key(distinctID: event.identity.distinctID, time: event.time.millisecondsSince1970, id: event.id.rawValue)
                if store.seen.insert(key).inserted { store.unique.append(event) } else { store.counts.duplicates += 1 }
            }
        }
        onBatch?(batch)
        if shouldRespond { respond(connection, status: 200, reason: "ok") }
    }

    private func decode(_ request: HTTPRequest) throws(CollectorRefusal) -> [Event] {
        let contentType = request.header("content-type")?.lowercased() ?? ""
        if contentType.hasPrefix("application/json") {
            do {
                return try decoder.decodeBatch(from: request.body)
            } catch {
                throw CollectorRefusal(description: "invalid JSON batch: \(error.description)")
            }
        }
        do {
            return try SensorsFormBody.decode(request.body, decoder: decoder, maximumSize: limits.maximumInflatedBytes)
        } catch {
            throw CollectorRefusal(description: "invalid form body: \(error.description)")
        }
    }

    private func refuse(_ connection: Int32, status: Int, reason: String) {
        store.withLock {
            $0.counts.refused += 1
            $0.refusals.append("\(status) \(reason)")
        }
        respond(connection, status: status, reason: reason)
    }

    private func respond(_ connection: Int32, status: Int, reason: String) {
        let body = Array(reason.utf8)
        let text = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        var bytes = Array(text.utf8) + body
        _ = bytes.withUnsafeMutableBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}

/// Why a body was refused, in words (the 400's body).
struct CollectorRefusal: Error {
    let description: String
}

/// One HTTP/1.1 request as the collector reads it: headers within a size limit, parsed
/// once in linear time, and a body of the declared, bounded length.
struct HTTPRequest {
    let headers: [(name: String, value: String)]
    let body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    enum ReadFailure: Error {
        /// The client went away or timed out before a whole request arrived.
        case closed
        /// A request the collector answers with `status` and `reason`.
        case refused(status: Int, reason: String)
    }

    static func read(_ connection: Int32, limits: LocalCollector.Limits) -> Result<HTTPRequest, ReadFailure> {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        var scanned = 0
        var headerEnd: Int?
        var parsed: [(name: String, value: String)] = []
        var contentLength = 0
        while true {
            if let end = headerEnd, buffer.count >= end + 4 + contentLength {
                return .success(HTTPRequest(headers: parsed, body: Array(buffer[(end + 4)..<(end + 4 + contentLength)])))
            }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return .failure(.closed) }
            buffer += chunk[0..<count]
            guard headerEnd == nil else { continue }
            // Look for the blank line only in what is new (and the 3 bytes before it).
            var index = max(0, scanned - 3)
            while index + 3 < buffer.count {
                if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                    headerEnd = index
                    break
                }
                index += 1
            }
            scanned = buffer.count
            guard let end = headerEnd else {
                if buffer.count > limits.maximumHeaderBytes { return .failure(.refused(status: 431, reason: "headers exceed \(limits.maximumHeaderBytes) bytes")) }
                continue
            }
            if end > limits.maximumHeaderBytes { return .failure(.refused(status: 431, reason: "headers exceed \(limits.maximumHeaderBytes) bytes")) }
            let lines = String(decoding: buffer[0..<end], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
            guard let requestLine = lines.first, requestLine.split(separator: " ").count == 3 else {
                return .failure(.refused(status: 400, reason: "malformed request line"))
            }
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { return .failure(.refused(status: 400, reason: "malformed header line")) }
                parsed.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
                if parsed.last?.name == "expect", parsed.last?.value.lowercased() == "100-continue" {
                    // Clients (libcurl) wait for this before sending a large body.
                    var interim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
                    _ = interim.withUnsafeMutableBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            }
            if parsed.contains(where: { $0.name == "transfer-encoding" }) {
                return .failure(.refused(status: 411, reason: "chunked bodies are not accepted; send Content-Length"))
            }
            let lengths = parsed.filter { $0.name == "content-length" }.map(\.value)
            guard lengths.count == 1, let text = lengths.first else {
                return .failure(.refused(status: 411, reason: lengths.isEmpty ? "Content-Length is required" : "Content-Length appears more than once"))
            }
            guard !text.isEmpty, text.count <= 12, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(text) else {
                return .failure(.refused(status: 400, reason: "Content-Length '\(text.prefix(40))' is not a non-negative integer"))
            }
            guard length <= limits.maximumBodyBytes else {
                return .failure(.refused(status: 413, reason: "a body of \(length) bytes exceeds \(limits.maximumBodyBytes)"))
            }
            contentLength = length
        }
    }
}

/// Why the collector could not start.
public enum CollectorError: Error {
    /// A socket call failed.
    case socket(String)
}
