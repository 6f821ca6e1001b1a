/// AutoTrackInterception: `InteractionContext`, `InteractionSink` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackEvents
import AutoTrackProperties
import AutoTrackLocking
import Dispatch

// MARK: Automatic capture: the seam for hosts

extension Tracker {
    /// The sink a host framework hands its interactions to: each becomes a `$AppClick`
    /// or `$AppViewScreen` with this tracker's identity and super properties at the
    /// moment of the call. The sink holds the tracker weakly.
    public var interactionSink: any InteractionSink { TrackerInteractionSink(tracker: self) }

    /// A context for a host's hooks or capture code: reports to this tracker, writes
    /// paths in the configured style, filters with the configured action filter and
    /// exclusions and then the run-time ``autoTrackSettings`` (its
    /// `settings` stage, counted in
    /// ``TrackerDiagnostics/ignoredBySettings`` too), and adds its counters to
    /// ``diagnostics``.
    public func makeInteractionContext() -> InteractionContext {
        let context = InteractionContext(
            sink: TrackerInteractionSink(tracker: self, appliesSettings: false), pathStyle: configuration.pathStyle,
            exclusions: configuration.exclusions, actionFilter: configuration.actionFilter,
            elementTypeConvention: configuration.elementTypeConvention,
            additionalFilters: [InteractionFilterPipeline.Stage(.settings, SettingsFilter(tracker: self))])
        state.withLock { state in
            state.contexts.removeAll { entry in
                guard entry.context == nil else { return false }
                state.releasedContexts += entry.counters.snapshot
                return true
            }
            state.contexts.append(ContextCounters(context: context, counters: context.counters))
        }
        return context
    }

    /// A monitor that records `$AppElementExposure` for the elements the app watches,
    /// reporting through `context` — by default a new one of
    /// ``makeInteractionContext()`` — so exposures follow its exclusions, path style
    /// and on/off switch. See ``ElementExposureMonitor``.
    public func makeExposureMonitor(context: InteractionContext? = nil) -> ElementExposureMonitor {
        ElementExposureMonitor(tracker: self, context: context ?? makeInteractionContext())
    }

    /// The automatic-capture settings in force: which automatic events are recorded
    /// and which screens, element types and element ids are ignored. Setting them takes
    /// effect from the next interaction, on any thread.
    public var autoTrackSettings: AutoTrackSettings {
        get { state.withLock { $0.settings } }
        set { state.withLock { $0.settings = newValue } }
    }

    /// Applies a JSON settings document (see ``AutoTrackSettings``) to the settings in
    /// force: the keys it holds change, the others stay — `{}` changes nothing, it never
    /// resets silently. Returns the settings that changed. A document that is not valid
    /// leaves the settings in force unchanged and is reported as a typed error.
    @discardableResult
    public func loadAutoTrackSettings(json bytes: some Collection<UInt8>) throws(AutoTrackSettingsError) -> Set<AutoTrackSettings.Setting> {
        let bytes = Array(bytes)
        return try state.withLock { (state) throws(AutoTrackSettingsError) -> Set<AutoTrackSettings.Setting> in
            let updated = try state.settings.applying(json: bytes)
            defer { state.settings = updated }
            return updated.differences(from: state.settings)
        }
    }

    /// Tracks `$AppStart` (with `$resume_from_background`) and starts the session whose
    /// length `$AppEnd` reports. A host calls it at launch and on every return from
    /// the background.
    ///
    /// A passive launch — the system started the app in the background (a background
    /// fetch, a silent push, a location event) and no one sees it — is still an
    /// `$AppStart`, marked `$app_state` `background`, so it can be told apart from a
    /// launch the user made (`$app_state` `foreground`).
    public func trackAppStart(resumingFromBackground resumed: Bool, passively: Bool = false) {
        let time = configuration.clock.now()
        let monotonic = configuration.clock.monotonicNow()
        if !resumed { trackInstallIfFirstLaunch(at: time, monotonic: monotonic) }
        let recorded = state.withLock { state in
            state.sessionStart = monotonic
            state.isPassiveLaunch = passively
            return state.recordsAutomatic(.appStart)
        }
        guard recorded else { return }
        let properties: Properties = [
            "$resume_from_background": .bool(resumed), "$app_state": .string(passively ? "background" : "foreground"),
        ]
        submit(Submission(time: time, monotonic: monotonic, context: callContext(), content: .lifecycle(.appStart, properties)))
    }

