/// AutoTrackEvents: `Event` appears in this file's public API.
public import AutoTrackEvents
import AutoTrackSerialization
/// Foundation: `URL` appears in this file's public API.
public import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP collector on the loopback interface, for tests and the demo: it
/// accepts both wire formats (the Sensors form body and plain JSON batches), decodes
/// them, and records every event it received — duplicates included, so tests can count
/// resends.
///
/// Faults can be injected per request to exercise a transport: answer with an error
/// status, hang past the client's timeout, or drop the connection without answering.
public final class LocalCollector: Sendable {
    /// What to do with one request.
    public enum Behaviour: Sendable, Hashable {
        /// Decode, record, answer 200.
        case accept
        /// Answer this status without recording.
        case status(Int)
        /// Wait this long, then accept (a client with a shorter timeout gives up).
        case hang(seconds: Double)
        /// Close the connection without answering or recording.
        case dropConnection
    }

    /// Chooses the behaviour for request number `n` (counting from 1).
    public typealias Script = @Sendable (_ request: Int) -> Behaviour

    private let listener: Int32
    /// The port it listens on (127.0.0.1).
    public let port: Int
    private let script: Script
    private let onBatch: (@Sendable ([Event]) -> Void)?
    private let received = Mutex<[Event]>([])
    private let requests = Atomic<Int>(0)
    private let decodeFailures = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    /// Starts listening on loopback `requestedPort` (0, the default, picks a free one); `onBatch`
    /// sees every batch it records, on the connection's thread.
    public init(port requestedPort: UInt16 = 0, script: @escaping Script = { _ in .accept }, onBatch: (@Sendable ([Event]) -> Void)? = nil) throws {
        self.script = script
        self.onBatch = onBatch
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
    public var events: [Event] { received.withLock { $0 } }
    /// Requests seen.
    public var requestCount: Int { requests.load(ordering: .relaxed) }
    /// Bodies that could not be decoded.
    public var undecodableBodies: Int { decodeFailures.load(ordering: .relaxed) }

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
            let thread = Thread { [self] in handle(connection) }
            thread.start()
        }
    }

    private func handle(_ connection: Int32) {
        defer { close(connection) }
        guard let (headers, body) = readRequest(connection) else { return }
        let number = requests.add(1, ordering: .relaxed).newValue
        switch script(number) {
        case .accept:
            record(headers: headers, body: body)
            respond(connection, status: 200)
        case .status(let status):
            respond(connection, status: status)
        case .hang(let seconds):
            Thread.sleep(forTimeInterval: seconds)
            record(headers: headers, body: body)
            respond(connection, status: 200)
        case .dropConnection:
            return
        }
    }

    private func record(headers: String, body: [UInt8]) {
        let isJSON = headers.lowercased().contains("content-type: application/json")
        let format: CollectorWireFormat = isJSON ? .jsonBatch : .sensorsForm
        if let batch = try? format.events(from: body) {
            received.withLock { $0 += batch }
            onBatch?(batch)
        } else {
            decodeFailures.add(1, ordering: .relaxed)
        }
    }

    private func respond(_ connection: Int32, status: Int) {
        let reason = status == 200 ? "OK" : "Status"
        let text = "HTTP/1.1 \(status) \(reason)\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    private func readRequest(_ connection: Int32) -> (String, [UInt8])? {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        var headerEnd: Int?
        var contentLength = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            buffer += chunk[0..<count]
            if headerEnd == nil, let range = findHeaderEnd(buffer) {
                headerEnd = range
                let headers = String(decoding: buffer[0..<range], as: UTF8.self)
                for line in headers.split(separator: "\r\n") {
                    let lowered = line.lowercased()
                    if lowered.hasPrefix("content-length:") {
                        contentLength = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
                    }
                    if lowered.hasPrefix("expect:"), lowered.contains("100-continue") {
                        // Clients (libcurl) wait for this before sending a large body.
                        var interim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
                        _ = interim.withUnsafeMutableBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    }
                }
            }
            if let end = headerEnd, buffer.count >= end + 4 + contentLength {
                let headers = String(decoding: buffer[0..<end], as: UTF8.self)
                return (headers, Array(buffer[(end + 4)..<(end + 4 + contentLength)]))
            }
        }
    }

    private func findHeaderEnd(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}

/// Why the collector could not start.
public enum CollectorError: Error {
    /// A socket call failed.
    case socket(String)
}
