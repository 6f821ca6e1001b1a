import Synchronization

/// A unique identifier for one event, used to deliver it idempotently.
///
/// Written as `_track_id`, the field collectors use to discard an event they have
/// already stored: a batch that is resent after a lost response does not count twice.
/// Identifiers are non-negative 63-bit integers so they are exact in JSON.
public struct EventID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The identifier, in `0...Int64.max`.
    public let rawValue: Int64

    /// Creates an identifier; negative values are not identifiers.
    public init?(rawValue: Int64) {
        guard rawValue >= 0 else { return nil }
        self.rawValue = rawValue
    }

    /// Creates an identifier from the low 63 bits of `bits`.
    public init(truncatingBits bits: UInt64) {
        self.rawValue = Int64(bitPattern: bits & 0x7FFF_FFFF_FFFF_FFFF)
    }

    /// Orders ids by their value.
    public static func < (lhs: EventID, rhs: EventID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The decimal identifier.
    public var description: String { String(rawValue) }
}

/// A source of event identifiers. Inject one to make identifiers deterministic.
public protocol EventIDGenerator: Sendable {
    /// Returns a new identifier. Must be safe to call from any thread.
    func next() -> EventID
}

/// Random identifiers from the system's cryptographically secure generator; the default.
///
/// With 63 random bits, the chance that any two of n events share an identifier is
/// about n²/2⁶⁴: 5·10⁻⁸ for a million events from one device.
public struct SystemRandomEventIDGenerator: EventIDGenerator {
    /// Creates the generator.
    public init() {}

    /// A fresh random identifier.
    public func next() -> EventID {
        var generator = SystemRandomNumberGenerator()
        return EventID(truncatingBits: generator.next())
    }
}

/// Identifiers from a seeded pseudo-random sequence: the same seed gives the same
/// identifiers, for tests and golden files.
public final class SeededEventIDGenerator: EventIDGenerator {
    private let state: Mutex<SplitMix64>

    /// Creates a generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = Mutex(SplitMix64(seed: seed)) }

    /// The next identifier of the sequence.
    public func next() -> EventID {
        state.withLock { EventID(truncatingBits: $0.next()) }
    }
}

/// Identifiers counting up from a start value: 1, 2, 3, … by default.
public final class SequentialEventIDGenerator: EventIDGenerator {
    private let counter: Mutex<Int64>

    /// Creates a generator whose first identifier is `start` (clamped to 0 or more).
    public init(start: Int64 = 1) { counter = Mutex(max(0, start)) }

    /// The next identifier; wraps to 0 after `Int64.max`.
    public func next() -> EventID {
        counter.withLock { value in
            let current = value
            value = value == Int64.max ? 0 : value + 1
            return EventID(truncatingBits: UInt64(current))
        }
    }
}
