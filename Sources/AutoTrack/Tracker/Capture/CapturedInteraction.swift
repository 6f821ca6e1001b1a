import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties

/// What the worker needs of an interaction: its screen's and element's properties, and
/// for a screen view what the referrer chain reads. The interaction itself — its
/// storage, snapshots and details — is released by the hook on the calling thread
/// right away, while its memory is still in that thread's caches, instead of with the
/// stored submission later.
struct CapturedInteraction: Sendable {
    let isScreenView: Bool
    let screenProperties: Properties?
    let elementProperties: Properties?
    /// For a screen view: its `$url`, or its screen's type name.
    let screenReference: String?
    /// For a screen view: shown again on return from the background.
    let isReturnFromBackground: Bool
    /// For a click: rapid taps are the element's normal use (never a rage click).
    let allowsRapidTaps: Bool
    /// For a screen view: how the screen is shown, and which screen object it is.
    let presentation: ScreenPresentation
    let screenInstance: ObjectIdentifier?
    /// For a screen view: the presented screen it belongs to, if any.
    let presentationRoot: ObjectIdentifier?
    /// For a screen view: whether its `$AppViewScreen` is recorded (`false`: only its
    /// page time is kept, `$AppPageLeave` being on and `$AppViewScreen` off).
    let recordsScreenView: Bool

    init(_ interaction: Interaction, recordsScreenView: Bool = true) {
        isScreenView = interaction.point.isScreenView
        self.recordsScreenView = recordsScreenView
        // Each snapshot is bound once: a field read through an optional chain on the
        // interaction copies the whole optional snapshot each time.
        let screen = interaction.screen
        presentation = screen?.presentation ?? .fullScreen
        screenInstance = screen?.instance
        presentationRoot = screen?.presentationRoot
        screenProperties = screen?.properties
        if let element = interaction.element {
            elementProperties = element.properties
            allowsRapidTaps = element.allowsRapidTaps
        } else {
            elementProperties = nil
            allowsRapidTaps = false
        }
        if isScreenView {
            screenReference = screen.map { screen in
                if case .string(let url)? = screen.properties["$url"] { return url }
                return screen.typeName
            }
            isReturnFromBackground = interaction.details.screenViewReason == .foreground
        } else {
            screenReference = nil
            isReturnFromBackground = false
        }
    }
}

/// Hands a host's interactions to a tracker; see ``Tracker/interactionSink``. The sink
/// of a tracker's own context does not apply the settings: the context's pipeline did.
final class TrackerInteractionSink: InteractionSink {
    private weak let tracker: Tracker?
    private let appliesSettings: Bool

    init(tracker: Tracker, appliesSettings: Bool = true) {
        self.tracker = tracker
        self.appliesSettings = appliesSettings
    }

    /// Thrown when the tracker is gone; the hook's context counts it as a sink failure.
    struct TrackerReleased: Error {}

    func receive(_ interaction: Interaction) throws {
        guard let tracker else { throw TrackerReleased() }
        tracker.receive(interaction, appliesSettings: appliesSettings)
    }

    /// A screen view the context dropped: what it means for page time is the
    /// tracker's to say.
    func receiveExcludedScreenView(_ interaction: Interaction) {
        tracker?.excludedScreenView(interaction)
    }

    /// A screen disappeared: its page time ends.
    func receiveScreenDisappearance(_ screen: ScreenSnapshot) {
        tracker?.screenDisappeared(screen)
    }
}

/// The ``InteractionFilterPipeline/Stage/Name/settings`` stage of a tracker's
/// contexts: its run-time ``AutoTrackSettings``, read at each interaction. Holds the
/// tracker weakly; with the tracker gone it excludes nothing (the sink then counts a
/// failure).
struct SettingsFilter: InteractionFilter {
    weak let tracker: Tracker?

    func excludes(_ interaction: Interaction) -> Bool {
        guard let tracker else { return false }
        return !tracker.settingsRecord(interaction)
    }
}
