/// AutoTrackEvents: `Event`, `SplitMix64` appear in this file's public API.
public import AutoTrackEvents
/// AutoTrackSerialization: `CollectorWireFormat`, `EncodedEvent`, `EventJSONEncoder` appear in this file's public API.
public import AutoTrackSerialization
/// Foundation: `URL`, `TimeInterval` appear in this file's public API.
public import Foundation
import AutoTrackLocking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a transport made of one batch.
public enum DeliveryResult: Hashable, Sendable {
    /// The receiver stored the batch: remove it from the queue.
    case accepted
    /// A temporary failure (5xx, 408, 429, network): keep the batch, try again later.
    case retryLater(reason: String)
    /// A permanent refusal (other 4xx): the batch can never be delivered; drop it,
    /// counted.
    case rejected(reason: String)
    /// Part of the batch was settled — what a transport that splits a refused batch
    /// reports: the first `settled` events are done with, the collector having stored
    /// all of them but those at the indices in `rejected` (refused for good, with the
    /// collector's reasons); the events after `settled`, if any, must be sent again
    /// later (`retryReason`).
    case partial(settled: Int, rejected: [Int], reasons: [String], retryReason: String?)
}

/// Delivers batches of events. Called from the tracker's worker thread, one batch at a
/// time.
public protocol Transport: Sendable {
    /// Sends one batch and says what became of it.
    func deliver(_ events: [Event]) -> DeliveryResult
}

/// A transport that sends nothing and reports every batch accepted: for hosts that
/// only need the queue, and previews whose events are read from the tracker's
/// observer.
package struct DiscardingTransport: Transport {
    package init() {}
    package func deliver(_ events: [Event]) -> DeliveryResult { .accepted }
}

/// A transport that also takes events in their wire form — as the queue stores them —
/// and sends their bytes as they are. The tracker's flush hands such a transport the
/// stored JSON without decoding and re-encoding it (each record checked to be one
/// well-formed JSON object first; a record that is not is rejected and counted).
/// Transports that only adopt ``Transport`` get decoded events, as before.
public protocol EncodedEventTransport: Transport {
    /// Sends one batch of events in their wire form and says what became of it, as
    /// ``Transport/deliver(_:)`` does for the events they encode.
    func deliver(encoded events: [EncodedEvent]) -> DeliveryResult

    /// How many of the flush policy's batches one ``deliver(encoded:)`` call may take:
    /// 1 for a transport whose requests have a size that matters (the default); more
    /// for one where a call's fixed cost dominates — a local file, whose every call
    /// ends in one `fsync`.
    var batchesPerDelivery: Int { get }
}

extension EncodedEventTransport {
    /// One batch per call.
    public var batchesPerDelivery: Int { 1 }
}

/// The embedded default: appends every batch as NDJSON to a local file and syncs it.
/// Needs no server.
///
/// Readers never meet a torn line: before each append, a last line left incomplete —
/// by a writer killed mid-batch, or a failed write — is cut back to the last complete
/// line (that batch was never acknowledged, so it is sent again), and a failed write
/// is cut off at once. The file is created private (0600).
///
/// A flush hands it stored events as they are, up to ``batchesPerDelivery`` batches
/// per call — one write and one `fsync` for all of them (a group commit: the queue
/// lets go of them only after that `fsync`).
public struct LocalFileTransport: EncodedEventTransport {
    /// The NDJSON file.
    public let file: URL
    /// How many of the flush policy's batches one append (and its one `fsync`) takes.
    public let batchesPerDelivery: Int
    private let encoder: EventJSONEncoder

    /// Creates a transport writing to `file`, with dates in the time zone `offsetSeconds`;
    /// each append takes up to `batchesPerDelivery` batches (16 by default, at least 1).
    public init(file: URL, dateOffsetSeconds: Int = 0, batchesPerDelivery: Int = 16) {
        self.file = file
        self.batchesPerDelivery = max(1, batchesPerDelivery)
        encoder = EventJSONEncoder(dateOffsetSeconds: dateOffsetSeconds)
    }

    /// Appends the batch.
    public func deliver(_ events: [Event]) -> DeliveryResult {
        append(encoder.encodeNDJSON(events))
    }

