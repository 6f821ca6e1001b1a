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
/// takes the slot of the slowest — the one reading longest — whose reader is woken to
/// answer 503; when none is slow the newcomer is answered 503. A flood of slow clients
/// (slowloris) holds no slot a quick client needs, and quick clients never lose theirs
/// to newcomers.
final class ConnectionTable: Sendable {
    private struct Entry {
        let started: ContinuousClock.Instant
        var isReading = true
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
            let slowest = entries.filter { $0.value.isReading && !$0.value.isEvicted && now - $0.value.started >= slowAfter }
                .min { $0.value.started < $1.value.started }
            guard let (victim, _) = slowest else { return .refused }
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

    /// Whether `connection` gave its slot to a newer one.
    func wasEvicted(_ connection: Int32) -> Bool {
        entries.withLock { $0[connection]?.isEvicted ?? false }
    }

    /// Forgets `connection`; call before closing it.
    func remove(_ connection: Int32) {
        _ = entries.withLock { $0.removeValue(forKey: connection) }
    }

    /// Connections holding a slot now (an evicted one is on its way out).
    var count: Int { entries.withLock { $0.values.filter { !$0.isEvicted }.count } }
}
