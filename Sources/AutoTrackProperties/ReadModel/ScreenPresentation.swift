/// How a screen is shown, as UIKit's modal presentation styles have it — which decides
/// what the screen below sees and how page time is counted.
///
/// UIKit tells the presenting screen it disappeared (`viewWillDisappear:`,
/// `viewDidDisappear:`) and appeared again only for a full-screen presentation. For a
/// sheet (`.pageSheet`, `.formSheet`, iOS 13 and later), `.overFullScreen` and a popover
/// the presenter hears nothing, though only the presented screen has the user's
/// attention; an alert leaves the presenter in view and in use.
public enum ScreenPresentation: String, Hashable, Sendable, CaseIterable {
    /// Pushed, a tab, a root screen, or presented full screen: it replaces what was
    /// shown.
    case fullScreen
    /// A sheet over the presenter.
    case pageSheet
    /// A centred sheet over the presenter.
    case formSheet
    /// Full screen over a presenter that stays in the hierarchy.
    case overFullScreen
    /// A popover.
    case popover
    /// An alert or action sheet: not a page; the screen under it stays the page.
    case alert

    /// Whether UIKit sends the presenter its disappearance and appearance callbacks.
    public var presenterDisappears: Bool { self == .fullScreen }

    /// Whether the screen is a page of its own (page time, `$AppPageLeave`).
    public var isPage: Bool { self != .alert }
}

/// Where a screen stands in the presentations on screen: ``ScreenNode/presentation``,
/// ``ScreenNode/presentationRoot`` and ``ScreenNode/isBeingDismissed`` read together
/// (``ScreenNode/presentationState``), as a snapshot of the screen does.
public struct ScreenPresentationState {
    /// How the screen is shown.
    public var presentation: ScreenPresentation
    /// The presented screen it belongs to, if any.
    public var root: (any ScreenNode)?
    /// Whether that presentation is being dismissed now.
    public var isBeingDismissed: Bool

    /// A state with these answers.
    public init(presentation: ScreenPresentation, root: (any ScreenNode)?, isBeingDismissed: Bool) {
        self.presentation = presentation
        self.root = root
        self.isBeingDismissed = isBeingDismissed
    }
}
