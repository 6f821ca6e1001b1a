import AutoTrackInterception
import AutoTrackProperties
import AutoTrackEvents
import AutoTrackLocking

/// Turns submissions into events: their names, library method and layered properties,
/// `$referrer` for screen views and the `$AppPageLeave` of the page a submission
/// closes. Worker thread only (screen views update the referrer chain in submission
/// order); the lock only makes that confinement safe to state.
final class EventAssembler: Sendable {
    private let rules: PropertyRules
    private let eventIDs: any EventIDGenerator
    private let library: (name: String, version: String, appVersion: String)
    private let history = Locked(ScreenHistory())
    private let rageClicks = Locked(RageClickDetector())
    private let deadClicks = Locked(DeadClickDetector())

    init(configuration: TrackerConfiguration) {
        rules = configuration.rules
        eventIDs = configuration.eventIDs
        library = (configuration.device.library, configuration.device.libraryVersion, configuration.device.appVersion)
    }

    /// The event of `submission`, or `nil` for one that only closes a page.
    func event(for submission: Submission, repairs: inout SanitizationReport) -> Event? {
        let name: EventName
        let method: LibraryMethod
        var autotrack = Properties()
        var caller = Properties()
        switch submission.content {
        case .code(let eventName, let properties, let report):
            (name, method, caller) = (eventName, .code, properties)
            repairs.add(report)
        case .manualClick(let collected, let properties, let report):
            (name, method, autotrack, caller) = (.appClick, .code, collected, properties)
            repairs.add(report)
        case .lifecycle(let eventName, let properties):
            (name, method, autotrack) = (eventName, .autoTrack, properties)
        case .leftScreen, .screenDisappeared, .screenCovered, .tap:
            return nil
        case .exposure(let exposure):
            (name, method, caller) = (exposure.eventName, .autoTrack, exposure.properties)
            autotrack = exposure.screen?.properties ?? [:]
            autotrack.merge(exposure.element.properties)
        case .interaction(let interaction):
            method = .autoTrack
            autotrack = interaction.screenProperties ?? [:]
            if interaction.isScreenView {
                name = .appViewScreen
                let current = interaction.screenReference
                let isReturn = interaction.isReturnFromBackground
                let referrer = history.withLock { $0.referrer(ofScreenView: current, returningFromBackground: isReturn) }
                if let referrer { autotrack["$referrer"] = .string(referrer) }
                if interaction.presentation.isPage {
                    let page = ScreenHistory.OpenPage(
                        properties: autotrack, since: submission.monotonic, instance: interaction.screenInstance,
                        presentationRoot: interaction.presentationRoot)
                    history.withLock { history in
                        // A screen shown again is open, not paused (it came back by
                        // another way, as after the background).
                        if let instance = page.instance { history.pausedPages.removeAll { $0.page.instance == instance } }
                        history.openPage = page
                    }
                }
                guard interaction.recordsScreenView else { return nil }
            } else {
                name = .appClick
                if let element = interaction.elementProperties { autotrack.merge(element) }
            }
        }
        return event(name, method: method, autotrack: autotrack, caller: caller, for: submission, repairs: &repairs)
    }

    /// The `$AppPageLeave` of the page `submission` closes (see
    /// ``ScreenHistory/pageClosed(by:at:)``: a screen view, a screen presented over it,
    /// its disappearance, the app going to the background), with `event_duration` in
    /// seconds since it opened or resumed, on the monotonic clock; `nil` when no page
    /// closes or page leaves are not `recorded` (the page closes all the same). Before
    /// `submission`'s own event.
    func pageLeave(closedBy submission: Submission, recorded: Bool, repairs: inout SanitizationReport) -> Event? {
        switch submission.content {
        case .interaction(let interaction) where interaction.isScreenView: break
        case .lifecycle(let name, _) where name == .appEnd: break
        case .leftScreen, .screenDisappeared, .screenCovered: break
        default: return nil  // clicks and code events close no page: no lock taken
        }
        // Not counted when off: no interaction was captured and dropped.
        guard let closed = history.withLock({ $0.pageClosed(by: submission.content, at: submission.monotonic) }), recorded else { return nil }
        var autotrack = closed.properties
        autotrack["event_duration"] = .number(Tracker.seconds(submission.monotonic - closed.since))
        return event(.appPageLeave, method: .autoTrack, autotrack: autotrack, caller: [:], for: submission, repairs: &repairs)
    }

