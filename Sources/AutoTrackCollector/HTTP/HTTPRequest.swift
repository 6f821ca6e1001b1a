import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a body was refused, in words (the 400's body).
struct CollectorRefusal: Error {
    let description: String
}

/// One HTTP/1.1 request as the collector reads it: headers within a size limit and a
/// deadline, parsed once in linear time, and a body of the declared, bounded length
/// within the request's deadline.
struct HTTPRequest {
    /// The method (`POST`, `GET`).
    let method: String
    /// The request target: the path and query.
    let target: String
    let headers: [(name: String, value: String)]
    let body: [UInt8]

    /// The target's path, without the query.
    var path: Substring { target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }

    func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    enum ReadFailure: Error {
        /// The client went away, or sent nothing for the read timeout, before a whole
        /// request arrived: closed without an answer.
        case closed
        /// A request the collector answers with `status` and `reason`. `bodyUnread`:
        /// the client may still be sending (the connection closes lingering, so it
        /// can read the answer).
        case refused(status: Int, reason: String, bodyUnread: Bool)
    }

    /// The deadlines of one request, on the monotonic clock.
    struct Deadlines {
        /// The request line and headers must have arrived by then.
        let headers: ContinuousClock.Instant
        /// The whole request must have arrived by then.
        let request: ContinuousClock.Instant

        init(limits: LocalCollector.Limits, from start: ContinuousClock.Instant = .now) {
            headers = start + .seconds(limits.headerDeadlineSeconds)
            request = start + .seconds(limits.requestDeadlineSeconds)
        }
    }

    /// Reads one request from `connection` within `deadlines`.
    static func read(_ connection: Int32, limits: LocalCollector.Limits, deadlines: Deadlines) -> Result<HTTPRequest, ReadFailure> {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        var scanned = 0
        var headerEnd: Int?
        var parsed: [(name: String, value: String)] = []
        var requestLine = (method: "", target: "")
        var contentLength = 0
        while true {
            if let end = headerEnd, buffer.count >= end + 4 + contentLength {
                return .success(HTTPRequest(
                    method: requestLine.method, target: requestLine.target, headers: parsed,
                    body: Array(buffer[(end + 4)..<(end + 4 + contentLength)])))
            }
            let deadline = headerEnd == nil ? deadlines.headers : deadlines.request
            let remaining = deadline - .now
            guard remaining > .zero else {
                let what = headerEnd == nil ? "headers" : "the body"
                return .failure(.refused(status: 408, reason: "\(what) did not arrive within the request's deadline", bodyUnread: true))
            }
            setReceiveTimeout(connection, seconds: min(limits.readTimeoutSeconds, Self.seconds(remaining)))
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK, .now >= deadline { continue }  // the deadline's 408
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
                if buffer.count > limits.maximumHeaderBytes { return refusal(431, "headers exceed \(limits.maximumHeaderBytes) bytes") }
                continue
            }
            if end > limits.maximumHeaderBytes { return refusal(431, "headers exceed \(limits.maximumHeaderBytes) bytes") }
            switch parseHeaders(buffer[0..<end], connection: connection, limits: limits) {
            case .failure(let failure): return .failure(failure)
            case .success(let (line, headers, length)):
                requestLine = line
                parsed = headers
                contentLength = length
            }
        }
    }

    /// The request line and headers before the blank line: the method and target, the
    /// headers and the body's declared length (a GET or HEAD needs none), or the refusal.
    private static func parseHeaders(
        _ bytes: ArraySlice<UInt8>, connection: Int32, limits: LocalCollector.Limits
    ) -> Result<((method: String, target: String), [(name: String, value: String)], Int), ReadFailure> {
        var parsed: [(name: String, value: String)] = []
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        guard let requestLine = lines.first, case let parts = requestLine.split(separator: " "), parts.count == 3 else {
            return refusal(400, "malformed request line")
        }
        let line = (method: String(parts[0]), target: String(parts[1]))
        var continues = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return refusal(400, "malformed header line") }
            parsed.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            if parsed.last?.name == "expect", parsed.last?.value.lowercased() == "100-continue" { continues = true }
        }
        if parsed.contains(where: { $0.name == "transfer-encoding" }) {
            return refusal(411, "chunked bodies are not accepted; send Content-Length")
        }
        let lengths = parsed.filter { $0.name == "content-length" }.map(\.value)
        if lengths.isEmpty, line.method == "GET" || line.method == "HEAD" { return .success((line, parsed, 0)) }
        guard lengths.count == 1, let text = lengths.first else {
            return refusal(411, lengths.isEmpty ? "Content-Length is required" : "Content-Length appears more than once")
        }
        guard !text.isEmpty, text.count <= 12, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(text) else {
            return refusal(400, "Content-Length '\(text.prefix(40))' is not a non-negative integer")
        }
        guard length <= limits.maximumBodyBytes else {
            return refusal(413, "a body of \(length) bytes exceeds \(limits.maximumBodyBytes)")
        }
        if continues {
            // Clients (libcurl) wait for this before sending a large body; only a body
            // the collector will read is invited.
            var interim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
            _ = interim.withUnsafeMutableBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        return .success((line, parsed, length))
    }

    private static func refusal<Success>(_ status: Int, _ reason: String) -> Result<Success, ReadFailure> {
        .failure(.refused(status: status, reason: reason, bodyUnread: true))
    }

    /// After an answer sent before the client finished sending: stops writing, then
    /// reads and discards what the client still sends — until it closes, `limits`'
    /// linger time passes or its byte bound is read — so the client is not reset
    /// mid-send and can read the answer (a client that sends its body without
    /// `Expect: 100-continue` reads only once it has sent all of it).
    static func lingeringClose(_ connection: Int32, limits: LocalCollector.Limits) {
        shutdown(connection, Int32(SHUT_WR))
        let deadline = ContinuousClock.now + .seconds(limits.lingerSeconds)
        var discarded = 0
        var chunk = [UInt8](repeating: 0, count: 65536)
        while discarded < limits.maximumLingerBytes {
            let remaining = deadline - .now
            guard remaining > .zero else { return }
            setReceiveTimeout(connection, seconds: Self.seconds(remaining))
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
            discarded += count
        }
    }

    static func setReceiveTimeout(_ connection: Int32, seconds: Double) {
        let clamped = max(0.001, seconds)
        var timeout = timeval(tv_sec: Int(clamped), tv_usec: Int(clamped.truncatingRemainder(dividingBy: 1) * 1e6))
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
