import AutoTrackEvents
import Foundation

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
    /// A click that matched no waiting tap, its meaning not settled yet: hooks that
    /// see one touch at the same method may record the click before the touch (a
    /// SwiftUI tap and the touch it ends, both at `sendEvent:`), so the touch that
    /// follows it on its element is the one it answers; any other event settles it as
    /// the answer to the newest tap that waited when it came.
    private var unmatchedClick: UnmatchedClick?

    struct UnmatchedClick {
        let element: Properties
        let at: MonotonicInstant
        /// Whether a tap waited when it came: the one it answers if no touch of its own follows.
        let answersNewest: Bool
    }

    /// A tap to wait on — unless it is the touch of the click that came just before
    /// it (within `timeout`), on its element or one inside it.
    mutating func tapped(_ tap: PendingTap, timeout: Duration) {
        if let click = unmatchedClick {
            unmatchedClick = nil
            if tap.submission.monotonic - click.at <= timeout, Self.click(on: click.element, answers: tap) { return }
            if click.answersNewest { pending.removeLast() }
        }
        pending.append(tap)
    }

    /// Something responded to every tap waiting (a screen view, the app left): none
    /// is dead.
    mutating func responded() {
        pending.removeAll()
        unmatchedClick = nil
    }

    /// A click answered the taps on the clicked element or inside it (a double tap's
    /// first touch too); when none waits there, the tap that triggered it — the
    /// newest waiting (the click's element may not be the touched view), unless the
    /// click's own touch comes right after it. Earlier taps elsewhere keep waiting: a
    /// dead tap followed by a working one is still dead.
    mutating func answered(byClickOn element: Properties?, at instant: MonotonicInstant) {
        settleUnmatchedClick()
        let before = pending.count
        if let element { pending.removeAll { Self.click(on: element, answers: $0) } }
        guard pending.count == before else { return }
        if let element {
            unmatchedClick = UnmatchedClick(element: element, at: instant, answersNewest: !pending.isEmpty)
        } else if !pending.isEmpty {
            pending.removeLast()
        }
    }

    /// An unmatched click no touch of its own followed: it answered the newest tap
    /// that waited when it came.
    private mutating func settleUnmatchedClick() {
        if let click = unmatchedClick, click.answersNewest, !pending.isEmpty { pending.removeLast() }
        unmatchedClick = nil
    }

    /// Whether a click on `element` answers `tap`: the same element id, or a tap on
    /// the element or inside it.
    static func click(on element: Properties, answers tap: PendingTap) -> Bool {
        if let id = element["$element_id"], tap.properties["$element_id"] == id { return true }
        guard case .string(let path)? = element["$element_path"], !path.isEmpty,
              case .string(let tapPath)? = tap.properties["$element_path"] else { return false }
        return Self.path(tapPath, isWithin: path)
    }

    /// Whether `path` names the element of `ancestor` or one inside it: `ancestor`
    /// followed by nothing or by a separator.
    static func path(_ path: String, isWithin ancestor: String) -> Bool {
        guard path.hasPrefix(ancestor) else { return false }
        guard let next = path.dropFirst(ancestor.count).unicodeScalars.first else { return true }
        return !(CharacterSet.alphanumerics.contains(next) || next == "_" || next == "[" || next == "(")
    }

    /// The taps whose timeout has passed by `now`, oldest first, taken out.
    /// The newest tap, while an unmatched click may be its answer, is not among them.
    mutating func expired(at now: MonotonicInstant, timeout: Duration) -> [PendingTap] {
        let protected = unmatchedClick?.answersNewest == true ? pending.count - 1 : pending.count
        var expired: [PendingTap] = []
        var kept: [PendingTap] = []
        for (index, tap) in pending.enumerated() {
            if index < protected, now - tap.submission.monotonic > timeout { expired.append(tap) } else { kept.append(tap) }
        }
        if !expired.isEmpty { pending = kept }
        return expired
    }
}
