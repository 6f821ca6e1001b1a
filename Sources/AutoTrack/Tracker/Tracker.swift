/// AutoTrackEvents: `Identity`, `Properties`, `SanitizationReport`, `ValidationError` appear in this file's public API.
public import AutoTrackEvents
/// AutoTrackInterception: `InteractionContext`, `InteractionSink`, `InterceptionDiagnostics` appear in this file's public API.
public import AutoTrackInterception
/// AutoTrackProperties: `ElementNode` appears in this file's public API.
public import AutoTrackProperties
import AutoTrackSerialization
import Dispatch
import Foundation
import Synchronization

/// What a tracker has done, for monitoring and tests.
public struct TrackerDiagnostics: Hashable, Sendable {
    /// Events queued.
    public var queued = 0
    /// Batches the worker stored: one write, and with `syncEachBatch` one `fsync`, each.
    public var storedBatches = 0
    /// Events that could not be stored (larger than the queue's record limit, the store
    /// failed, or tracked after ``Tracker/shutdown()``); counted, never silent.
    public var storeFailures = 0
    /// Events confirmed delivered.
    public var delivered = 0
    /// Events a collector refused for good (dropped, counted).
    public var rejected = 0
    /// Flushes that left events queued after a temporary failure.
    public var deferredFlushes = 0
    /// Events dropped because ``TrackerConfiguration/maximumPendingEvents`` were
    /// already waiting for the worker (counted, never silent).
    public var droppedWhileBusy = 0
    /// Queue reads or removals during a flush that failed (the events stay queued and
    /// are sent again by a later flush); counted, never swallowed.
    public var flushFailures = 0
    /// Repairs made to SDK-generated values.
    public var sanitized = SanitizationReport()
    /// Queue counters.
    public var queue = QueueStatistics()
    /// Automatic events not recorded because ``Tracker/autoTrackSettings`` turn their
    /// type off or ignore their screen, element type or element id (on purpose, and
    /// counted).
    public var ignoredBySettings = 0
    /// Interception counters (fail-open swallowing, filters, dedupe).
    public var interception = InterceptionDiagnostics()
}

/// The SDK façade: tracks events in code and automatically, queues them durably and
/// sends them in batches.
///
/// Capture happens on the caller's thread (validation of `track`, the element snapshot
/// of an automatic click); building, storing and sending happen on one serial worker
/// thread, in order.
public final class Tracker: Sendable {
    /// The configuration.
    public let configuration: TrackerConfiguration
    /// The durable queue.
    public let queue: DurableQueue
    private let transport: any Transport
    /// ``transport`` when it takes stored events as they are.
    private let wireTransport: (any EncodedEventTransport)?
    private let worker = DispatchQueue(label: "autotrack.tracker")
    private let state: Mutex<State>
    /// The presets, sanitised and encoded once: every stored event begins with them.
    private let encodedPresets: EncodedPropertyPrefix
    private let encoder: EventJSONEncoder
    private let decoder: EventJSONDecoder
    private let timer: Mutex<TimerBox?> = Mutex(nil)

    /// Holds the flush timer.
    final class TimerBox: @unchecked Sendable {
        // Safe: dispatch sources are thread-safe objects; the reference is immutable.
        let source: any DispatchSourceTimer
        init(_ source: any DispatchSourceTimer) { self.source = source }
    }

    struct State {
        /// Identity and static super properties as one object, made again when either
        /// changes: every event takes it with one reference count.
        var context: CallContext
        var dynamicSuperProperties: (@Sendable () -> Properties)?

        var identity: Identity {
            get { context.identity }
            set { context = CallContext(identity: newValue, superProperties: context.superProperties) }
        }

        var superProperties: Properties {
            get { context.superProperties }
            set { context = CallContext(identity: context.identity, superProperties: newValue) }
        }
        var diagnostics = TrackerDiagnostics()
        var contexts: [InteractionContext] = []
        var lastScreenReference: String?
        /// The `$referrer` of the last screen view: what a screen shown again on return
        /// from the background keeps (it did not come from itself).
        var lastScreenReferrer: String?
        var sessionStart: Timestamp?
        var settings: AutoTrackSettings
        /// The screen shown now, from its screen view: what its `$AppPageLeave` reports.
        var openPage: OpenPage?
        var isShutDown = false
        /// After a deferred flush, automatic flushes wait until then (doubling pauses,
        /// 1 s to 1 min), so a collector that is down does not keep the worker from
        /// storing; an explicit ``Tracker/flush()`` always tries.
        var automaticFlushPausedUntil: ContinuousClock.Instant?
        var automaticFlushPause: Duration = .seconds(1)
        /// Events handed over and not yet stored, oldest first.
        var submissions: [Submission] = []
        /// Whether the worker has a drain of `submissions` queued.
        var drainScheduled = false
        /// Submissions stored already, waiting to be released by the next submitting
        /// thread; see ``Tracker/releaseOnSubmittingThread(_:in:)``.
        var storedSubmissions: [Submission] = []
        /// Delayed drains scheduled by `submit`, not by the worker itself.
        var drainsScheduledBySubmitters = 0