    /// Appends the batch, one stored event per line as it is.
    public func deliver(encoded events: [EncodedEvent]) -> DeliveryResult {
        append(EncodedEvent.ndjson(events))
    }

    /// Appends NDJSON lines and syncs them; a torn or failed append is cut off.
    private func append(_ bytes: [UInt8]) -> DeliveryResult {
        let descriptor = PrivateFiles.open(file.path, O_RDWR | O_APPEND)
        guard descriptor >= 0 else { return .retryLater(reason: "opening \(file.lastPathComponent): errno \(errno)") }
        defer { PrivateFiles.closeDescriptor(descriptor) }
        guard let start = Self.cutTornLine(descriptor) else {
            return .retryLater(reason: "repairing the last line of \(file.lastPathComponent): errno \(errno)")
        }
        let layer = SystemQueueWriteLayer()
        // Opened with `O_APPEND`, which keeps another writer's lines whole: each write
        // lands at the file's end whatever the offset says (here the same place).
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { layer.write(descriptor, UnsafeRawBufferPointer(rebasing: $0[done...]), at: start + done) }
            if written == -Int(EINTR) { continue }
            guard written > 0 else {
                _ = layer.truncate(descriptor, to: start)
                return .retryLater(reason: "writing \(file.lastPathComponent): errno \(-written)")
            }
            done += written
        }
        let code = layer.synchronize(descriptor)
        guard code == 0 else {
            _ = layer.truncate(descriptor, to: start)
            return .retryLater(reason: "syncing \(file.lastPathComponent): errno \(code)")
        }
        return .accepted
    }

    /// Cuts an incomplete last line off the file; its size afterwards, or `nil`.
    static func cutTornLine(_ descriptor: Int32) -> Int? {
        let size = Int(lseek(descriptor, 0, SEEK_END))
        guard size > 0 else { return size < 0 ? nil : 0 }
        var end = size
        var chunk = [UInt8](repeating: 0, count: 4096)
        while end > 0 {
            let start = max(0, end - chunk.count)
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, end - start, off_t(start)) }
            guard count == end - start else { return nil }
            if let newline = chunk[0..<count].lastIndex(of: 0x0A) {
                let complete = start + newline + 1
                if complete == size { return size }
                return ftruncate(descriptor, off_t(complete)) == 0 ? complete : nil
            }
            end = start
        }
        return ftruncate(descriptor, 0) == 0 ? 0 : nil
    }
}

/// Exponential backoff with jitter for retrying temporary failures.
public struct RetryPolicy: Sendable {
    /// Tries per batch, the first included.
    public var maximumAttempts: Int
    /// The first delay.
    public var initialDelay: Duration
    /// The longest delay.
    public var maximumDelay: Duration
    /// Jitter: each delay is multiplied by a random factor in `1 - jitter … 1 + jitter`.
    public var jitter: Double

    /// Creates a policy.
    public init(maximumAttempts: Int = 5, initialDelay: Duration = .milliseconds(200), maximumDelay: Duration = .seconds(30), jitter: Double = 0.2) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The delay before attempt `attempt` (1 is the first retry), with `random` in 0…1.
    public func delay(beforeRetry attempt: Int, random: Double) -> Duration {
        let exponent = Double(max(0, attempt - 1))
        let base = min(Double(initialDelay.components.seconds) + Double(initialDelay.components.attoseconds) / 1e18, 1e6)
        let maximum = Double(maximumDelay.components.seconds) + Double(maximumDelay.components.attoseconds) / 1e18
        let raw = min(base * pow(2, exponent), maximum)
        let factor = 1 - jitter + 2 * jitter * min(max(random, 0), 1)
        return .nanoseconds(Int64(raw * factor * 1e9))
    }
}