    /// Whether this is the first call: the launch is this tracker's to record, once.
    /// For hosts that enable and disable capture at run time.
    package func claimLaunch() -> Bool {
        state.withLock { state in
            defer { state.launchClaimed = true }
            return !state.launchClaimed
        }
    }

    /// Tracks `$AppEnd` with the session's `$event_duration` in seconds, measured on
    /// the monotonic clock (a wall clock moved during the session does not change it).
    /// A host calls it on every move to the background.
    public func trackAppEnd() {
        let time = configuration.clock.now()
        let monotonic = configuration.clock.monotonicNow()
        let (start, recorded) = state.withLock { ($0.sessionStart, $0.recordsAutomatic(.appEnd)) }
        guard recorded else {
            leaveScreen()
            return
        }
        var properties: Properties = [:]
        if let start {
            properties["$event_duration"] = .number(Self.seconds(monotonic - start))
        }
        submit(Submission(time: time, monotonic: monotonic, context: callContext(), content: .lifecycle(.appEnd, properties)))
    }

    /// Takes one due exposure from a monitor: the settings decide, the event is built
    /// on the worker with the exposure's time.
    func receive(_ exposure: ElementExposure) {
        guard let (parts, text) = partsIfRecorded({ $0.records(.appElementExposure, element: exposure.element, screen: exposure.screen) }) else { return }
        var exposure = exposure
        text.apply(to: &exposure.element)
        submit(Submission(time: exposure.time, monotonic: exposure.monotonic, context: CallContext.make(from: parts), content: .exposure(exposure)))
    }

    /// Takes one interaction, on the thread of the user action: stamps the time and the
    /// identity; the event is built on the worker. With `appliesSettings`, the
    /// settings decide first — an interaction that did not come through a context of
    /// ours, whose pipeline asked them already.
    func receive(_ interaction: Interaction, appliesSettings: Bool) {
        switch interaction.point.kind {
        case .click, .screenView: break
        case .touch:
            // A touch is no event: it waits for a click or screen view to answer it.
            if let element = interaction.element { noteTap(on: element, screen: interaction.screen) }
            return
        case .appOpen:
            if let notification = interaction.details.notification {
                trackPushOpen(title: notification.title, content: notification.body, service: notification.service)
            } else if let link = interaction.details.openedURL {
                trackDeepLink(link)
            }
            return
        }
        let parts: CallContext.Parts
        let text: ElementTextPolicy
        if appliesSettings {
            guard let recorded = partsIfRecorded({ $0.records(interaction) }) else {
                if interaction.point.isScreenView { excludedScreenView(interaction) }
                return
            }
            (parts, text) = recorded
        } else {
            (parts, text) = state.withLock { (CallContext.Parts($0), $0.settings.elementText) }
        }
        var interaction = interaction
        if let element = interaction.element, text.changesText || element.isTextMasked { text.apply(to: &interaction.element!) }
        submit(Submission(
            now: configuration.clock, context: CallContext.make(from: parts), content: .interaction(CapturedInteraction(interaction))))
    }

    /// Whether the settings in force record `interaction`; counts it in
    /// ``TrackerDiagnostics/ignoredBySettings`` when they do not.
    func settingsRecord(_ interaction: Interaction) -> Bool {
        state.withLock { state in
            guard state.settings.records(interaction) else {
                state.diagnostics.ignoredBySettings += 1
                return false
            }
            return true
        }
    }

