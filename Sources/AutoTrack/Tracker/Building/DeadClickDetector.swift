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

    /// A tap to wait on.
    mutating func tapped(_ tap: PendingTap) { pending.append(tap) }

    /// Something responded to every tap waiting (a screen view, the app left): none
    /// is dead.
    mutating func responded() { pending.removeAll() }

    /// A click answered the taps on the clicked element or inside it (a double tap's
    /// first touch too); when none waits there, the tap that triggered it — the
    /// newest waiting (the click's element may not be the touched view). Earlier taps
    /// elsewhere keep waiting: a dead tap followed by a working one is still dead.
    mutating func answered(byClickOn element: Properties?) {
        guard !pending.isEmpty else { return }
        let before = pending.count
        if let element {
            let id = element["$element_id"]
            let path: String? = if case .string(let text)? = element["$element_path"], !text.isEmpty { text } else { nil }
            pending.removeAll { tap in
                if let id, tap.properties["$element_id"] == id { return true }
                guard let path, case .string(let tapPath)? = tap.properties["$element_path"] else { return false }
                return Self.path(tapPath, isWithin: path)
            }
        }
        if pending.count == before { pending.removeLast() }
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
