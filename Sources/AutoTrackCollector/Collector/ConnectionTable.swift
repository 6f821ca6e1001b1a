import AutoTrackLocking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The connections the collector serves, and who gets a slot at the cap.
///
/// The fairness rule: a connection still reading its request after
/// ``LocalCollector/Limits/slowRequestSeconds`` is slow. At the cap a new connection
/// takes the slot of a connection lingering after a refusal (it was answered already),
/// or else of the slowest — the one reading longest — whose reader is woken to answer
/// 503; when there is neither the newcomer is answered 503. A flood of slow clients
/// (slowloris, or clients that keep a refused connection open) holds no slot a quick
/// client needs, and quick clients never lose theirs to newcomers.
final class ConnectionTable: Sendable {
    private struct Entry {
        let started: ContinuousClock.Instant
        var isReading = true
        var isLingering = false
        var isEvicted = false
    }

    /// How a new connection was admitted.
    enum Admission: Equatable {
        case admitted
        /// Admitted in the slot of a slow connection, now being told so.
        case admittedByEvicting
        case refused
    }

    private let entries = Locked<[Int32: Entry]>([:])
    private let capacity: Int
    private let slowAfter: Duration

    init(capacity: Int, slowAfter: Duration) {
        self.capacity = capacity
        self.slowAfter = slowAfter
    }

    /// Admits `connection`, evicting the slowest reader at the cap.
    func admit(_ connection: Int32, at now: ContinuousClock.Instant = .now) -> Admission {
        entries.withLock { entries in
            let live = entries.values.lazy.filter { !$0.isEvicted }.count
            if live < capacity {
                entries[connection] = Entry(started: now)
                return .admitted
            }
            let candidates = entries.filter { entry in
                !entry.value.isEvicted && (entry.value.isLingering || (entry.value.isReading && now - entry.value.started >= slowAfter))
            }
            let lingering = candidates.filter(\.value.isLingering).min { $0.value.started < $1.value.started }
            guard let (victim, _) = lingering ?? candidates.min(by: { $0.value.started < $1.value.started }) else { return .refused }
            entries[victim]?.isEvicted = true
            // Its reader wakes with end of input and answers 503. The descriptor is
            // open: connections are closed only after ``remove(_:)``, under this lock.
            shutdown(victim, Int32(SHUT_RD))
            entries[connection] = Entry(started: now)
            return .admittedByEvicting
        }
    }

    /// `connection`'s request has been read: it is no longer slow, whatever it takes
    /// to answer.
    func finishedReading(_ connection: Int32) {
        entries.withLock { $0[connection]?.isReading = false }
    }

    /// `connection` was answered and lingers to let its client read the answer: its
    /// slot goes to the next connection that needs one.
    func startedLingering(_ connection: Int32) {
        entries.withLock { $0[connection]?.isLingering = true }
    }

    /// Whether `connection` gave its slot to a newer one.
    func wasEvicted(_ connection: Int32) -> Bool {
        entries.withLock { $0[connection]?.isEvicted ?? false }
    }

    /// Forgets `connection`; call before closing it.
    func remove(_ connection: Int32) {
        _ = entries.withLock { $0.removeValue(forKey: connection) }
    }

    /// Connections still reading a request begun at least the slow mark ago: those a
    /// new connection may take the slot of.
    var slowCount: Int {
        let now = ContinuousClock.now
        return entries.withLock { $0.values.filter { $0.isReading && !$0.isEvicted && now - $0.started >= slowAfter }.count }
    }

    /// Connections holding a slot now (an evicted one is on its way out).
    var count: Int { entries.withLock { $0.values.filter { !$0.isEvicted }.count } }
}
