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
/// missing length 411; headers are parsed in linear time; inflated sizes are bounded
/// (``Limits``). ``counts`` says what it did, and `onRefusal` hears of every refusal.
///
/// It holds under attack: reads time out, and every request has deadlines for its
/// headers and its whole body (408 past them), however slowly a client trickles bytes.
/// Connections are capped, and at the cap a slow request gives its slot to a new
/// connection (see ``Limits/slowRequestSeconds``), so a flood of slow clients cannot
/// starve quick ones. A request refused before its body was read is answered and the
/// connection closed lingering: what the client still sends is read and discarded for
/// a while, so a client that sends a whole oversized body before reading gets its 413
/// instead of a reset.
///
/// Faults can be injected per request to exercise a transport: answer with an error
/// status, hang past the client's timeout, drop the connection before or after storing.
public final class LocalCollector: Sendable {
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
        /// The settings document served, its entity tag and path.
        var settings: (body: [UInt8], etag: String, path: String)?
        var settingsVersion = 0
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
    private let onRefusal: (@Sendable (Refusal) -> Void)?
    private let store = Locked(Store())
    private let requests = Atomic<Int>(0)
    private let connections: ConnectionTable
    private let stopped = Atomic<Bool>(false)
    private let decoder: EventJSONDecoder = {
        var decoder = EventJSONDecoder()
        decoder.missingTrackID = .deriveFromContent
        return decoder
    }()

    /// Starts listening on loopback `requestedPort` (0, the default, picks a free one);
    /// `onBatch` sees every batch it stores and `onRefusal` every request or
    /// connection it refuses, as it happens, on the connection's thread.
    public init(
        port requestedPort: UInt16 = 0, rules: Rules = Rules(), limits: Limits = Limits(),
        script: @escaping Script = { _ in .accept }, onBatch: (@Sendable ([Event]) -> Void)? = nil,
        onRefusal: (@Sendable (Refusal) -> Void)? = nil
    ) throws {
        self.script = script
        self.onBatch = onBatch
        self.onRefusal = onRefusal
        connections = ConnectionTable(capacity: limits.maximumConnections, slowAfter: .seconds(limits.slowRequestSeconds))
        self.rules = rules
        self.limits = limits
        do throws(LoopbackListener.Failure) {
            (listener, port) = try LoopbackListener.open(port: requestedPort, backlog: 64)
        } catch {
            throw CollectorError.socket(error.description)
        }
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
    /// Every refusal — 4xx answers, 408s, and 503s at the connection limit — as `status reason`, in order.
    public var refusals: [String] { store.withLock { $0.refusals } }
    /// Requests seen.
    public var requestCount: Int { requests.load(ordering: .relaxed) }
    /// Bodies refused for their framing or content.
    public var undecodableBodies: Int { store.withLock { $0.counts.refused } }
    /// Connections holding one of the ``Limits/maximumConnections`` slots now.
    public var openConnections: Int { connections.count }
    /// Connections still reading a request begun at least ``Limits/slowRequestSeconds``
    /// ago: the slots the fairness rule may give to new connections.
    public var slowConnections: Int { connections.slowCount }

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
            switch connections.admit(connection) {
            case .refused:
                store.withLock { $0.counts.refusedConnections += 1 }
                report(Refusal(status: 503, reason: "too many connections"))
                respond(connection, status: 503, reason: "too many connections")
                close(connection)
                continue
            case .admitted, .admittedByEvicting:
                break
            }
            let thread = Thread { [self] in
                handle(connection)
                connections.remove(connection)
                close(connection)
            }
            thread.start()
        }
    }

    private func handle(_ connection: Int32) {
        let request: HTTPRequest
        let read = HTTPRequest.read(connection, limits: limits, deadlines: HTTPRequest.Deadlines(limits: limits))
        connections.finishedReading(connection)
        switch read {
        case .success(let read): request = read
        case .failure(.closed):
            guard connections.wasEvicted(connection) else { return }
            let reason = "a slow request gave its slot to a new connection at the limit of \(limits.maximumConnections)"
            store.withLock { $0.counts.evictedConnections += 1 }
            report(Refusal(status: 503, reason: reason))
            respond(connection, status: 503, reason: reason)
            return
        case .failure(.refused(let status, let reason, let bodyUnread)):
            if status == 408 { store.withLock { $0.counts.timedOut += 1 } }
            refuse(connection, status: status, reason: reason)
            if bodyUnread {
                connections.startedLingering(connection)
                HTTPRequest.lingeringClose(connection, limits: limits)
            }
            return
        }
        let number = requests.add(1, ordering: .relaxed).newValue
        store.withLock { $0.counts.requests += 1 }
        if request.method == "GET" || request.method == "HEAD" {
            return serve(connection, request: request)
        }
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
        store.withLock { $0.counts.refused += 1 }
        report(Refusal(status: status, reason: reason))
        respond(connection, status: status, reason: reason)
    }

    private func report(_ refusal: Refusal) {
        store.withLock { $0.refusals.append("\(refusal.status) \(refusal.reason)") }
        onRefusal?(refusal)
    }

    // MARK: Settings

    /// Serves `document` — a settings document — at `GET path`, with an entity tag
    /// that changes with each document: a request whose `If-None-Match` names the tag
    /// gets 304 and no body (`Counts.settingsServed`, `settingsNotModified`).
    public func serveSettings(_ document: [UInt8], at path: String = "/config") {
        store.withLock { store in
            store.settingsVersion += 1
            store.settings = (document, "\"settings-\(store.settingsVersion)-\(document.count)\"", path)
        }
    }

    /// A GET: the settings document when its path is asked, 304 when the client holds
    /// it already, 404 otherwise.
    private func serve(_ connection: Int32, request: HTTPRequest) {
        let settings = store.withLock { $0.settings }
        guard let settings, request.path == settings.path else {
            return refuse(connection, status: 404, reason: "nothing is served at \(request.path)")
        }
        if let held = request.header("if-none-match"), held.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == settings.etag }) {
            store.withLock { $0.counts.settingsNotModified += 1 }
            return respond(connection, status: 304, reason: "", headers: [("ETag", settings.etag)], body: [])
        }
        store.withLock { $0.counts.settingsServed += 1 }
        respond(
            connection, status: 200, reason: "", headers: [("ETag", settings.etag), ("Content-Type", "application/json")],
            body: settings.body, headOnly: request.method == "HEAD")
    }

    private func respond(
        _ connection: Int32, status: Int, reason: String, headers: [(String, String)] = [("Content-Type", "text/plain; charset=utf-8")],
        body given: [UInt8]? = nil, headOnly: Bool = false
    ) {
        let full = given ?? Array(reason.utf8)
        let phrase = switch status {
        case 200: "OK"
        case 304: "Not Modified"
        case 404: "Not Found"
        default: "Error"
        }
        let fields = headers.map { "\($0.0): \($0.1)\r\n" }.joined()
        // A HEAD answer says the length the GET's body has, and sends none.
        let text = "HTTP/1.1 \(status) \(phrase)\r\n\(fields)" + (status == 304 ? "" : "Content-Length: \(full.count)\r\n")
            + "Connection: close\r\n\r\n"
        let body = headOnly ? [] : full
        var bytes = Array(text.utf8) + body
        _ = bytes.withUnsafeMutableBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}

/// Why the collector could not start.
public enum CollectorError: Error {
    /// A socket call failed.
    case socket(String)
}