        /// A screen being shown: its screen view's properties and when it appeared.
        struct OpenPage {
            var properties: Properties
            var since: Timestamp
        }

        /// Whether the settings record `type`; counts it when they do not.
        mutating func recordsAutomatic(_ type: AutomaticEventTypes) -> Bool {
            guard settings.eventTypes.contains(type) else {
                diagnostics.ignoredBySettings += 1
                return false
            }
            return true
        }
    }

    /// Opens the tracker: recovers the queue, loads (or creates) the anonymous id, and
    /// starts the flush timer.
    public init(configuration: TrackerConfiguration) throws(QueueError) {
        self.configuration = configuration
        queue = try DurableQueue(directory: configuration.storeDirectory.appendingPathComponent("queue"), limits: configuration.queueLimits)
        switch configuration.transport {
        case .localFile(let url): transport = LocalFileTransport(file: url, dateOffsetSeconds: configuration.dateOffsetSeconds)
        case .http(let endpoint, let format, let timeout): transport = HTTPTransport(endpoint: endpoint, wireFormat: format, timeout: timeout)
        case .custom(let custom): transport = custom
        }
        wireTransport = transport as? any EncodedEventTransport
        // Checked once: every event carries them.
        var presetRepairs = SanitizationReport()
        encoder = EventJSONEncoder(dateOffsetSeconds: configuration.dateOffsetSeconds)
        encodedPresets = EncodedPropertyPrefix(
            configuration.rules.sanitized(configuration.device.presetProperties, report: &presetRepairs), encoder: encoder)
        decoder = EventJSONDecoder(dateOffsetSeconds: configuration.dateOffsetSeconds)
        let anonymous = Self.loadAnonymousID(in: configuration.storeDirectory)
        var initial = State(context: CallContext(identity: .anonymous(anonymous), superProperties: [:]), settings: configuration.autoTrackSettings)
        initial.diagnostics.sanitized.add(presetRepairs)
        state = Mutex(initial)
        startTimer()
    }

    /// The stored anonymous id, or a new one stored privately (0600 in a 0700
    /// directory). A store that cannot be written gives an id for this run only.
    private static func loadAnonymousID(in directory: URL) -> String {
        let file = directory.appendingPathComponent("anonymous_id")
        if let bytes = PrivateFiles.read(file.path) {
            let stored = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !stored.isEmpty { return stored }
        }
        let created = UUID().uuidString
        _ = PrivateFiles.createDirectory(directory.path)
        _ = PrivateFiles.write(Array(created.utf8), to: file.path)
        return created
    }

