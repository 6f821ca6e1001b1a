import Synchronization

/// One click per touch: a control with N target-action pairs dispatches N times with
/// the same event object; only the first dispatch of an (event, element) pair records.
///
/// The last `capacity` events are held strongly, so a remembered event's address can
/// never be taken by a new one; events are small and short-lived. Elements are
/// compared by identity and not referenced at all — a weak reference would move every
/// retain and release of the control onto Swift's slow side-table path, on the path of
/// every tap. (A false match would need an element freed and another allocated at its
/// address within the same touch, whose hit-tested view is fixed.)
public final class TouchDeduplicator: Sendable {
    private struct Seen: @unchecked Sendable {
        // Safe: only touched inside the mutex.
        let event: AnyObject
        let element: ObjectIdentifier
    }

    private let recent = Mutex<[Seen]>([])
    private let capacity: Int

    /// Creates a deduplicator remembering the last `capacity` pairs.
    public init(capacity: Int = 32) { self.capacity = max(1, capacity) }

    /// Whether this (event, element) pair is new — and remembers it. A `nil` event is
    /// never a touch, so it is never "new".
    public func isFirstDispatch(event: AnyObject?, element: AnyObject) -> Bool {
        guard let event else { return false }
        let elementID = ObjectIdentifier(element)
        return recent.withLock { recent in
            if recent.contains(where: { $0.event === event && $0.element == elementID }) { return false }
            recent.append(Seen(event: event, element: elementID))
            if recent.count > capacity { recent.removeFirst(recent.count - capacity) }
            return true
        }
    }
}
