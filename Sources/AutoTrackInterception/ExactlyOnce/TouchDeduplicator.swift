import AutoTrackLocking

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

    /// The last `capacity` pairs in a ring: the oldest is overwritten, nothing moves.
    private struct Ring {
        var slots: [Seen?]
        var next = 0
    }

    private let recent: Locked<Ring>

    /// Creates a deduplicator remembering the last `capacity` pairs.
    public init(capacity: Int = 32) {
        recent = Locked(Ring(slots: Array(repeating: nil, count: max(1, capacity))))
    }

    /// Whether this (event, element) pair is new — and remembers it. A `nil` event is
    /// never a touch, so it is never "new".
    public func isFirstDispatch(event: AnyObject?, element: AnyObject) -> Bool {
        guard let event else { return false }
        let elementID = ObjectIdentifier(element)
        return recent.withLock { ring in
            if ring.slots.contains(where: { $0?.event === event && $0?.element == elementID }) { return false }
            ring.slots[ring.next] = Seen(event: event, element: elementID)
            ring.next = ring.next + 1 == ring.slots.count ? 0 : ring.next + 1
            return true
        }
    }
}