    private func startTimer() {
        guard let interval = configuration.flushPolicy.interval else { return }
        let source = DispatchSource.makeTimerSource(queue: worker)
        let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        source.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(max(nanoseconds, 1_000_000)))
        source.setEventHandler { [weak self] in self?.automaticFlush() }
        source.resume()
        let box = TimerBox(source)
        timer.withLock { $0 = box }
    }

    // MARK: Identity

    /// Who events are about now.
    public var identity: Identity { state.withLock { $0.identity } }

    /// Sets the anonymous (device) id.
    public func identify(anonymousID: String) throws(ValidationError) {
        try configuration.rules.checkIdentifier(anonymousID, field: "anonymous_id")
        state.withLock { state in
            let login = state.identity.loginID
            state.identity = login.map { .loggedIn($0, anonymousID: anonymousID) } ?? .anonymous(anonymousID)
        }
    }

    /// Files later events under `loginID`.
    public func login(_ loginID: String) throws(ValidationError) {
        try configuration.rules.checkIdentifier(loginID, field: "login_id")
        state.withLock { $0.identity = .loggedIn(loginID, anonymousID: $0.identity.anonymousID) }
    }

    /// Files later events under the anonymous id again.
    public func logout() {
        state.withLock { $0.identity = .anonymous($0.identity.anonymousID ?? $0.identity.distinctID) }
    }

    // MARK: Super properties

    /// Adds properties to every later event (validated like a caller's).
    public func registerSuperProperties(_ properties: Properties) throws(ValidationError) {
        let checked = try configuration.rules.validated(properties)
        state.withLock { $0.superProperties.merge(checked) }
    }

    /// Removes one super property.
    public func unregisterSuperProperty(_ key: String) {
        state.withLock { _ = $0.superProperties.removeValue(forKey: key) }
    }

    /// Removes every super property.
    public func clearSuperProperties() {
        state.withLock { $0.superProperties.removeAll() }
    }

    /// Properties computed at each event (sanitised, not thrown), merged over the static
    /// super properties.
    public func setDynamicSuperProperties(_ provider: (@Sendable () -> Properties)?) {
        state.withLock { $0.dynamicSuperProperties = provider }
    }

    // MARK: Tracking

    /// Tracks an event from the app's code. Name, identity and properties are validated
    /// here, on the caller's thread, and reported as a typed error; the event is then
    /// built, stored and sent on the worker thread.
    public func track(_ name: String, properties: Properties = [:]) throws(ValidationError) {
        let eventName = try EventName(validating: name, rules: configuration.rules)
        var report = SanitizationReport()
        let checked = try configuration.rules.validated(properties, report: &report)
        submit(Submission(time: configuration.clock.now(), context: callContext(),
                          content: .code(eventName, properties: checked, repairs: report)))
    }

    /// Tracks a `$AppClick` on `element` from the app's code, for a view no hook sees
    /// (a custom-drawn control, a click the app decides on itself). The element's
    /// properties — screen, `$element_type`, `$element_content`, position, path and
    /// id, in the configured path style and type convention, with the element's own
    /// custom id and properties — are read now, on the caller's thread, as a hook
    /// would read them; `properties` are validated here and win over them. The event
    /// says `$lib_method` `code`; an element marked ignored is still tracked, since
    /// the app asked for it by name.
    public func trackAppClick(element: any ElementNode, properties: Properties = [:]) throws(ValidationError) {
        var report = SanitizationReport()
        let checked = try configuration.rules.validated(properties, report: &report)
        var collected = element.owningScreen.map { ScreenProperties.collect(for: $0) } ?? [:]
        collected.merge(ElementProperties(pathStyle: configuration.pathStyle, typeConvention: configuration.elementTypeConvention)
            .collect(for: element))
        collected.merge(ControlAttributes.collect(for: element))
        submit(Submission(time: configuration.clock.now(), context: callContext(),
                          content: .manualClick(collected, properties: checked, repairs: report)))
    }

    /// Who an event is about and its super properties, taken on the caller's thread at
    /// the moment of the call — a `logout()` right after `track` does not change it.
    /// Immutable and shared: events tracked between two changes hold the same one.
    final class CallContext: Sendable {
        let identity: Identity
        let superProperties: Properties
        /// Whether every super property was validated already (the static ones are,
        /// when registered); dynamic ones are sanitised with the event.
        let superPropertiesAreChecked: Bool

        init(identity: Identity, superProperties: Properties, superPropertiesAreChecked: Bool = true) {
            self.identity = identity
            self.superProperties = superProperties
            self.superPropertiesAreChecked = superPropertiesAreChecked
        }
    }

    private func callContext() -> CallContext {
        Self.callContext(state.withLock { CallContextParts($0) })
    }

    /// What a call context is made of, taken under the state lock; the dynamic super
    /// properties are asked for outside it.
    private struct CallContextParts {
        let context: CallContext
        let dynamic: (@Sendable () -> Properties)?

        init(_ state: borrowing State) {
            context = state.context
            dynamic = state.dynamicSuperProperties
        }
    }

    private static func callContext(_ parts: CallContextParts) -> CallContext {
        guard let dynamic = parts.dynamic else { return parts.context }
        return CallContext(
            identity: parts.context.identity, superProperties: parts.context.superProperties.merging(dynamic()), superPropertiesAreChecked: false)
    }

    /// One event handed from a caller's thread to the worker.
    /// A class, not a struct: a submission is copied into the buffer, out of it and
    /// through the worker's loop, and each copy of a struct would retain every string
    /// and collection in it.
    final class Submission: Sendable {
        let time: Timestamp
        let context: CallContext
        let content: Content

        init(time: Timestamp, context: CallContext, content: Content) {
            self.time = time
            self.context = context
            self.content = content
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
            /// background with `$AppEnd` off, or a screen the settings ignore appeared —
            /// so its `$AppPageLeave` is due.
            case leftScreen
        }
    }

    /// How long a submission may wait for others before the worker stores them: the
    /// first event after a quiet spell schedules a drain instead of waking the worker
    /// at every event (a wake-up cost the calling thread more than capturing a click),
    /// the worker then comes back by itself while events keep coming, and the events of
    /// a burst are stored together. ``waitUntilQueued()``, ``flush()`` and
    /// ``shutdown()`` drain at once.
    static let submissionBatchingDelay: DispatchTimeInterval = .milliseconds(1)

    /// Past this many waiting submissions the worker is woken at once, so a burst
    /// never waits for the delay with a large buffer.
    static let submissionBatchLimit = 256

    /// Hands an event to the worker. Submissions wait in one buffer — for at most
    /// ``submissionBatchingDelay`` — and are stored together: one write, and at most
    /// one `fsync`, per batch, in the order they were submitted.
    private func submit(_ submission: Submission) {
        let (scheduleDrain, drainNow, released) = state.withLock { state -> (Bool, Bool, (Submission?, Submission?)) in
            // Two stored submissions leave with each new one: the backlog of a batch is
            // released at twice the rate submissions arrive, a few at a time.
            let released = (state.storedSubmissions.popLast(), state.storedSubmissions.popLast())
            guard state.submissions.count < configuration.maximumPendingEvents else {
                state.diagnostics.droppedWhileBusy += 1
                return (false, false, released)
            }
            state.submissions.append(submission)
            defer { state.drainScheduled = true }
            if !state.drainScheduled { state.drainsScheduledBySubmitters += 1 }
            return (!state.drainScheduled, state.submissions.count == Self.submissionBatchLimit, released)
        }
        // Freed here, outside the lock.
        withExtendedLifetime(released) {}
        if drainNow {
            worker.async { [self] in drainSubmissions() }
        } else if scheduleDrain {
            scheduleDelayedDrain()
        }
    }

    /// Queues a drain on the worker after ``submissionBatchingDelay``; `drainScheduled`
    /// is set while it is pending.
    private func scheduleDelayedDrain() {
        worker.asyncAfter(deadline: .now() + Self.submissionBatchingDelay) { [self] in drainSubmissions(delayed: true) }
    }

    /// Builds, sanitises and stores every waiting submission, then sends when the batch
    /// is full. Worker thread only.
    ///
    /// A `delayed` drain — the one `drainScheduled` announces — that found events
    /// comes back after the delay by itself, so while events keep coming no caller
    /// schedules the worker (a timer set up from the calling thread cost it more than
    /// the rest of handing over a click); the first drain that finds nothing ends that.
    /// Other drains (a full buffer, ``waitUntilQueued()``, ``flush()``) leave the
    /// pending one be.
    private func drainSubmissions(delayed: Bool = false) {
        let submissions = state.withLock { state -> [Submission] in
            if delayed { state.drainScheduled = !state.submissions.isEmpty }
            defer { state.submissions.removeAll(keepingCapacity: true) }
            return state.submissions
        }
        guard !submissions.isEmpty else { return }
        if delayed { scheduleDelayedDrain() }
        var repairs = SanitizationReport()
        var oversized = 0
        // Events are built without the presets, which the encoder writes as encoded
        // once (and the members after the properties, once per identity in a batch),
        // straight into the buffer that is written to the queue; the observer sees them
        // whole.
        var tails: EncodedEventTails? = EncodedEventTails()
        var records = EventRecordWriter(
            headerBytes: DurableQueue.recordHeaderBytes, reservingCapacity: submissions.count * (encodedPresets.byteCount + 384))
        for submission in submissions {
            // One call context, one identity; the library differs only in its method.
            tails?.identitySource = submission.context
            store(pageLeave(closedBy: submission, repairs: &repairs), into: &records, tails: &tails, oversized: &oversized)
            store(build(submission, repairs: &repairs), into: &records, tails: &tails, oversized: &oversized)
        }
        var storeFailures = oversized
        let sizes = records.payloadSizes
        do {
            try records.withBytes { (bytes) throws(QueueError) in
                try queue.append(framing: bytes, payloadSizes: sizes, sync: configuration.syncEachBatch)
            }
        } catch {
            storeFailures += sizes.count
        }
        let stored = sizes.count + oversized - storeFailures
        state.withLock {
            Self.releaseOnSubmittingThread(submissions, in: &$0)
            $0.diagnostics.queued += stored
            if stored > 0 { $0.diagnostics.storedBatches += 1 }
            $0.diagnostics.storeFailures += storeFailures
            $0.diagnostics.sanitized.add(repairs)
        }
        if queue.statistics.pendingRecords >= configuration.flushPolicy.batchSize { automaticFlush() }
    }

    /// Shows `event` to the observer and encodes it into `records`; one too large for
    /// the queue is taken out again and counted in `oversized`. Worker thread only.
    private func store(_ event: Event?, into records: inout EventRecordWriter, tails: inout EncodedEventTails?, oversized: inout Int) {
        guard let event else { return }
        if let observer = configuration.eventObserver {
            var whole = event
            whole.properties = encodedPresets.properties.merging(event.properties)
            observer(whole)
        }
        if records.append(event, encoder: encoder, after: encodedPresets, tails: &tails) > queue.limits.maximumRecordBytes {
            records.removeLast()
            oversized += 1
        }
    }

    /// At most this many stored submissions wait for a submitting thread to release
    /// them; past it the worker releases them itself. It bounds what an app that stops
    /// tracking keeps alive (a click's submission is about a kilobyte).
    static let storedSubmissionsKept = 512

    /// Hands stored submissions back, to be released by the next calls to `submit`.
    ///
    /// A submission and what it holds — the interaction, its snapshots and property
    /// collections — were allocated on the thread that submitted it. Released on the
    /// worker, every one of those blocks goes back to that thread's allocator across
    /// threads: with glibc's malloc into the submitting thread's arena, under its lock,
    /// while the same thread allocates the next click there. Measured with `autotrack
    /// bench pipeline`, that contention made an autotracked tap cost its thread about a
    /// third more. Released by a submitting thread, the blocks are reused by its next
    /// allocations. Worker thread, under the state lock.
    private static func releaseOnSubmittingThread(_ submissions: [Submission], in state: inout State) {
        let room = storedSubmissionsKept - state.storedSubmissions.count
        guard room > 0 else { return }
        if state.storedSubmissions.isEmpty, submissions.count <= room {
            state.storedSubmissions = submissions
        } else {
            state.storedSubmissions.append(contentsOf: submissions.prefix(room))
        }
    }

    /// Turns a submission into its event. Worker thread only (screen views update the
    /// referrer chain, in submission order).
    private func build(_ submission: Submission, repairs: inout SanitizationReport) -> Event? {
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
        case .leftScreen:
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
                let referrer = state.withLock { state -> String? in
                    // Shown again on return from the background: the same screen, the
                    // same referrer as when it appeared.
                    if isReturn, current == state.lastScreenReference { return state.lastScreenReferrer }
                    defer {
                        state.lastScreenReferrer = state.lastScreenReference
                        state.lastScreenReference = current
                    }
                    return state.lastScreenReference
                }
                if let referrer { autotrack["$referrer"] = .string(referrer) }
                let page = State.OpenPage(properties: autotrack, since: submission.time)
                state.withLock { $0.openPage = page }
            } else {
                name = .appClick
                if let element = interaction.elementProperties { autotrack.merge(element) }
            }
        }
        return event(name, method: method, autotrack: autotrack, caller: caller, for: submission, repairs: &repairs)
    }

    /// The `$AppPageLeave` of the screen shown, when `submission` leaves it — another
    /// screen view, or the app going to the background — with `event_duration` in
    /// seconds since its screen view; `nil` when no screen is shown or page leaves
    /// are off. Worker thread only, before `submission`'s own event.
    private func pageLeave(closedBy submission: Submission, repairs: inout SanitizationReport) -> Event? {
        switch submission.content {
        case .interaction(let interaction) where interaction.isScreenView: break
        case .lifecycle(let name, _) where name == .appEnd: break
        case .leftScreen: break
        default: return nil
        }
        let (closed, recorded) = state.withLock { state -> (State.OpenPage?, Bool) in
            guard let page = state.openPage else { return (nil, false) }
            state.openPage = nil
            // Not counted when off: no interaction was captured and dropped.
            return (page, state.settings.eventTypes.contains(.appPageLeave))
        }
        guard let closed, recorded else { return nil }
        var autotrack = closed.properties
        let milliseconds = max(0, submission.time.millisecondsSince1970 - closed.since.millisecondsSince1970)
        autotrack["event_duration"] = .number(Double(milliseconds) / 1000)
        return event(.appPageLeave, method: .autoTrack, autotrack: autotrack, caller: [:], for: submission, repairs: &repairs)
    }

    /// An event of `submission`'s time and caller context, its properties layered —
    /// all but the presets, which are added as it is stored.
    /// Only the layers not checked before are sanitised here: the SDK's automatic
    /// properties and dynamic super properties (the presets were at start, the
    /// caller's properties and static super properties when they were handed over).
    private func event(
        _ name: EventName, method: LibraryMethod, autotrack: Properties, caller: Properties, for submission: Submission,
        repairs: inout SanitizationReport
    ) -> Event {
        let rules = configuration.rules
        let superProperties = submission.context.superPropertiesAreChecked
            ? submission.context.superProperties : rules.sanitized(submission.context.superProperties, report: &repairs)
        let properties = Properties.layered(
            superProperties: superProperties,
            autotrack: autotrack.isEmpty ? autotrack : rules.sanitized(autotrack, report: &repairs), caller: caller)
        return Event(
            id: configuration.eventIDs.next(), name: name, time: submission.time, identity: submission.context.identity,
            library: LibraryInfo(name: configuration.device.library, version: configuration.device.libraryVersion, method: method,
                                 appVersion: configuration.device.appVersion),
            properties: properties)
    }

    // MARK: Flushing

    /// What one flush did.
    public struct FlushReport: Hashable, Sendable {
        /// Events delivered.
        public var delivered = 0
        /// Events refused for good.
        public var rejected = 0
        /// Whether events remain queued after a temporary failure.
        public var deferred = false
        /// What the collector said about the events it refused.
        public var rejectionReasons: [String] = []
    }

    /// Sends everything queued, batch by batch, and waits for it. Stops at the first
    /// temporary failure, leaving the rest queued.
    @discardableResult
    public func flush() -> FlushReport {
        worker.sync {
            drainSubmissions()
            return flushOnWorker()
        }
    }

    /// A flush the tracker starts by itself (a full batch, the interval), unless a
    /// recent one was deferred: then it waits, and the worker goes on storing.
    private func automaticFlush() {
        let paused = state.withLock { state in state.automaticFlushPausedUntil.map { ContinuousClock.now < $0 } ?? false }
        guard !paused else { return }
        let report = flushOnWorker()
        state.withLock { state in
            if report.deferred {
                state.automaticFlushPausedUntil = ContinuousClock.now + state.automaticFlushPause
                state.automaticFlushPause = min(state.automaticFlushPause * 2, .seconds(60))
            } else {
                state.automaticFlushPausedUntil = nil
                state.automaticFlushPause = .seconds(1)
            }
        }
    }

    /// Records handed to the transport per call: the policy's batch size, times the
    /// batches a wire-form transport takes at once.
    private var recordsPerDelivery: Int {
        let batches = wireTransport?.batchesPerDelivery ?? 1
        let (records, overflow) = configuration.flushPolicy.batchSize.multipliedReportingOverflow(by: max(1, batches))
        return overflow ? .max : records
    }

    private func flushOnWorker() -> FlushReport {
        var report = FlushReport()
        var failures = 0
        while true {
            let records: [DurableQueue.Record]
            do {
                records = try queue.peek(recordsPerDelivery)
            } catch {
                failures += 1
                report.deferred = true
                break
            }
            if records.isEmpty { break }
            let (result, events, recordOfEvent, undecodable) = deliver(records)
            switch result {
            case .accepted:
                report.delivered += events
                report.rejected += undecodable
                if !removeDelivered(records) {
                    failures += 1
                    report.deferred = true
                }
            case .rejected(let reason):
                report.rejected += records.count
                report.rejectionReasons.append(reason)
                if !removeDelivered(records) {
                    failures += 1
                    report.deferred = true
                }
            case .retryLater:
                report.deferred = true
            case .partial(let settled, let rejected, let reasons, let retryReason):
                // Records up to the first unsettled event are done with (undecodable
                // ones among them are rejected).
                let settledRecords = settled >= events ? records.count : recordOfEvent[settled]
                let undecodableSettled = settledRecords - min(settled, events)
                report.delivered += min(settled, events) - rejected.count
                report.rejected += rejected.count + undecodableSettled
                report.rejectionReasons += reasons
                if !removeDelivered(Array(records[..<settledRecords])) { failures += 1 }
                if retryReason != nil || settledRecords < records.count || failures > 0 { report.deferred = true }
            }
            if report.deferred { break }
        }
        state.withLock {
            $0.diagnostics.delivered += report.delivered
            $0.diagnostics.rejected += report.rejected
            if report.deferred { $0.diagnostics.deferredFlushes += 1 }
            $0.diagnostics.flushFailures += failures
        }
        return report
    }

    /// Hands one batch of stored records to the transport: as they are, each checked to
    /// be one JSON object, to a transport that takes the wire form; decoded, to any
    /// other. Records that fail the check (or the decoding) are left out of the batch
    /// and reported as `undecodable`; `recordOfEvent` maps each event sent to its
    /// record.
    private func deliver(_ records: [DurableQueue.Record]) -> (result: DeliveryResult, events: Int, recordOfEvent: [Int], undecodable: Int) {
        if let wireTransport {
            return deliver(records, reading: { try? EncodedEvent(validating: $0) }, to: wireTransport.deliver(encoded:))
        }
        return deliver(records, reading: { try? decoder.decodeEvent(from: $0) }, to: transport.deliver)
    }

    /// Reads each record as an event for `send` (one that does not read is left out),
    /// then sends them.
    private func deliver<Item>(
        _ records: [DurableQueue.Record], reading read: ([UInt8]) -> Item?, to send: ([Item]) -> DeliveryResult
    ) -> (result: DeliveryResult, events: Int, recordOfEvent: [Int], undecodable: Int) {
        var items: [Item] = []
        var recordOfEvent: [Int] = []
        items.reserveCapacity(records.count)
        recordOfEvent.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            guard let item = read(record.payload) else { continue }
            items.append(item)
            recordOfEvent.append(index)
        }
        let result = items.isEmpty ? .accepted : send(items)
        return (result, items.count, recordOfEvent, records.count - items.count)
    }

    /// Removes records the transport has taken; `false` when the queue failed (they
    /// will be sent again: delivery is at-least-once).
    private func removeDelivered(_ records: [DurableQueue.Record]) -> Bool {
        do {
            try queue.remove(records)
            return true
        } catch {
            return false
        }
    }

    /// Flushes, stops the timer and closes the queue. Later calls are ignored.
    public func shutdown() {
        let first = state.withLock { state -> Bool in
            defer { state.isShutDown = true }
            return !state.isShutDown
        }
        guard first else { return }
        timer.withLock { $0?.source.cancel(); $0 = nil }
        flush()
        worker.sync { queue.close() }
    }

    /// How the hand-over from callers to the worker went so far: the stored
    /// submissions waiting for a submitting thread to release them, and the delayed
    /// drains callers had to schedule. For tests.
    package var handOverStatistics: (storedSubmissionsAwaitingRelease: Int, drainsScheduledBySubmitters: Int) {
        state.withLock { ($0.storedSubmissions.count, $0.drainsScheduledBySubmitters) }
    }

    /// Waits until every event handed over so far is queued.
    public func waitUntilQueued() { worker.sync { drainSubmissions() } }

    /// The counters now.
    public var diagnostics: TrackerDiagnostics {
        var diagnostics = state.withLock { $0.diagnostics }
        diagnostics.queue = queue.statistics
        for context in state.withLock({ $0.contexts }) {
            let counts = context.diagnostics
            diagnostics.interception.delivered += counts.delivered
            diagnostics.interception.sinkFailures += counts.sinkFailures
            diagnostics.interception.bookkeepingFailures += counts.bookkeepingFailures
            diagnostics.interception.filtered += counts.filtered
            diagnostics.interception.deduplicated += counts.deduplicated
            diagnostics.interception.disabledSkips += counts.disabledSkips
        }
        return diagnostics
    }

    // MARK: Automatic capture

    /// The sink a host framework hands its interactions to: each becomes a `$AppClick`
    /// or `$AppViewScreen` with this tracker's identity and super properties at the
    /// moment of the call. The sink holds the tracker weakly.
    public var interactionSink: any InteractionSink { TrackerInteractionSink(tracker: self) }

    /// A context for a host's hooks or capture code: reports to ``interactionSink``,
    /// writes paths in the configured style, applies the configured exclusions and
    /// action filter, and adds its counters to ``diagnostics``.
    public func makeInteractionContext() -> InteractionContext {
        let context = InteractionContext(
            sink: interactionSink, pathStyle: configuration.pathStyle, exclusions: configuration.exclusions,
            actionFilter: configuration.actionFilter, elementTypeConvention: configuration.elementTypeConvention)
        state.withLock { $0.contexts.append(context) }
        return context
    }

    /// A monitor that records `$AppElementExposure` for the elements the app watches,
    /// reporting through `context` — by default a new one of
    /// ``makeInteractionContext()`` — so exposures follow its exclusions, path style
    /// and on/off switch. See ``ElementExposureMonitor``.
    public func makeExposureMonitor(context: InteractionContext? = nil) -> ElementExposureMonitor {
        ElementExposureMonitor(tracker: self, context: context ?? makeInteractionContext())
    }

    /// Takes one due exposure from a monitor: the settings decide, the event is built
    /// on the worker with the exposure's time.
    func receive(_ exposure: ElementExposure) {
        guard let parts = partsIfRecorded({ $0.records(.appElementExposure, element: exposure.element, screen: exposure.screen) }) else { return }
        submit(Submission(time: exposure.time, context: Self.callContext(parts), content: .exposure(exposure)))
    }

    /// The automatic-capture settings in force: which automatic events are recorded
    /// and which screens, element types and element ids are ignored. Setting them takes
    /// effect from the next interaction, on any thread.
    public var autoTrackSettings: AutoTrackSettings {
        get { state.withLock { $0.settings } }
        set { state.withLock { $0.settings = newValue } }
    }

    /// Replaces the automatic-capture settings with those of a JSON document (see
    /// ``AutoTrackSettings``). A document that is not valid leaves the settings in
    /// force unchanged and is reported as a typed error.
    public func loadAutoTrackSettings(json bytes: some Collection<UInt8>) throws(AutoTrackSettingsError) {
        let settings = try AutoTrackSettings(json: bytes)
        autoTrackSettings = settings
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
        let recorded = state.withLock { state in
            state.sessionStart = time
            return state.recordsAutomatic(.appStart)
        }
        guard recorded else { return }
        let properties: Properties = [
            "$resume_from_background": .bool(resumed), "$app_state": .string(passively ? "background" : "foreground"),
        ]
        submit(Submission(time: time, context: callContext(), content: .lifecycle(.appStart, properties)))
    }

    /// Tracks `$AppEnd` with the session's `$event_duration` in seconds. A host calls
    /// it on every move to the background.
    public func trackAppEnd() {
        let time = configuration.clock.now()
        let (start, recorded) = state.withLock { ($0.sessionStart, $0.recordsAutomatic(.appEnd)) }
        guard recorded else {
            leaveScreen()
            return
        }
        var properties: Properties = [:]
        if let start {
            properties["$event_duration"] = .number(Double(time.millisecondsSince1970 - start.millisecondsSince1970) / 1000)
        }
        submit(Submission(time: time, context: callContext(), content: .lifecycle(.appEnd, properties)))
    }

    /// The call context of an automatic event the settings record, or `nil` (counted in
    /// ``TrackerDiagnostics/ignoredBySettings``) when they do not: the settings check and
    /// the call context share one acquisition of the lock.
    private func partsIfRecorded(_ records: (AutoTrackSettings) -> Bool) -> CallContextParts? {
        state.withLock { state -> CallContextParts? in
            guard records(state.settings) else {
                state.diagnostics.ignoredBySettings += 1
                return nil
            }
            return CallContextParts(state)
        }
    }

    /// The screen shown was left with no screen view of its own to record: its
    /// `$AppPageLeave` is due now.
    func leaveScreen() {
        submit(Submission(time: configuration.clock.now(), context: callContext(), content: .leftScreen))
    }

    /// Takes one interaction, on the thread of the user action: stamps the time and the
    /// identity; the event is built on the worker.
    func receive(_ interaction: Interaction) {
        guard let parts = partsIfRecorded({ $0.records(interaction) }) else {
            if interaction.point.isScreenView { leaveScreen() }
            return
        }
        submit(Submission(time: configuration.clock.now(), context: Self.callContext(parts), content: .interaction(CapturedInteraction(interaction))))
    }

    /// What the worker needs of an interaction: its screen's and element's properties,
    /// and for a screen view what the referrer chain reads. The interaction itself —
    /// its storage, snapshots and details — is released by the hook on the calling
    /// thread right away, while its memory is still in that thread's caches, instead
    /// of with the stored submission later.
    struct CapturedInteraction: Sendable {
        let isScreenView: Bool
        let screenProperties: Properties?
        let elementProperties: Properties?
        /// For a screen view: its `$url`, or its screen's type name.
        let screenReference: String?
        /// For a screen view: shown again on return from the background.
        let isReturnFromBackground: Bool

        init(_ interaction: Interaction) {
            isScreenView = interaction.point.isScreenView
            let screen = interaction.screen
            screenProperties = screen?.properties
            elementProperties = interaction.element?.properties
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
}

/// Hands a host's interactions to a tracker; see ``Tracker/interactionSink``.
final class TrackerInteractionSink: InteractionSink {
    private weak let tracker: Tracker?

    init(tracker: Tracker) { self.tracker = tracker }

    /// Thrown when the tracker is gone; the hook's context counts it as a sink failure.
    struct TrackerReleased: Error {}

    func receive(_ interaction: Interaction) throws {
        guard let tracker else { throw TrackerReleased() }
        tracker.receive(interaction)
    }

    /// The screen shown before has been left: its `$AppPageLeave` is due.
    func receiveExcludedScreenView(_ interaction: Interaction) {
        tracker?.leaveScreen()
    }
}
