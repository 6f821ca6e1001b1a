/// How callers of `track` and automatic capture waited for room in the tracker's
/// hand-off: the back-pressure a burst met. A caller waits only when
/// ``TrackerConfiguration/maximumPendingEvents`` are already waiting for the worker.
public struct HandOffWaits: Hashable, Sendable {
    /// Calls that found the hand-off full and waited.
    public var count = 0
    /// Their waits, summed.
    public var total: Duration = .zero
    /// The longest wait.
    public var longest: Duration = .zero

    /// Creates an empty record.
    public init() {}

    /// Adds one wait.
    mutating func record(_ wait: Duration) {
        count += 1
        total += wait
        longest = max(longest, wait)
    }
}
