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
    /// The last click, which has answered no tap yet: hooks that see one touch at
    /// the same method may record the click before the touch (a SwiftUI tap and the
    /// touch it ends, both at `sendEvent:`).
    private var unmatchedClick: (element: Properties, at: MonotonicInstant)?

    /// A tap to wait on — unless the click it triggered came just before it (within
    /// `timeout`), on its element or one around it.
    mutating func tapped(_ tap: PendingTap, timeout: Duration) {
        if let click = unmatchedClick, tap.submission.monotonic - click.at <= timeout, Self.click(on: click.element, answers: tap) {
            unmatchedClick = nil
            return
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
    /// newest waiting (the click's element may not be the touched view). Earlier taps
    /// elsewhere keep waiting: a dead tap followed by a working one is still dead.
    mutating func answered(byClickOn element: Properties?, at instant: MonotonicInstant) {
        guard !pending.isEmpty else {
            unmatchedClick = element.map { ($0, instant) }
            return
        }
        let before = pending.count
        if let element { pending.removeAll { Self.click(on: element, answers: $0) } }
        if pending.count == before { pending.removeLast() }
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
    mutating func expired(at now: MonotonicInstant, timeout: Duration) -> [PendingTap] {
        let expired = pending.filter { now - $0.submission.monotonic > timeout }
        if !expired.isEmpty { pending.removeFirst(expired.count) }
        return expired
    }
}
