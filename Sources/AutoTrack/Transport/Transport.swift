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
/// left in the queue; any other status rejects the batch (counted by the tracker).
/// A batch is never reported accepted unless the collector said so.
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

    /// Sends the batch, retrying temporary failures.
    public func deliver(_ events: [Event]) -> DeliveryResult {
        let body: [UInt8]
        do {
            body = try wireFormat.body(for: events, encoder: encoder)
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
            last = post(body)
            if case .retryLater = last { continue }
            return last
        }
        return last
    }

    private func post(_ body: [UInt8]) -> DeliveryResult {
        counters.withLock { $0.requests += 1 }
        var request = URLRequest(url: endpoint, timeoutInterval: timeout.rounded(.up) + 1)
        request.httpMethod = "POST"
        request.setValue(wireFormat.contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body)
        let outcome = Mutex<DeliveryResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { _, response, error in
            let result: DeliveryResult
            if let error {
                result = .retryLater(reason: "network: \(error.localizedDescription)")
            } else if let status = (response as? HTTPURLResponse)?.statusCode {
                switch status {
                case 200..<300: result = .accepted
                case 408, 429, 500..<600: result = .retryLater(reason: "HTTP \(status)")
                default: result = .rejected(reason: "HTTP \(status)")
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
