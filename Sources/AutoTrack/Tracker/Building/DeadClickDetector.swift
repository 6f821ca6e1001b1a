import AutoTrackEvents

/// Taps a host reported (``Tracker/noteTap(on:screen:)``) waiting for a response — a
/// click or a screen view — within the rule's timeout; one that gets none is a dead
/// click. Worker thread only.
struct DeadClickDetector {
    /// A tap waiting for its response.
    struct PendingTap {
        let submission: Submission
        let properties: Properties
    }

    private(set) var pending: [PendingTap] = []

    /// A tap to wait on.
    mutating func tapped(_ tap: PendingTap) { pending.append(tap) }

    /// Something responded (a click, a screen view): the taps waiting got their answer.
    mutating func responded() { pending.removeAll() }

    /// The taps whose timeout has passed by `now`, oldest first, taken out.
    mutating func expired(at now: MonotonicInstant, timeout: Duration) -> [PendingTap] {
        let expired = pending.filter { now - $0.submission.monotonic > timeout }
        if !expired.isEmpty { pending.removeFirst(expired.count) }
        return expired
    }
}
