import AutoTrackLocking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A unique identifier for one event, used to deliver it idempotently.
///
/// Written as `_track_id`, the field collectors use to discard an event they have
/// already stored: a batch that is resent after a lost response does not count twice.
/// Identifiers this package generates are non-negative integers of at most 53 bits
/// (``maximumGenerated``, 2⁵³ − 1), so every JSON consumer keeps them exact — also
/// those that read numbers as doubles, as JavaScript does. Identifiers read from
/// elsewhere may use the whole non-negative `Int64` range.
public struct EventID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The identifier, in `0...Int64.max`.
    public let rawValue: Int64

    /// Creates an identifier; negative values are not identifiers.
    public init?(rawValue: Int64) {
        guard rawValue >= 0 else { return nil }
        self.rawValue = rawValue
    }

    /// The largest identifier generated: 2⁵³ − 1, the largest integer a double holds
    /// exactly together with all smaller ones.
    public static let maximumGenerated: Int64 = (1 << 53) - 1

    /// Creates an identifier from the low 53 bits of `bits` (at most ``maximumGenerated``).
    public init(truncatingBits bits: UInt64) {
        self.rawValue = Int64(bitPattern: bits & UInt64(Self.maximumGenerated))
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
/// With 53 random bits, the chance that any two of n events share an identifier is
/// about n²/2⁵⁴: 6·10⁻⁵ for a million events from one device — and collectors
/// deduplicate on (`distinct_id`, `time`, `_track_id`), so two events collide only
/// if they also share the device and the millisecond.
///
/// The system's random bytes are read 2 KiB at a time (from `/dev/urandom`, or
/// `arc4random_buf`, per 256 identifiers) instead of one system call per event.
public struct SystemRandomEventIDGenerator: EventIDGenerator {
    private let pool = RandomWordPool()

    /// Creates the generator.
    public init() {}

    /// A fresh random identifier.
    public func next() -> EventID {
        EventID(truncatingBits: pool.next())
    }
}

/// Random 64-bit words from the system's secure source, drawn in blocks.
final class RandomWordPool: Sendable {
    private static let blockWords = 256
    private let state = Locked<(words: [UInt64], next: Int)>(([], 0))

    func next() -> UInt64 {
        state.withLock { state in
            if state.next == state.words.count {
                state.words = Self.block()
                state.next = 0
            }
            defer { state.next += 1 }
            return state.words[state.next]
        }
    }

    /// One block of words from the system; the standard library's generator (one call
    /// per word) where the block read is not available or fails.
    private static func block() -> [UInt64] {
        var words = [UInt64](repeating: 0, count: blockWords)
        let filled = words.withUnsafeMutableBytes { raw -> Bool in
            #if canImport(Darwin)
            arc4random_buf(raw.baseAddress!, raw.count)
            return true
            #elseif canImport(Glibc)
            // The kernel's generator through its device: `getrandom` and
            // `arc4random_buf` are not declared by every C library Swift runs on.
            let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            var done = 0
            while done < raw.count {
                let count = read(descriptor, raw.baseAddress! + done, raw.count - done)
                if count > 0 {
                    done += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
            #else
            return false
            #endif
        }
        if !filled {
            var generator = SystemRandomNumberGenerator()
            for index in words.indices { words[index] = generator.next() }
        }
        return words
    }
}

/// Identifiers from a seeded pseudo-random sequence: the same seed gives the same
/// identifiers, for tests and golden files.
public final class SeededEventIDGenerator: EventIDGenerator {
    private let state: Locked<SplitMix64>

    /// Creates a generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = Locked(SplitMix64(seed: seed)) }

    /// The next identifier of the sequence.
    public func next() -> EventID {
        state.withLock { EventID(truncatingBits: $0.next()) }
    }
}

/// Identifiers counting up from a start value: 1, 2, 3, … by default.
public final class SequentialEventIDGenerator: EventIDGenerator {
    private let counter: Locked<Int64>

    /// Creates a generator whose first identifier is `start` (clamped to 0 or more).
    public init(start: Int64 = 1) { counter = Locked(max(0, start)) }

    /// The next identifier; wraps to 0 after ``EventID/maximumGenerated``.
    public func next() -> EventID {
        counter.withLock { value in
            let current = value
            value = value >= EventID.maximumGenerated ? 0 : value + 1
            return EventID(truncatingBits: UInt64(current))
        }
    }
}
