/// AutoTrackEvents: `MonotonicInstant` appears in this file's public API.
public import AutoTrackEvents

/// The exposure rule for one watched element, as a state machine over visibility
/// observations: hidden → visible since *t* → exposed (once *t* + the minimum
/// duration has passed while it stayed visible enough) → hidden again when it leaves.
/// Observations are instants on a monotonic clock: a wall clock moved while an element
/// is visible neither exposes it early nor holds it back.
///
/// ``ElementExposureMonitor`` keeps one per watched element and feeds it the visible
/// ratio it computes; a host with its own notion of visibility can drive one directly:
///
/// ```swift
/// var timeline = ExposureTimeline(options: try ExposureOptions(minimumVisibleRatio: 0.5, minimumDuration: .seconds(1)))
/// let start = MonotonicInstant(sinceOrigin: .seconds(60))
/// func later(_ ms: Int64) -> MonotonicInstant { start + .milliseconds(ms) }
/// timeline.observe(visibleRatio: 0.8, at: start)       // false: visible, not long enough yet
/// timeline.observe(visibleRatio: 0.8, at: later(1000)) // true: exposed now
/// timeline.observe(visibleRatio: 0.8, at: later(5000)) // false: the same appearance
/// timeline.observe(visibleRatio: 0.2, at: later(6000)) // false: it left (less than half visible)
/// ```
public struct ExposureTimeline: Hashable, Sendable {
    /// Where an element is in its appearance.
    public enum Phase: Hashable, Sendable {
        /// Not visible enough (or not observed yet).
        case hidden
        /// Visible enough since this time; exposed once the minimum duration has passed.
        case visible(since: MonotonicInstant)
        /// Exposed in this appearance; nothing more until it leaves.
        case exposed
    }

    /// The rule applied.
    public var options: ExposureOptions
    /// The phase now.
    public private(set) var phase: Phase = .hidden
    /// Exposures so far.
    public private(set) var exposures = 0

    /// Creates a timeline for an element not seen yet.
    public init(options: ExposureOptions) {
        self.options = options
    }

    /// Takes one observation: the element's visible ratio at `time`. Returns `true`
    /// when the exposure is due now — exactly once per appearance (or once in all,
    /// when the options do not repeat). An instant before the one the wait started at
    /// (observations out of order) restarts the wait from it.
    public mutating func observe(visibleRatio: Double, at time: MonotonicInstant) -> Bool {
        guard options.isVisibleEnough(visibleRatio) else {
            phase = .hidden
            return false
        }
        switch phase {
        case .exposed:
            return false
        case .hidden:
            guard options.repeats || exposures == 0 else { return false }
            phase = .visible(since: time)
            return checkDeadline(at: time)
        case .visible(let since):
            if time < since { phase = .visible(since: time) }
            return checkDeadline(at: time)
        }
    }

    /// Ends the appearance without an observation — the element was removed, the app
    /// went to the background, watching was suspended. A later visible observation
    /// starts a new appearance.
    public mutating func endAppearance() {
        phase = .hidden
    }

    /// When the exposure becomes due if the element stays as visible as last observed:
    /// a host observes it again then. `nil` when nothing is pending.
    public var deadline: MonotonicInstant? {
        guard case .visible(let since) = phase else { return nil }
        return since + options.minimumDuration
    }

    private mutating func checkDeadline(at time: MonotonicInstant) -> Bool {
        guard let deadline, time >= deadline else { return false }
        phase = .exposed
        exposures += 1
        return true
    }
}