    /// A screen view that is not recorded, and what it means for page time: an alert
    /// changes nothing (the screen under it stays the page); a screen kept out only
    /// because `$AppViewScreen` is off, with `$AppPageLeave` on, opens its page
    /// silently; any other (an ignored or system screen) pauses the page under it
    /// when presented over it (a sheet, until it is dismissed) and ends it otherwise.
    func excludedScreenView(_ interaction: Interaction) {
        guard let screen = interaction.screen, screen.presentation.isPage else { return }
        let pageOnly = state.withLock { state -> CallContext.Parts? in
            let settings = state.settings
            guard settings.eventTypes.contains(.appPageLeave), !settings.eventTypes.contains(.appViewScreen),
                  !settings.ignoredScreenTypes.containsAny(of: screen.typeHierarchy),
                  !configuration.exclusions.screenTypes.containsAny(of: screen.typeHierarchy) else { return nil }
            return CallContext.Parts(state)
        }
        guard let pageOnly else {
            // A sheet with no page of its own still takes the user's attention: the
            // page under it pauses until it is dismissed.
            if !screen.presentation.presenterDisappears, let root = screen.presentationRoot {
                submit(Submission(now: configuration.clock, context: callContext(), content: .screenCovered(presentationRoot: root)))
            } else {
                leaveScreen()
            }
            return
        }
        submit(Submission(
            now: configuration.clock, context: CallContext.make(from: pageOnly),
            content: .interaction(CapturedInteraction(interaction, recordsScreenView: false))))
    }

    /// `screen` disappeared: its page ends (with its `$AppPageLeave`) and the page
    /// under it, if one was paused, resumes.
    func screenDisappeared(_ screen: ScreenSnapshot) {
        submit(Submission(now: configuration.clock, context: callContext(), content: .screenDisappeared(ScreenDeparture(screen))))
    }

    /// The screen shown was left with no screen view of its own to record: its
    /// `$AppPageLeave` is due now.
    func leaveScreen() {
        submit(Submission(now: configuration.clock, context: callContext(), content: .leftScreen))
    }

    /// The call context of an automatic event the settings record, or `nil` (counted in
    /// ``TrackerDiagnostics/ignoredBySettings``) when they do not: the settings check and
    /// the call context share one acquisition of the lock.
    private func partsIfRecorded(_ records: (AutoTrackSettings) -> Bool) -> (CallContext.Parts, ElementTextPolicy)? {
        state.withLock { state -> (CallContext.Parts, ElementTextPolicy)? in
            guard records(state.settings) else {
                state.diagnostics.ignoredBySettings += 1
                return nil
            }
            return (CallContext.Parts(state), state.settings.elementText)
        }
    }

    /// `duration` in seconds, never negative, to the millisecond.
    static func seconds(_ duration: Duration) -> Double {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return Double(max(0, milliseconds)) / 1000
    }
}

extension ElementTextPolicy {
    /// Applies the policy to a snapshot's properties, masking whatever the level when
    /// the element's view asks for it.
    func apply(to element: inout ElementSnapshot) {
        guard changesText || element.isTextMasked else { return }
        apply(to: &element.properties, elementMasked: element.isTextMasked)
    }
}

// MARK: Taps

extension Tracker {
    /// Reports a tap the host saw — a touch that ended on `element` — so a tap nothing
    /// answers becomes a dead click: when no click or screen view follows within
    /// ``AutoTrackSettings/deadClickTimeout``, `$AppDeadClick` is recorded at the tap's
    /// time with its screen's and element's properties. A host calls it for every tap
    /// it delivers (UIKit: from `-[UIApplication sendEvent:]` at touch end), before
    /// the actions it triggers. Elements whose taps may do nothing
    /// (`tapsMayDoNothing`) and ignored ones are left out; nothing happens unless the
    /// settings record ``AutomaticEventTypes/appDeadClick``.
    public func noteTap(on element: ElementSnapshot, screen: ScreenSnapshot?) {
        guard !element.tapsMayDoNothing, !element.isIgnored else { return }
        let recorded = state.withLock { state -> (CallContext.Parts, ElementTextPolicy, Duration)? in
            guard state.settings.records(.appDeadClick, element: element, screen: screen) else { return nil }
            return (CallContext.Parts(state), state.settings.elementText, state.settings.deadClickTimeout)
        }
        guard let (parts, text, timeout) = recorded else { return }
        var element = element
        text.apply(to: &element)
        var properties = screen?.properties ?? [:]
        properties.merge(element.properties)
        submit(Submission(now: configuration.clock, context: CallContext.make(from: parts), content: .tap(properties)))
        // Checked again once the timeout has passed, should nothing else come.
        worker.asyncAfter(deadline: .now() + (timeout + .milliseconds(10)).dispatchInterval) { [weak self] in
            self?.drainSubmissions(expiringTaps: true)
        }
    }
}
