import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties

/// One event handed from a caller's thread to the worker.
///
/// A class, not a struct: a submission is copied into the buffer, out of it and through
/// the worker's loop, and each copy of a struct would retain every string and collection
/// in it.
final class Submission: Sendable {
    /// When it happened on the wall clock: the event's `time`.
    let time: Timestamp
    /// When it happened on the monotonic clock: what durations are measured on.
    let monotonic: MonotonicInstant
    let context: CallContext
    let content: Content

    init(time: Timestamp, monotonic: MonotonicInstant, context: CallContext, content: Content) {
        self.time = time
        self.monotonic = monotonic
        self.context = context
        self.content = content
    }

    /// A submission of now, on both of `clock`'s clocks.
    convenience init(now clock: any TimestampSource, context: CallContext, content: Content) {
        self.init(time: clock.now(), monotonic: clock.monotonicNow(), context: context, content: content)
    }

    enum Content: Sendable {
        /// `track` from the app's code, with the repairs its validation made.
        case code(EventName, properties: Properties, repairs: SanitizationReport)
        /// `trackAppClick(element:properties:)`: the element's collected properties
        /// and the caller's, with the repairs its validation made.
        case manualClick(Properties, properties: Properties, repairs: SanitizationReport)
        /// `$AppStart` / `$AppEnd`.
        case lifecycle(EventName, Properties)
        /// A click or screen view from a hook.
        case interaction(CapturedInteraction)
        /// A watched element was seen.
        case exposure(ElementExposure)
        /// The screen shown was left with no event of its own — the app went to the
        /// background with `$AppEnd` off, or a screen the settings ignore appeared — so
        /// its `$AppPageLeave` is due.
        case leftScreen
        /// A screen disappeared (`viewDidDisappear:`): its page ends, and when its
        /// presentation ends, the page it covered resumes.
        case screenDisappeared(ScreenDeparture)
        /// A screen with no page of its own (ignored, a system screen) was presented
        /// over the page shown, which pauses until that presentation ends.
        case screenCovered(presentationRoot: ObjectIdentifier)
        /// A tap the host saw, waiting for a click or screen view to answer it: its
        /// screen's and element's properties.
        case tap(Properties)
    }
}

/// A screen that disappeared, as page time needs it.
struct ScreenDeparture: Sendable {
    /// Which screen object it is.
    let instance: ObjectIdentifier?
    /// The presented screen it belongs to, if any.
    let presentationRoot: ObjectIdentifier?
    /// Whether that presentation is being dismissed: what is under it is seen again.
    let endsPresentation: Bool

    init(_ screen: ScreenSnapshot) {
        instance = screen.instance
        presentationRoot = screen.presentationRoot
        endsPresentation = screen.isBeingDismissed && !screen.presentation.presenterDisappears
    }
}
