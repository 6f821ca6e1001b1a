import AutoTrackEvents
import AutoTrackProperties

/// What the worker remembers of the screens shown: the referrer chain of
/// `$AppViewScreen` and the page open now, whose `$AppPageLeave` is due when it is left.
struct ScreenHistory {
    /// The `$url` (or type name) of the last screen view.
    var lastScreenReference: String?
    /// The `$referrer` of the last screen view: what a screen shown again on return
    /// from the background keeps (it did not come from itself).
    var lastScreenReferrer: String?
    /// The screen shown now, from its screen view: what its `$AppPageLeave` reports.
    var openPage: OpenPage?
    /// Pages under a sheet, popover or over-full-screen presentation, innermost last:
    /// each resumes when the screen over it disappears (UIKit tells it nothing).
    var pausedPages: [OpenPage] = []

    /// A screen being shown: its screen view's properties, since when it counts, and
    /// which screen object it is.
    struct OpenPage {
        var properties: Properties
        var since: MonotonicInstant
        var instance: ObjectIdentifier?
    }

    /// The page `content` closes now, if any, with the pages moved as it says: a
    /// full-screen screen view ends the page shown; one presented over it (a sheet)
    /// pauses it; an alert changes nothing; the app leaving, or an unrecorded screen,
    /// ends it; a screen disappearing ends its own page and resumes the one paused
    /// under it from `now`.
    mutating func pageClosed(by content: Submission.Content, at now: MonotonicInstant) -> OpenPage? {
        switch content {
        case .interaction(let interaction) where interaction.isScreenView:
            guard interaction.presentation.isPage, let open = openPage else { return nil }
            openPage = nil
            if !interaction.presentation.presenterDisappears, open.instance != interaction.screenInstance {
                pausedPages.append(open)
            }
            return open
        case .lifecycle(let name, _) where name == .appEnd:
            defer { openPage = nil }
            return openPage
        case .leftScreen:
            defer { openPage = nil }
            return openPage
        case .screenDisappeared(let instance?):
            guard let open = openPage, open.instance == instance else {
                pausedPages.removeAll { $0.instance == instance }
                return nil
            }
            openPage = pausedPages.popLast().map { OpenPage(properties: $0.properties, since: now, instance: $0.instance) }
            return open
        default:
            return nil
        }
    }

    /// The `$referrer` of a screen view of `current`, and the chain moved on to it.
    /// Shown again on return from the background, the same screen keeps the referrer
    /// it had when it appeared.
    mutating func referrer(ofScreenView current: String?, returningFromBackground isReturn: Bool) -> String? {
        if isReturn, current == lastScreenReference { return lastScreenReferrer }
        defer {
            lastScreenReferrer = lastScreenReference
            lastScreenReference = current
        }
        return lastScreenReference
    }
}
