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
    /// each resumes when the presentation over it is dismissed (UIKit tells it
    /// nothing).
    var pausedPages: [PausedPage] = []

    /// A screen being shown: its screen view's properties, since when it counts, which
    /// screen object it is and the presented screen it belongs to.
    struct OpenPage {
        var properties: Properties
        var since: MonotonicInstant
        var instance: ObjectIdentifier?
        var presentationRoot: ObjectIdentifier?
    }

    /// A page under a presentation, and the presented screen covering it (`nil`: the
    /// host does not say; the next disappearance of the page over it resumes it).
    struct PausedPage {
        var page: OpenPage
        var coveredBy: ObjectIdentifier?
    }

    /// The page `content` closes now, if any, with the pages moved as it says:
    /// - a screen view ends the page shown — pausing it when the screen is in another
    ///   presentation that leaves it in place (a sheet, a popover, over full screen),
    ///   not when it is a screen pushed inside the same sheet;
    /// - a screen with no page presented over it pauses it too;
    /// - an alert changes nothing (it is no screen view here);
    /// - the app leaving, or an unrecorded full-screen screen, ends it;
    /// - a screen disappearing ends its own page; when its presentation is being
    ///   dismissed, the page that presentation covered resumes from `now`.
    mutating func pageClosed(by content: Submission.Content, at now: MonotonicInstant) -> OpenPage? {
        switch content {
        case .interaction(let interaction) where interaction.isScreenView:
            guard interaction.presentation.isPage, let open = openPage else { return nil }
            openPage = nil
            let sameScreen = open.instance != nil && open.instance == interaction.screenInstance
            let samePresentation = interaction.presentationRoot != nil && open.presentationRoot == interaction.presentationRoot
            if !interaction.presentation.presenterDisappears, !sameScreen, !samePresentation {
                pausedPages.append(PausedPage(page: open, coveredBy: interaction.presentationRoot))
            }
            return open
        case .screenCovered(let root):
            guard let open = openPage else { return nil }
            openPage = nil
            // Within the page's own presentation (an ignored screen pushed in the same
            // sheet) the page ends; over it, it pauses.
            if open.presentationRoot != root { pausedPages.append(PausedPage(page: open, coveredBy: root)) }
            return open
        case .lifecycle(let name, _) where name == .appEnd:
            defer { openPage = nil }
            return openPage
        case .leftScreen:
            defer { openPage = nil }
            return openPage
        case .screenDisappeared(let departure):
            return pageClosed(byDisappearanceOf: departure, at: now)
        default:
            return nil
        }
    }

    private mutating func pageClosed(byDisappearanceOf departure: ScreenDeparture, at now: MonotonicInstant) -> OpenPage? {
        guard let instance = departure.instance else { return nil }
        var closed: OpenPage?
        if let open = openPage, open.instance == instance {
            closed = open
            openPage = nil
        } else {
            pausedPages.removeAll { $0.page.instance == instance }
        }
        guard openPage == nil, let covered = pausedPages.last else { return closed }
        let resumes = if let coveredBy = covered.coveredBy {
            departure.endsPresentation && departure.presentationRoot == coveredBy
        } else {
            closed != nil
        }
        if resumes {
            pausedPages.removeLast()
            var page = covered.page
            page.since = now
            openPage = page
        }
        return closed
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
