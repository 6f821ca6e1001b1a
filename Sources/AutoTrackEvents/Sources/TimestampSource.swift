import struct Foundation.Date
import AutoTrackLocking

/// A clock that stamps events. Inject one to make event times deterministic.
public protocol TimestampSource: Sendable {
    /// The current time. Must be safe to call from any thread.
    func now() -> Timestamp
}

/// The system's wall clock; the default.
public struct SystemTimestampSource: TimestampSource {
    /// Creates the clock.
    public init() {}

    /// The current wall-clock time in milliseconds.
    public func now() -> Timestamp { Timestamp(Date()) }
}

/// A clock that only moves when told to: for tests and golden files.
public final class ManualTimestampSource: TimestampSource {
    private let current: Locked<Timestamp>

    /// Creates a clock stopped at `start`.
    public init(start: Timestamp) { current = Locked(start) }

    /// The time the clock is set to.
    public func now() -> Timestamp { current.withLock { $0 } }

    /// Moves the clock forward (or back, with a negative amount) by `milliseconds`.
    public func advance(by milliseconds: Int64) {
        current.withLock { $0.millisecondsSince1970 &+= milliseconds }
    }

    /// Sets the clock to `time`.
    public func set(_ time: Timestamp) { current.withLock { $0 = time } }
}
