import Synchronization

/// What the sample app's own code did, in order: the originals' side of every
/// exactly-once count.
public final class AppLog: Sendable {
    private let entries = Mutex<[String]>([])

    /// Creates an empty log.
    public init() {}

    /// Records an entry.
    public func record(_ entry: String) { entries.withLock { $0.append(entry) } }

    /// Every entry, in order.
    public var all: [String] { entries.withLock { $0 } }

    /// How many entries equal `entry`.
    public func count(_ entry: String) -> Int { entries.withLock { $0.filter { $0 == entry }.count } }

    /// Forgets everything.
    public func clear() { entries.withLock { $0.removeAll() } }
}
