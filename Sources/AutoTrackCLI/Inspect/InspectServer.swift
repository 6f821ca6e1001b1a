import AutoTrackCollector
import AutoTrackLocking
import AutoTrackSampleSession
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `autotrack inspect --serve`: the live session's page on loopback.
///
/// - `GET /` — the page, following the session;
/// - `GET /events` — server-sent events: the page's data now, then again after each step;
/// - `GET /state` — the page's data as JSON;
/// - `POST /step` — performs the session's next step (what a person would do next);
///   answers the new state.
final class InspectServer: Sendable {
    private let listener: Int32
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    private let session: LiveSession
    private let subscribers = Locked<[Int32]>([])

    init(port requested: UInt16, session: LiveSession) throws {
        self.session = session
        do throws(LoopbackListener.Failure) {
            (listener, port) = try LoopbackListener.open(port: requested, backlog: 16)
        } catch {
            throw ServerError(error.description)
        }
    }

    /// Accepts connections until the process ends, each on its own thread.
    func serve() -> Never {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            Thread.detachNewThread { [self] in handle(connection) }
        }
    }

    private func handle(_ connection: Int32) {
        guard let (method, path, host) = Self.readRequest(connection) else {
            close(connection)
            return
        }
        // Only pages of this server: another site the browser shows (or a rebound DNS
        // name) must not step the session or read it.
        guard host == "127.0.0.1:\(port)" || host == "localhost:\(port)" else {
            return respond(connection, status: 403, type: "text/plain; charset=utf-8", body: "only http://127.0.0.1:\(port)/ is served")
        }
        // A page that stops reading must not hold up the others.
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        do {
            switch (method, path) {
            case ("GET", "/"):
                respond(connection, status: 200, type: "text/html; charset=utf-8", body: try InspectPage.html(try session.payload()))
            case ("GET", "/state"):
                respond(connection, status: 200, type: "application/json", body: try session.payload().json())
            case ("GET", "/events"):
                let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: keep-alive\r\n\r\n"
                guard Self.send(connection, head), Self.send(connection, Self.event(try session.payload().json())) else {
                    close(connection)
                    return
                }
                subscribers.withLock { $0.append(connection) }
            case ("POST", "/step"):
                _ = try session.step()
                let json = try session.payload().json()
                broadcast(json)
                respond(connection, status: 200, type: "application/json", body: json)
            default:
                respond(connection, status: 404, type: "text/plain; charset=utf-8", body: "nothing at \(method) \(path)")
            }
        } catch {
            respond(connection, status: 500, type: "text/plain; charset=utf-8", body: "\(error)")
        }
    }

    /// Sends `json` to every page following the session; drops those gone.
    private func broadcast(_ json: String) {
        let message = Self.event(json)
        // Sent outside the lock, each within the send timeout.
        let listening = subscribers.withLock { $0 }
        let gone = listening.filter { !Self.send($0, message) }
        guard !gone.isEmpty else { return }
        subscribers.withLock { $0.removeAll { gone.contains($0) } }
        for connection in gone { close(connection) }
    }

    private func respond(_ connection: Int32, status: Int, type: String, body: String) {
        let bytes = Array(body.utf8)
        let head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: \(type)\r\nContent-Length: \(bytes.count)\r\n"
            + "Cache-Control: no-cache\r\nConnection: close\r\n\r\n"
        _ = Self.send(connection, head) && Self.send(connection, bytes)
        close(connection)
    }

    /// One server-sent event carrying `json` (one line: JSON has no raw newlines).
    static func event(_ json: String) -> String { "data: \(json)\n\n" }

    static func send(_ connection: Int32, _ text: String) -> Bool { send(connection, Array(text.utf8)) }

    static func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// The method, path and `Host` of the request on `connection` (headers within
    /// 16 KiB, 5 s a read); a body, if any, is not read.
    static func readRequest(_ connection: Int32) -> (String, String, String)? {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while buffer.count < 16384 {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
            if buffer.count >= 4, buffer.indices.dropLast(3).contains(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }) {
                break
            }
        }
        let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\r\n")
        guard let first = lines.first, case let line = first.split(separator: " "), line.count == 3 else { return nil }
        let path = line[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        let host = lines.dropFirst().first { $0.lowercased().hasPrefix("host:") }
            .map { String($0.dropFirst(5)).trimmingCharacters(in: .whitespaces) } ?? ""
        return (String(line[0]), path, host)
    }

    struct ServerError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
