import AutoTrackLocking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Marks logical interactions in progress per thread, so that a hooked method reached
/// again inside the same interaction — a subclass's hooked method calling its hooked
/// superclass, two stacked hooks of ours — records nothing the second time.
///
/// A key names the logical interaction (for example: receiver, selector, list and
/// index path). Entering a key already held by this thread returns `false`; another
/// thread holding the same key does not block this one.
public final class ReentrancyGuard: Sendable {
    private let held = Locked<[UInt: [InteractionKey]]>([:])

    /// Creates a guard.
    public init() {}

    private static var currentThread: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    /// Runs `body` holding `key` for this thread. `body` receives `true` when this is
    /// the outermost entry for `key`, `false` when the key was already held (a
    /// re-entrant call that must not record again). `body` runs exactly once either way.
    public func withKey<Result, Failure: Error>(
        _ key: InteractionKey, _ body: (_ isOutermost: Bool) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let thread = Self.currentThread
        let outermost = held.withLock { held -> Bool in
            if held[thread, default: []].contains(key) { return false }
            held[thread, default: []].append(key)
            return true
        }
        defer {
            if outermost {
                held.withLock { held in
                    if var keys = held[thread], let index = keys.lastIndex(of: key) {
                        keys.remove(at: index)
                        held[thread] = keys.isEmpty ? nil : keys
                    }
                }
            }
        }
        return try body(outermost)
    }
}

/// Names one logical interaction: a label plus the identities of the objects and the
/// numbers involved (receiver, list, index path …).
public struct InteractionKey: Hashable, Sendable {
    private let label: String
    private let objects: [ObjectIdentifier]
    private let numbers: [Int]

    /// Creates a key.
    public init(_ label: String, objects: [AnyObject], numbers: [Int] = []) {
        self.label = label
        self.objects = objects.map(ObjectIdentifier.init)
        self.numbers = numbers
    }
}
