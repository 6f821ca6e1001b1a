import Synchronization

/// One click per touch: a control with N target-action pairs dispatches N times with
/// the same event object; only the first dispatch of an (event, element) pair records.
///
/// Holds the most recent pairs weakly, so a released event can never be mistaken for
/// a new one that reuses its address.
public final class TouchDeduplicator: Sendable {
    private struct Seen: @unchecked Sendable {
        // Safe: only touched inside the mutex.
        weak var event: AnyObject?
        weak var element: AnyObject?
    }

    private let recent = Mutex<[Seen]>([])
    private let capacity: Int

    /// Creates a deduplicator remembering the last `capacity` pairs.
    public init(capacity: Int = 32) { self.capacity = max(1, capacity) }

    /// Whether this (event, element) pair is new — and remembers it. A `nil` event is
    /// never a touch, so it is never "new".
    public func isFirstDispatch(event: AnyObject?, element: AnyObject) -> Bool {
        guard let event else { return false }
        return recent.withLock { recent in
            recent.removeAll { $0.event == nil || $0.element == nil }
            if recent.contains(where: { $0.event === event && $0.element === element }) { return false }
            recent.append(Seen(event: event, element: element))
            if recent.count > capacity { recent.removeFirst(recent.count - capacity) }
            return true
        }
    }
}
