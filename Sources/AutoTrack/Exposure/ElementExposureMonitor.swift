/// AutoTrackEvents: `EventName`, `Properties`, `Timestamp`, `ValidationError` appear in this file's public API.
public import AutoTrackEvents
/// AutoTrackInterception: `InteractionContext` appears in this file's public API.
public import AutoTrackInterception
/// AutoTrackProperties: `ElementNode` appears in this file's public API.
public import AutoTrackProperties
import Synchronization
import AutoTrackLocking

/// Records `$AppElementExposure` for the elements an app asks to watch — a banner, a
/// product card, a cell — when enough of one is on screen for long enough, once per
/// appearance (see ``ExposureOptions``).
///
/// A host makes one from its tracker (``Tracker/makeExposureMonitor(context:)``), and
/// calls ``update()`` on its UI thread whenever what is on screen may have changed —
/// after layout, scrolling, a transition — and again at the deadline ``update()``
/// returns, so a minimum duration is honoured without further layout. It calls
/// ``suspend()`` when the app leaves the foreground and ``resume()`` when it returns:
/// every appearance ends in the background.
///
/// ```swift
/// let exposures = tracker.makeExposureMonitor()
/// try exposures.watch(bannerView, options: try ExposureOptions(minimumVisibleRatio: 0.5),
///                     properties: ["campaign": "spring"])
/// // after each layout pass, on the UI thread:
/// if let deadline = exposures.update() { scheduleUpdate(at: deadline) }
/// ```
///
/// Visibility is `ElementVisibility`'s: the part of the element inside its window and
/// every clipping ancestor, scrolled as they are; hidden or transparent ancestors hide
/// it. A list cell is watched by position as well: when a reused cell shows another
/// row, that row's appearance starts afresh.
///
/// The event carries the element's properties as a click on it would
/// (`$element_type`, `$element_content`, `$element_position`, `$element_path`,
/// `$element_id`, the element's custom properties), its screen's (`$screen_name`,
/// `$title`) and the properties given to ``watch(_:options:properties:eventName:)``
/// over them. Exposures are filtered like clicks on the same element — the context's
/// exclusions and the tracker's ``AutoTrackSettings`` (`$AppElementExposure` is an
/// event type there) — and counted where they are dropped. Nothing is recorded while
/// the context is disabled.
///
/// Exposures due at the same update are recorded in the order their elements were
/// first watched. Elements are held weakly: a released element stops being watched. Every method is
/// safe to call from any thread, but ``update()`` reads the watched elements, so it
/// must run where the host's element tree may be read: its UI thread.
public final class ElementExposureMonitor: Sendable {
    private weak let tracker: Tracker?
    /// The context whose snapshots, exclusions and on/off switch exposures follow.
    public let context: InteractionContext
    private let state = Locked(State())
    /// ``watchedCount``, mirrored outside the lock: the host calls ``update()`` after
    /// every run-loop turn, and with nothing watched it returns at once.
    private let watching = Atomic<Int>(0)

    struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var isSuspended = false
        /// Numbers entries in the order they were first watched.
        var nextOrder = 0
    }

    /// One watched element.
    struct Entry {
        let element: WeakElement
        /// When it was first watched: exposures due at one update are recorded in
        /// this order.
        let order: Int
        var options: ExposureOptions?
        var properties: Properties
        var eventName: EventName
        /// One timeline per list position the element has shown (`nil`: not a cell),
        /// so a reused cell's rows each get their own appearance.
        var timelines: [ListPosition?: ExposureTimeline] = [:]
        var position: ListPosition?
    }

    /// A watched element, held weakly.
    struct WeakElement: @unchecked Sendable {
        // Safe: the reference is only loaded inside `update()` (and compared by
        // identity in `watch`/`unwatch`); reading the element is confined to the
        // host's UI thread, which is where `update()` must be called.
        weak var node: (any ElementNode)?
    }

    init(tracker: Tracker, context: InteractionContext) {
        self.tracker = tracker
        self.context = context
    }

    /// Starts (or updates) watching `element`. Watching it again replaces its options,
    /// properties and event name and keeps its appearance.
    /// - Parameters:
    ///   - element: The element (held weakly).
    ///   - options: When it counts as seen; `nil` follows the tracker's
    ///     ``AutoTrackSettings/exposure`` at each update.
    ///   - properties: Added to its exposure events, over the collected ones;
    ///     validated now, like a `track` call's.
    ///   - eventName: The event recorded; `$AppElementExposure` by default, or one of
    ///     the app's own names.
    /// - Throws: `ValidationError` for an invalid event name or property.
    public func watch(
        _ element: any ElementNode, options: ExposureOptions? = nil, properties: Properties = [:], eventName: String? = nil
    ) throws(ValidationError) {
        let rules = tracker?.configuration.rules ?? .standard
        let checked = try rules.validated(properties)
        let name = try eventName.map { name throws(ValidationError) in try EventName(validating: name, rules: rules) } ?? .appElementExposure
        let key = ObjectIdentifier(element)
        let weak = WeakElement(node: element)
        state.withLock { state in
            if var entry = state.entries[key], entry.element.node === element {
                entry.options = options
                entry.properties = checked
                entry.eventName = name
                state.entries[key] = entry
            } else {
                state.entries[key] = Entry(element: weak, order: state.nextOrder, options: options, properties: checked, eventName: name)
                watching.store(state.entries.count, ordering: .relaxed)
                state.nextOrder += 1
            }
        }
    }

    /// Stops watching `element`; its appearance ends.
    public func unwatch(_ element: any ElementNode) {
        let key = ObjectIdentifier(element)
        state.withLock { state in
            if state.entries[key]?.element.node === element { state.entries[key] = nil }
            watching.store(state.entries.count, ordering: .relaxed)
        }
    }

    /// How many elements are watched (released ones included until the next update).
    public var watchedCount: Int { watching.load(ordering: .relaxed) }

    /// Ends every appearance and records nothing until ``resume()``: the app left the
    /// foreground.
    public func suspend() {
        state.withLock { state in
            state.isSuspended = true
            state.endAppearances()
        }
    }

    /// Records again from the next ``update()``: the app is back in the foreground.
    public func resume() {
        state.withLock { $0.isSuspended = false }
    }

    /// Observes every watched element now and records the exposures that are due.
    /// Returns the earliest time an exposure becomes due if nothing changes (when to
    /// call it again), or `nil` when none is pending. UI thread only.
    @discardableResult
    public func update() -> Timestamp? {
        guard watching.load(ordering: .relaxed) > 0, let tracker else { return nil }
        let now = tracker.configuration.clock.now()
        let monotonicNow = tracker.configuration.clock.monotonicNow()
        let defaults = tracker.autoTrackSettings.exposure
        let enabled = context.isEnabled
        var due: [(order: Int, exposure: ElementExposure)] = []
        let deadline = state.withLock { state -> MonotonicInstant? in
            guard !state.isSuspended, enabled else {
                state.endAppearances()
                return nil
            }
            var earliest: MonotonicInstant?
            for (key, var entry) in state.entries {
                guard let element = entry.element.node else {
                    state.entries[key] = nil
                    continue
                }
                let options = entry.options ?? defaults
                let position = element.listPosition
                if position != entry.position {
                    entry.timelines[entry.position]?.endAppearance()
                    entry.position = position
                }
                var timeline = entry.timelines[position] ?? ExposureTimeline(options: options)
                timeline.options = options
                if timeline.observe(visibleRatio: ElementVisibility.visibleRatio(of: element), at: monotonicNow) {
                    due.append((entry.order, ElementExposure(
                        element: context.snapshot(of: element), screen: element.owningScreen.map(context.snapshot(of:)),
                        properties: entry.properties, eventName: entry.eventName, time: now, monotonic: monotonicNow)))
                }
                if let pending = timeline.deadline { earliest = min(earliest ?? pending, pending) }
                entry.timelines[position] = timeline
                state.entries[key] = entry
            }
            watching.store(state.entries.count, ordering: .relaxed)
            return earliest
        }
        for (_, exposure) in due.sorted(by: { $0.order < $1.order }) {
            if context.excludes(element: exposure.element, screen: exposure.screen) {
                context.count(.filtered)
            } else {
                tracker.receive(exposure)
            }
        }
        // The host schedules on the wall clock: the monotonic wait from now.
        return deadline.map { deadline in
            let wait = deadline - monotonicNow
            let milliseconds = wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000
            let (sum, overflow) = now.millisecondsSince1970.addingReportingOverflow(max(0, milliseconds))
            return Timestamp(millisecondsSince1970: overflow ? .max : sum)
        }
    }
}

extension ElementExposureMonitor.State {
    mutating func endAppearances() {
        for key in entries.keys {
            for position in entries[key]!.timelines.keys { entries[key]!.timelines[position]!.endAppearance() }
        }
    }
}

/// One exposure due: what the tracker turns into its event.
struct ElementExposure: Sendable {
    var element: ElementSnapshot
    let screen: ScreenSnapshot?
    let properties: Properties
    let eventName: EventName
    let time: Timestamp
    let monotonic: MonotonicInstant
}
