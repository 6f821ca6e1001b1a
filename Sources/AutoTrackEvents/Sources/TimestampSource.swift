import struct Foundation.Date
import AutoTrackLocking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A clock that stamps events: the wall-clock time an event happened, and a monotonic
/// instant that every duration the SDK reports is measured on. Inject one to make
/// event times deterministic.
///
/// Wall-clock time is only for timestamps: a user or the network may move it either
/// way at any moment. Durations — a session's `$event_duration`, a page's
/// `event_duration`, how long an element stayed visible — are differences of
/// ``monotonicNow()``, which never goes back.
public protocol TimestampSource: Sendable {
    /// The current wall-clock time. Must be safe to call from any thread.
    func now() -> Timestamp
    /// The current instant on a clock that never goes back. Must be safe to call from
    /// any thread. The default is the system's monotonic clock (which keeps counting
    /// while the device sleeps).
    func monotonicNow() -> MonotonicInstant
}

extension TimestampSource {
    /// The system's monotonic clock.
    public func monotonicNow() -> MonotonicInstant { MonotonicInstant.system() }
}

/// An instant on a clock that never goes back, as the time since an arbitrary origin;
/// only differences between instants of one clock mean anything.
public struct MonotonicInstant: Hashable, Comparable, Sendable {
    /// The time since the clock's origin.
    public var sinceOrigin: Duration

    /// Creates the instant `sinceOrigin` after the clock's origin.
    public init(sinceOrigin: Duration) { self.sinceOrigin = sinceOrigin }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sinceOrigin < rhs.sinceOrigin }

    /// The time from `rhs` to `lhs`.
    public static func - (lhs: Self, rhs: Self) -> Duration { lhs.sinceOrigin - rhs.sinceOrigin }

    /// The instant `duration` after `instant`.
    public static func + (instant: Self, duration: Duration) -> Self { Self(sinceOrigin: instant.sinceOrigin + duration) }

    /// Now, on the system's monotonic clock, which keeps counting while the device
    /// sleeps: read straight from `clock_gettime`, the cheapest way to it (every event
    /// reads it).
    package static func system() -> Self {
        var now = timespec()
        #if canImport(Glibc)
        clock_gettime(CLOCK_BOOTTIME, &now)
        #else
        clock_gettime(CLOCK_MONOTONIC, &now)
        #endif
        return Self(sinceOrigin: .seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec)))
    }
}

/// The system's wall clock and monotonic clock; the default.
public struct SystemTimestampSource: TimestampSource {
    /// Creates the clock.
    public init() {}

    /// The current wall-clock time in milliseconds.
    public func now() -> Timestamp { Timestamp(Date()) }
}

/// A clock that only moves when told to: for tests and golden files. Its monotonic
/// instant moves with every step forward; a wall clock set or moved back is a jump
/// the monotonic clock does not see.
public final class ManualTimestampSource: TimestampSource {
    private let current: Locked<(wall: Timestamp, monotonic: MonotonicInstant)>

    /// Creates a clock stopped at `start`.
    public init(start: Timestamp) { current = Locked((start, MonotonicInstant(sinceOrigin: .zero))) }

    /// The wall-clock time the clock is set to.
    public func now() -> Timestamp { current.withLock { $0.wall } }

    /// The monotonic instant the clock is at.
    public func monotonicNow() -> MonotonicInstant { current.withLock { $0.monotonic } }

    /// Lets `milliseconds` pass: both clocks move forward. A negative amount moves the
    /// wall clock back only, as ``jumpWallClock(by:)`` does.
    public func advance(by milliseconds: Int64) {
        current.withLock { clocks in
            clocks.wall.millisecondsSince1970 &+= milliseconds
            if milliseconds > 0 { clocks.monotonic = clocks.monotonic + .milliseconds(milliseconds) }
        }
    }

    /// Moves the wall clock alone by `milliseconds`, either way — the user or the
    /// network set the time; no time passed.
    public func jumpWallClock(by milliseconds: Int64) {
        current.withLock { $0.wall.millisecondsSince1970 &+= milliseconds }
    }

    /// Sets the wall clock to `time` (a jump: the monotonic clock does not move).
    public func set(_ time: Timestamp) { current.withLock { $0.wall = time } }
}