/// Sends batches over HTTP to a collector, in either wire format, through
/// Foundation's `URLSession` (FoundationNetworking on Linux).
///
/// 2xx accepts the batch; 5xx, 408, 429 and network errors (including the timeout)
/// are retried with exponential backoff and jitter, up to the policy's attempts, then
/// left in the queue. A 413 splits the batch in halves, sent in turn until they pass
/// (a single event still refused is rejected); a 400 is bisected the same way to find
/// the rejected events, and the rest is delivered; only those are rejected, with the
/// collector's reason (counted by the tracker). Other 4xx reject the batch. A batch is
/// never reported accepted unless the collector said so.
///
/// Delivery is at-least-once on the wire: an answer lost after the collector stored
/// the body means the batch is sent again. Every event carries its `_track_id`, and a
/// collector that deduplicates on (`distinct_id`, `time`, `_track_id`) — as the local
/// collector does — stores each event exactly once. Each request also carries
/// `X-AutoTrack-Batch`: the `_track_id` range of its events, for logs.
public final class HTTPTransport: EncodedEventTransport {
    /// The collector URL.
    public let endpoint: URL
    /// The body format.
    public let wireFormat: CollectorWireFormat
    /// The per-request timeout.
    public let timeout: TimeInterval
    /// The retry policy.
    public let retryPolicy: RetryPolicy
    private let encoder: EventJSONEncoder
    private let session: URLSession
    private let sleep: @Sendable (Duration) -> Void
    private let random: Locked<SplitMix64>
    private let counters = Locked<(requests: Int, retries: Int)>((0, 0))

    /// Creates a transport. `sleep` and `seed` are injectable so tests run fast and
    /// deterministically.
    public init(
        endpoint: URL, wireFormat: CollectorWireFormat = .sensorsForm, timeout: TimeInterval = 10,
        retryPolicy: RetryPolicy = RetryPolicy(), seed: UInt64 = 0x5EED,
        sleep: @escaping @Sendable (Duration) -> Void = { duration in Thread.sleep(forTimeInterval: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18) }
    ) {
        self.endpoint = endpoint
        self.wireFormat = wireFormat
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        encoder = EventJSONEncoder()
        let configuration = URLSessionConfiguration.ephemeral
        // The deadline is enforced by `post` itself. FoundationNetworking arms its own
        // request timer in whole seconds (it truncates the interval), so a sub-second
        // timeout there would fire at 0 ms, before the request is even sent; the
        // session's timeouts are only a backstop past the real deadline.
        configuration.timeoutIntervalForRequest = timeout.rounded(.up) + 1
        configuration.timeoutIntervalForResource = timeout.rounded(.up) + 1
        session = URLSession(configuration: configuration)
        self.sleep = sleep
        random = Locked(SplitMix64(seed: seed))
    }

    /// Requests made and retries, so far.
    public var requestCounts: (requests: Int, retries: Int) { counters.withLock { $0 } }

    /// Sends the batch, retrying temporary failures, splitting on 413 and bisecting on
    /// 400.
    public func deliver(_ events: [Event]) -> DeliveryResult {
        deliver(events) { [wireFormat, encoder] part throws(WireFormatError) in
            (try wireFormat.body(for: Array(part), encoder: encoder), part.first?.id.rawValue, part.last?.id.rawValue)
        }
    }

    /// Sends the batch of stored events as they are, like ``deliver(_:)``.
    public func deliver(encoded events: [EncodedEvent]) -> DeliveryResult {
        deliver(events) { [wireFormat] part throws(WireFormatError) in
            (try wireFormat.body(forEncoded: part), part.first?.trackID, part.last?.trackID)
        }
    }

    /// A request body for part of a batch, with the `_track_id`s of its first and last
    /// events.
    private typealias Request<Item> = (ArraySlice<Item>) throws(WireFormatError) -> (body: [UInt8], first: Int64?, last: Int64?)

    /// Sends `items`, in halves where the collector refuses the whole.
    private func deliver<Item>(_ items: [Item], request: Request<Item>) -> DeliveryResult {
        var rejected: [Int] = []
        var reasons: [String] = []
        var settled = 0
        let retry = settle(items[...], offset: 0, settled: &settled, rejected: &rejected, reasons: &reasons, request: request)
        if retry == nil && rejected.isEmpty { return .accepted }
        if retry == nil && rejected.count == items.count && items.count == 1 { return .rejected(reason: reasons.joined(separator: "; ")) }
        if let retry, settled == 0 { return .retryLater(reason: retry) }
        return .partial(settled: settled, rejected: rejected, reasons: reasons, retryReason: retry)
    }

