import AutoTrackEvents

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

    /// A screen being shown: its screen view's properties and when it appeared.
    struct OpenPage {
        var properties: Properties
        var since: MonotonicInstant
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