    /// The `$AppRageClick` that `submission` — a click — completes under `rule`
    /// (`nil`: not recorded), with the click's screen and element properties and
    /// `$rage_click_count`. After the click's own event.
    func rageClick(after submission: Submission, rule: RageClickRule?, repairs: inout SanitizationReport) -> Event? {
        guard let rule, case .interaction(let interaction) = submission.content else { return nil }
        if interaction.isScreenView || interaction.allowsRapidTaps {
            rageClicks.withLock { $0.reset() }
            return nil
        }
        var autotrack = interaction.screenProperties ?? [:]
        if let element = interaction.elementProperties { autotrack.merge(element) }
        let key = "\(autotrack["$screen_name"].map { "\($0)" } ?? "")|\(autotrack["$element_id"].map { "\($0)" } ?? "")"
        guard let count = rageClicks.withLock({ $0.click(on: key, at: submission.monotonic, rule: rule) }) else { return nil }
        autotrack["$rage_click_count"] = .integer(Int64(count))
        return event(.appRageClick, method: .autoTrack, autotrack: autotrack, caller: [:], for: submission, repairs: &repairs)
    }

    /// The `$AppDeadClick`s due before `submission` — taps whose `timeout` passed
    /// without an answer — and what `submission` does to the taps waiting: a click or
    /// screen view answers them, a tap joins them. `timeout` `nil`: not recorded.
    func deadClicks(before submission: Submission, timeout: Duration?, repairs: inout SanitizationReport) -> [Event] {
        guard let timeout else { return [] }
        let due = expiredDeadClicks(at: submission.monotonic, timeout: timeout, repairs: &repairs)
        switch submission.content {
        // A screen view answers the taps waiting; a click, the tap that triggered it
        // (and taps on the same element); leaving the app (a tap that opened a link or
        // another app) ends them all.
        case .interaction(let interaction) where !interaction.isScreenView:
            deadClicks.withLock { $0.answered(byClickOn: interaction.elementProperties, at: submission.monotonic) }
        case .interaction, .leftScreen: deadClicks.withLock { $0.responded() }
        case .lifecycle(let name, _) where name == .appEnd: deadClicks.withLock { $0.responded() }
        case .tap(let properties):
            deadClicks.withLock { $0.tapped(DeadClickDetector.PendingTap(submission: submission, properties: properties), timeout: timeout) }
        default: break
        }
        return due
    }

    /// The `$AppDeadClick`s of taps whose `timeout` has passed by `now`, at their
    /// taps' times.
    func expiredDeadClicks(at now: MonotonicInstant, timeout: Duration, repairs: inout SanitizationReport) -> [Event] {
        let taps = deadClicks.withLock { $0.expired(at: now, timeout: timeout) }
        return taps.map { tap in event(.appDeadClick, method: .autoTrack, autotrack: tap.properties, caller: [:], for: tap.submission, repairs: &repairs) }
    }

    /// Forgets the pages, bursts and taps in progress: consent was denied, nothing of
    /// before may be reported after.
    func reset() {
        history.withLock { history in
            history.openPage = nil
            history.pausedPages.removeAll()
        }
        rageClicks.withLock { $0.reset() }
        deadClicks.withLock { $0.responded() }
    }

    /// Whether taps wait for an answer.
    var hasPendingTaps: Bool { deadClicks.withLock { !$0.pending.isEmpty } }

    /// An event of `submission`'s time and caller context, its properties layered — all
    /// but the presets, which are added as it is stored.
    ///
    /// Only the layers not checked before are sanitised here: the SDK's automatic
    /// properties and dynamic super properties (the presets were at start, the caller's
    /// properties and static super properties when they were handed over).
    private func event(
        _ name: EventName, method: LibraryMethod, autotrack: Properties, caller: Properties, for submission: Submission,
        repairs: inout SanitizationReport
    ) -> Event {
        let superProperties = submission.context.superPropertiesAreChecked
            ? submission.context.superProperties : rules.sanitized(submission.context.superProperties, report: &repairs)
        let properties = Properties.layered(
            superProperties: superProperties,
            autotrack: autotrack.isEmpty ? autotrack : rules.sanitized(autotrack, report: &repairs), caller: caller)
        return Event(
            id: eventIDs.next(), name: name, time: submission.time, identity: submission.context.identity,
            library: LibraryInfo(name: library.name, version: library.version, method: method, appVersion: library.appVersion),
            properties: properties)
    }
}