    /// Sends `items` (starting at `offset` in the batch), in halves where the
    /// collector refuses the whole; returns the reason to retry the rest later, or nil
    /// when all of `items` is settled.
    private func settle<Item>(
        _ items: ArraySlice<Item>, offset: Int, settled: inout Int, rejected: inout [Int], reasons: inout [String],
        request: Request<Item>
    ) -> String? {
        switch send(items, request: request) {
        case .accepted:
            settled += items.count
            return nil
        case .retryLater(let reason):
            return reason
        case .rejected(let reason):
            guard reason.hasPrefix("HTTP 400") || reason.hasPrefix("HTTP 413"), items.count > 1 else {
                rejected += (offset..<(offset + items.count)).map { $0 }
                reasons.append(reason)
                settled += items.count
                return nil
            }
            let middle = items.startIndex + items.count / 2
            if let retry = settle(items[..<middle], offset: offset, settled: &settled, rejected: &rejected, reasons: &reasons, request: request) {
                return retry
            }
            return settle(items[middle...], offset: offset + (middle - items.startIndex), settled: &settled, rejected: &rejected,
                          reasons: &reasons, request: request)
        case .partial:
            return "unexpected partial result"
        }
    }

    /// One request for `items`, with retries of temporary failures.
    private func send<Item>(_ items: ArraySlice<Item>, request: Request<Item>) -> DeliveryResult {
        let body: [UInt8]
        let batchID: String
        do {
            let made = try request(items)
            body = made.body
            batchID = "\(made.first.map(String.init) ?? "?")-\(made.last.map(String.init) ?? "?")"
        } catch {
            return .rejected(reason: "encoding the batch: \(error)")
        }
        var last = DeliveryResult.retryLater(reason: "not attempted")
        for attempt in 1...retryPolicy.maximumAttempts {
            if attempt > 1 {
                counters.withLock { $0.retries += 1 }
                let unit = random.withLock { Double($0.next() >> 11) / Double(1 << 53) }
                sleep(retryPolicy.delay(beforeRetry: attempt - 1, random: unit))
            }
            last = post(body, batchID: batchID)
            if case .retryLater = last { continue }
            return last
        }
        return last
    }

    private func post(_ body: [UInt8], batchID: String) -> DeliveryResult {
        counters.withLock { $0.requests += 1 }
        var request = URLRequest(url: endpoint, timeoutInterval: timeout.rounded(.up) + 1)
        request.httpMethod = "POST"
        request.setValue(wireFormat.contentType, forHTTPHeaderField: "Content-Type")
        request.setValue(batchID, forHTTPHeaderField: "X-AutoTrack-Batch")
        request.httpBody = Data(body)
        switch session.response(to: request, within: timeout) {
        case .failure(let failure):
            return .retryLater(reason: failure.reason)
        case .success(let (status, _, data)):
            let said = String(decoding: data.prefix(300), as: UTF8.self)
            switch status {
            case 200..<300: return .accepted
            case 408, 429, 500..<600: return .retryLater(reason: "HTTP \(status)")
            default: return .rejected(reason: "HTTP \(status)" + (said.isEmpty ? "" : ": \(said)"))
            }
        }
    }
}

/// Why a request got no HTTP response.
struct RequestFailure: Error {
    let reason: String
}

extension URLSession {
    /// Sends `request` and waits at most `timeout` seconds for its response: the
    /// status, the headers and the body, or why none came.
    func response(to request: URLRequest, within timeout: TimeInterval) -> Result<(Int, [String: String], [UInt8]), RequestFailure> {
        let outcome = Locked<Result<(Int, [String: String], [UInt8]), RequestFailure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = dataTask(with: request) { data, response, error in
            let result: Result<(Int, [String: String], [UInt8]), RequestFailure>
            if let error {
                result = .failure(RequestFailure(reason: "network: \(error.localizedDescription)"))
            } else if let http = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                }
                result = .success((http.statusCode, headers, data.map(Array.init) ?? []))
            } else {
                result = .failure(RequestFailure(reason: "no HTTP response"))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout) == .timedOut {
            task.cancel()
            return .failure(RequestFailure(reason: "timed out after \(timeout) s"))
        }
        return outcome.withLock { $0 } ?? .failure(RequestFailure(reason: "no outcome"))
    }
}
