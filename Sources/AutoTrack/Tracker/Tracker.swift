public import AutoTrackEvents
public import AutoTrackHooks
public import AutoTrackInterception
import AutoTrackProperties
public import AutoTrackReferenceUI
import AutoTrackSerialization
import Dispatch
import Foundation
import Synchronization

/// What a tracker has done, for monitoring and tests.
public struct TrackerDiagnostics: Hashable, Sendable {
    /// Events queued.
    public var queued = 0
    /// Events confirmed delivered.
    public var delivered = 0
    /// Events a collector refused for good (dropped, counted).
    public var rejected = 0
    /// Flushes that left events queued after a temporary failure.
    public var deferredFlushes = 0
    /// Repairs made to SDK-generated values.
    public var sanitized = SanitizationReport()
    /// Queue counters.
    public var queue = QueueStatistics(pendingRecords: 0, pendingBytes: 0, droppedOldest: 0, recoveredRecords: 0, truncatedBytes: 0)
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
    private let worker = DispatchQueue(label: "autotrack.tracker")
    private let state: Mutex<State>
    private let presets: Properties
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
        var identity: Identity
        var superProperties = Properties()
        var dynamicSuperProperties: (@Sendable () -> Properties)?
        var diagnostics = TrackerDiagnostics()
        var contexts: [InteractionContext] = []
        var lastScreenReference: String?
        var sessionStart: Timestamp?
        var isShutDown = false
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
        presets = configuration.device.presetProperties
        encoder = EventJSONEncoder(dateOffsetSeconds: configuration.dateOffsetSeconds)
        decoder = EventJSONDecoder(dateOffsetSeconds: configuration.dateOffsetSeconds)
        let anonymous = Self.loadAnonymousID(in: configuration.storeDirectory)
        state = Mutex(State(identity: .anonymous(anonymous)))
        startTimer()
    }

    private static func loadAnonymousID(in directory: URL) -> String {
        let file = directory.appendingPathComponent("anonymous_id")
        if let stored = try? String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !stored.isEmpty {
            return stored
        }
        let created = UUID().uuidString
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? Data(created.utf8).write(to: file)
        return created
    }

    private func startTimer() {
        guard let interval = configuration.flushPolicy.interval else { return }
        let source = DispatchSource.makeTimerSource(queue: worker)
        let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        source.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(max(nanoseconds, 1_000_000)))
        source.setEventHandler { [weak self] in _ = self?.flushOnWorker() }
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
        let time = configuration.clock.now()
        let repairs = report
        let context = callContext()
        worker.async { [self] in
            enqueue(name: eventName, time: time, context: context, method: .code, autotrack: [:], caller: checked, report: repairs)
        }
    }

    /// Who an event is about and its super properties, taken on the caller's thread at
    /// the moment of the call — a `logout()` right after `track` does not change it.
    struct CallContext: Sendable {
        let identity: Identity
        let superProperties: Properties
    }

    private func callContext() -> CallContext {
        let (identity, supers, dynamic) = state.withLock { ($0.identity, $0.superProperties, $0.dynamicSuperProperties) }
        guard let dynamic else { return CallContext(identity: identity, superProperties: supers) }
        return CallContext(identity: identity, superProperties: supers.merging(dynamic()))
    }

    /// Builds, sanitises, stores and — when the batch is full — sends one event. Worker
    /// thread only.
    private func enqueue(
        name: EventName, time: Timestamp, context: CallContext, method: LibraryMethod, autotrack: Properties, caller: Properties,
        report: SanitizationReport
    ) {
        let identity = context.identity
        var report = report
        let supers = context.superProperties
        let properties = configuration.rules.sanitized(
            Properties.layered(preset: presets, superProperties: supers, autotrack: autotrack, caller: caller), report: &report)
        let event = Event(
            id: configuration.eventIDs.next(), name: name, time: time, identity: identity,
            library: LibraryInfo(name: configuration.device.library, version: configuration.device.libraryVersion, method: method,
                                 appVersion: configuration.device.appVersion),
            properties: properties)
        configuration.eventObserver?(event)
        do {
            try queue.append([encoder.encode(event)], sync: configuration.syncEachAppend)
            state.withLock {
                $0.diagnostics.queued += 1
                $0.diagnostics.sanitized.add(report)
            }
        } catch {
            state.withLock { $0.diagnostics.sanitized.add(report) }
        }
        if queue.statistics.pendingRecords >= configuration.flushPolicy.batchSize { _ = flushOnWorker() }
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
    }

    /// Sends everything queued, batch by batch, and waits for it. Stops at the first
    /// temporary failure, leaving the rest queued.
    @discardableResult
    public func flush() -> FlushReport {
        worker.sync { flushOnWorker() }
    }

    private func flushOnWorker() -> FlushReport {
        var report = FlushReport()
        while true {
            guard let records = try? queue.peek(configuration.flushPolicy.batchSize), !records.isEmpty else { break }
            var events: [Event] = []
            var undecodable = 0
            for record in records {
                if let event = try? decoder.decodeEvent(from: record.payload) { events.append(event) } else { undecodable += 1 }
            }
            let result = events.isEmpty ? .accepted : transport.deliver(events)
            switch result {
            case .accepted:
                try? queue.remove(records)
                report.delivered += events.count
                report.rejected += undecodable
            case .rejected:
                try? queue.remove(records)
                report.rejected += records.count
            case .retryLater:
                report.deferred = true
            }
            if report.deferred { break }
        }
        state.withLock {
            $0.diagnostics.delivered += report.delivered
            $0.diagnostics.rejected += report.rejected
            if report.deferred { $0.diagnostics.deferredFlushes += 1 }
        }
        return report
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

    /// Waits until every event handed over so far is queued.
    public func waitUntilQueued() { worker.sync {} }

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

    /// Installs `hooks` (one per interception point by default) on a reference-host
    /// application and turns their interactions into `$AppClick` and `$AppViewScreen`
    /// events; tracks `$AppStart` now and on every return from the background, and
    /// `$AppEnd` with the session's `$event_duration` on every move to it.
    @discardableResult
    public func enableAutoTrack(
        on host: ReferenceHost, hooks: [any InterceptionHookInstaller] = BuiltInHooks.standard()
    ) throws(HookError) -> [HookHandle] {
        let context = InteractionContext(
            sink: AutoTrackSink(tracker: self), pathStyle: configuration.pathStyle, exclusions: configuration.exclusions,
            actionFilter: configuration.actionFilter)
        state.withLock { $0.contexts.append(context) }
        // Observers first: on return, $AppStart comes before the screen view.
        host.addObserver(for: .didEnterBackground) { [weak self] _ in self?.appEnd() }
        host.addObserver(for: .willEnterForeground) { [weak self] _ in self?.appStart(resumed: true) }
        appStart(resumed: false)
        var handles: [HookHandle] = []
        for hook in hooks { handles.append(try hook.install(on: host, context: context)) }
        return handles
    }

    private func appStart(resumed: Bool) {
        let time = configuration.clock.now()
        state.withLock { $0.sessionStart = time }
        let context = callContext()
        worker.async { [self] in
            enqueue(name: .appStart, time: time, context: context, method: .autoTrack,
                    autotrack: ["$resume_from_background": .bool(resumed)], caller: [:], report: SanitizationReport())
        }
    }

    private func appEnd() {
        let time = configuration.clock.now()
        let start = state.withLock { $0.sessionStart }
        var properties: Properties = [:]
        if let start {
            properties["$event_duration"] = .number(Double(time.millisecondsSince1970 - start.millisecondsSince1970) / 1000)
        }
        let autotrack = properties
        let context = callContext()
        worker.async { [self] in
            enqueue(name: .appEnd, time: time, context: context, method: .autoTrack, autotrack: autotrack, caller: [:], report: SanitizationReport())
        }
    }

    /// Turns one interaction into an event: called on the thread of the user action,
    /// which only stamps the time; the rest happens on the worker.
    func receive(_ interaction: Interaction) {
        let time = configuration.clock.now()
        let context = callContext()
        worker.async { [self] in
            var autotrack = interaction.screen?.properties ?? [:]
            let name: EventName
            if interaction.point == .screenView {
                name = .appViewScreen
                let (referrer, reference) = state.withLock { state -> (String?, String?) in
                    let previous = state.lastScreenReference
                    let current = interaction.screen.map { screen in
                        if case .string(let url)? = screen.properties["$url"] { return url }
                        return screen.typeName
                    }
                    state.lastScreenReference = current
                    return (previous, current)
                }
                _ = reference
                if let referrer { autotrack["$referrer"] = .string(referrer) }
            } else {
                name = .appClick
                if let element = interaction.element { autotrack.merge(element.properties) }
            }
            enqueue(name: name, time: time, context: context, method: .autoTrack, autotrack: autotrack, caller: [:], report: SanitizationReport())
        }
    }
}

/// Hands a tracker's hooks' interactions to the tracker.
final class AutoTrackSink: InteractionSink {
    private weak let tracker: Tracker?

    init(tracker: Tracker) { self.tracker = tracker }

    func receive(_ interaction: Interaction) throws {
        tracker?.receive(interaction)
    }
}
