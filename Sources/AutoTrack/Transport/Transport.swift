/// AutoTrackEvents: `Event`, `SplitMix64` appear in this file's public API.
public import AutoTrackEvents
/// AutoTrackSerialization: `CollectorWireFormat`, `EventJSONEncoder` appear in this file's public API.
public import AutoTrackSerialization
/// Foundation: `URL`, `TimeInterval` appear in this file's public API.
public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
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

/// The embedded default: appends every batch as NDJSON to a local file and syncs it.
/// Needs no server.
///
/// Readers never meet a torn line: before each append, a last line left incomplete —
/// by a writer killed mid-batch, or a failed write — is cut back to the last complete
/// line (that batch was never acknowledged, so it is sent again), and a failed write
/// is cut off at once. The file is created private (0600).
public struct LocalFileTransport: Transport {
    /// The NDJSON file.
    public let file: URL
    private let encoder: EventJSONEncoder

    /// Creates a transport writing to `file`, with dates in the time zone `offsetSeconds`.
    public init(file: URL, dateOffsetSeconds: Int = 0) {
        self.file = file
        encoder = EventJSONEncoder(dateOffsetSeconds: dateOffsetSeconds)
    }

    /// Appends the batch.
    public func deliver(_ events: [Event]) -> DeliveryResult {
        let bytes = encoder.encodeNDJSON(events)
        let descriptor = PrivateFiles.open(file.path, O_RDWR | O_APPEND)
        guard descriptor >= 0 else { return .retryLater(reason: "opening \(file.lastPathComponent): errno \(errno)") }
        defer { PrivateFiles.closeDescriptor(descriptor) }
        guard let start = Self.cutTornLine(descriptor) else {
            return .retryLater(reason: "repairing the last line of \(file.lastPathComponent): errno \(errno)")
        }
        let layer = SystemQueueWriteLayer()
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { layer.write(descriptor, UnsafeRawBufferPointer(rebasing: $0[done...])) }
            if written == -Int(EINTR) { continue }
            guard written > 0 else {
                _ = layer.truncate(descriptor, to: start)
                return .retryLater(reason: "writing \(file.lastPathComponent): errno \(-written)")
            }
            done += written
        }
        let code = layer.fsync(descriptor)
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
public final class HTTPTransport: Transport {
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
    private let random: Mutex<SplitMix64>
    private let counters = Mutex<(requests: Int, retries: Int)>((0, 0))

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
        random = Mutex(SplitMix64(seed: seed))
    }

    /// Requests made and retries, so far.
    public var requestCounts: (requests: Int, retries: Int) { counters.withLock { $0 } }

    /// Sends the batch, retrying temporary failures, splitting on 413 and bisecting on
    /// 400.
    public func deliver(_ events: [Event]) -> DeliveryResult {
        var rejected: [Int] = []
        var reasons: [String] = []
        var settled = 0
        let retry = settle(events[...], offset: 0, settled: &settled, rejected: &rejected, reasons: &reasons)
        if retry == nil && rejected.isEmpty { return .accepted }
        if retry == nil && rejected.count == events.count && events.count == 1 { return .rejected(reason: reasons.joined(separator: "; ")) }
        if let retry, settled == 0 { return .retryLater(reason: retry) }
        return .partial(settled: settled, rejected: rejected, reasons: reasons, retryReason: retry)
    }

    /// Sends `events` (starting at `offset` in the batch), in halves where the
    /// collector refuses the whole; returns the reason to retry the rest later, or nil
    /// when all of `events` is settled.
    private func settle(
        _ events: ArraySlice<Event>, offset: Int, settled: inout Int, rejected: inout [Int], reasons: inout [String]
    ) -> String? {
        switch send(Array(events)) {
        case .accepted:
            settled += events.count
            return nil
        case .retryLater(let reason):
            return reason
        case .rejected(let reason):
            guard reason.hasPrefix("HTTP 400") || reason.hasPrefix("HTTP 413"), events.count > 1 else {
                rejected += (offset..<(offset + events.count)).map { $0 }
                reasons.append(reason)
                settled += events.count
                return nil
            }
            let middle = events.startIndex + events.count / 2
            if let retry = settle(events[..<middle], offset: offset, settled: &settled, rejected: &rejected, reasons: &reasons) {
                return retry
            }
            return settle(events[middle...], offset: offset + (middle - events.startIndex), settled: &settled, rejected: &rejected, reasons: &reasons)
        case .partial:
            return "unexpected partial result"
        }
    }

    /// One request for `events`, with retries of temporary failures.
    private func send(_ events: [Event]) -> DeliveryResult {
        let body: [UInt8]
        do {
            body = try wireFormat.body(for: events, encoder: encoder)
        } catch {
            return .rejected(reason: "encoding the batch: \(error)")
        }
        let batchID = "\(events.first?.id.rawValue ?? 0)-\(events.last?.id.rawValue ?? 0)"
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
        let outcome = Mutex<DeliveryResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            let result: DeliveryResult
            if let error {
                result = .retryLater(reason: "network: \(error.localizedDescription)")
            } else if let status = (response as? HTTPURLResponse)?.statusCode {
                let said = data.map { String(decoding: $0.prefix(300), as: UTF8.self) } ?? ""
                switch status {
                case 200..<300: result = .accepted
                case 408, 429, 500..<600: result = .retryLater(reason: "HTTP \(status)")
                default: result = .rejected(reason: "HTTP \(status)" + (said.isEmpty ? "" : ": \(said)"))
                }
            } else {
                result = .retryLater(reason: "no HTTP response")
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout) == .timedOut {
            task.cancel()
            return .retryLater(reason: "timed out after \(timeout) s")
        }
        return outcome.withLock { $0 } ?? .retryLater(reason: "no outcome")
    }
}
