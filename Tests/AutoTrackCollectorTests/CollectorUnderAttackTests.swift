import AutoTrackCollector
import AutoTrackEvents
import AutoTrackLocking
import AutoTrackSerialization
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A client that trickles a request: connects, sends a request line, then one header
/// line at a time when told to; it never finishes its headers.
final class TricklingClient: Sendable {
    let descriptor: Int32

    init?(port: Int) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0, send("POST /sa HTTP/1.1\r\n") else {
            close(descriptor)
            return nil
        }
    }

    /// Sends `text`; whether the connection took it.
    @discardableResult
    func send(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Reads until the collector closes: the status it answered (0 for none).
    func awaitClose(timeout: Int = 30) -> Int {
        var timeoutValue = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeoutValue, socklen_t(MemoryLayout<timeval>.size))
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            response += chunk[0..<count]
        }
        return String(decoding: response, as: UTF8.self).split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }

    deinit { close(descriptor) }
}

@Suite("The local collector under attack: deadlines, fair slots, lingering refusals, refusals reported")
struct CollectorUnderAttackTests {
    static let validBody = Array(HostileRequestTests.validJSON.utf8)

    @Test("a client trickling header lines is answered 408 at the header deadline, however steadily it trickles")
    func headerDeadline() throws {
        let collector = try LocalCollector(limits: LocalCollector.Limits(readTimeoutSeconds: 30, headerDeadlineSeconds: 0.3))
        defer { collector.stop() }
        let client = try #require(TricklingClient(port: collector.port))
        // Keep trickling on another thread, a line every 50 ms until told to stop; the
        // collector must close regardless.
        let done = DispatchSemaphore(value: 0)
        let trickler = Thread {
            while client.send("X-Slow: 1\r\n"), done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {}
        }
        trickler.start()
        #expect(client.awaitClose() == 408)
        done.signal()
        #expect(collector.counts.timedOut == 1)
        #expect(collector.refusals.first?.hasPrefix("408 headers did not arrive") == true)
    }

    @Test("a body that never completes is answered 408 at the request deadline")
    func bodyDeadline() throws {
        let collector = try LocalCollector(limits: LocalCollector.Limits(readTimeoutSeconds: 30, headerDeadlineSeconds: 0.2, requestDeadlineSeconds: 0.4))
        defer { collector.stop() }
        let client = try #require(TricklingClient(port: collector.port))
        client.send("Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n[")
        #expect(client.awaitClose() == 408)
        #expect(collector.refusals.first?.hasPrefix("408 the body did not arrive") == true)
    }

    @Test("slowloris holding every slot: each honest client's first try is served; the slow connections are answered 503")
    func slowlorisAtTheCap() throws {
        let cap = 8
        let collector = try LocalCollector(limits: LocalCollector.Limits(
            maximumConnections: cap, readTimeoutSeconds: 60, headerDeadlineSeconds: 60, requestDeadlineSeconds: 60, slowRequestSeconds: 0.2))
        defer { collector.stop() }
        // The attacker keeps `cap` trickling connections open, opening a new one for
        // each the collector closes.
        let attackers = Locked<[TricklingClient]>((0..<cap).compactMap { _ in TricklingClient(port: collector.port) })
        let stop = DispatchSemaphore(value: 0)
        let attacker = Thread {
            repeat {
                let alive = attackers.withLock { clients in clients.filter { $0.send("X-Slow: 1\r\n") } }
                let replacements = (0..<(cap - alive.count)).compactMap { _ in TricklingClient(port: collector.port) }
                attackers.withLock { $0 = alive + replacements }
            } while stop.wait(timeout: .now() + .milliseconds(20)) == .timedOut  // a round every 20 ms until told to stop
        }
        attacker.start()
        defer { stop.signal() }
        var served = 0
        let tries = 20
        for _ in 0..<tries {
            // Every slot is held by a request older than the slow mark: the fairness
            // rule, not luck, decides whether the honest client gets in.
            #expect(waitUntil { collector.slowConnections >= cap })
            let (status, _) = rawRequest(post(Self.validBody, contentType: "application/json"), port: collector.port)
            if status == 200 { served += 1 }
        }
        #expect(served == tries, "honest first tries served: \(served) of \(tries)")
        // An eviction is counted by the evicted connection's own thread once its read
        // wakes, which may come after the honest client already has its answer.
        #expect(waitUntil { collector.counts.evictedConnections >= tries }, "evicted: \(collector.counts.evictedConnections)")
        #expect(collector.refusals.contains { $0.hasPrefix("503 a slow request gave its slot") })
        print("slowloris at the cap of \(cap): \(served) of \(tries) honest first tries served; \(collector.counts)")
    }

    @Test("clients that keep refused connections open while lingering hold no slot an honest client needs")
    func lingeringHoldsNoSlot() throws {
        let cap = 3
        let collector = try LocalCollector(limits: LocalCollector.Limits(maximumConnections: cap, lingerSeconds: 60))
        defer { collector.stop() }
        // Each announces a body past the limit, is answered 413, and keeps trickling.
        let lingering = (0..<cap).compactMap { _ in TricklingClient(port: collector.port) }
        for client in lingering { client.send("Content-Length: 999999999\r\n\r\nx") }
        #expect(waitUntil { collector.refusals.count == cap })
        for _ in 0..<5 {
            #expect(rawRequest(post(Self.validBody, contentType: "application/json"), port: collector.port).status == 200)
        }
        #expect(collector.counts.refusedConnections == 0)
    }

    @Test("a 50 MB body sent whole without Expect: 100-continue reads its 413, not a reset", arguments: [false, true])
    func lingeringRefusal(continues: Bool) throws {
        let collector = try LocalCollector()
        defer { collector.stop() }
        let body = [UInt8](repeating: 0x41, count: 50 << 20)
        let headers = "POST /sa HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
            + (continues ? "Expect: 100-continue\r\n" : "") + "\r\n"
        let (status, reason) = rawRequest(Array(headers.utf8) + body, port: collector.port)
        #expect(status == 413, "\(reason)")
        #expect(reason.contains("exceeds"))
    }

    @Test("every refusal is reported as it happens, with its status and reason")
    func refusalsReported() throws {
        let heard = Locked<[LocalCollector.Refusal]>([])
        let collector = try LocalCollector(onRefusal: { refusal in heard.withLock { $0.append(refusal) } })
        defer { collector.stop() }
        let corpus = try HostileRequestTests.corpus()
        for (_, bytes, _) in corpus { _ = rawRequest(bytes, port: collector.port) }
        #expect(rawRequest(post(Self.validBody, contentType: "application/json"), port: collector.port).status == 200)
        let statuses = heard.withLock { $0.map(\.status) }
        #expect(statuses == corpus.map(\.2), "one report per refused request, in order")
        #expect(heard.withLock { $0.allSatisfy { !$0.reason.isEmpty && $0.description.hasPrefix("refused \($0.status): ") } })
    }
}

/// Waits until `condition` holds, checking every few milliseconds, for at most 60 s —
/// far beyond what it needs, so load only makes the wait longer.
func waitUntil(_ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        Thread.sleep(forTimeInterval: 0.002)
    }
    return true
}
