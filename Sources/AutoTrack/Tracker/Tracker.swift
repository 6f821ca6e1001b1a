import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackSerialization
import Dispatch
import Foundation
import AutoTrackLocking

/// The SDK façade: tracks events in code and automatically, queues them durably and
/// sends them in batches.
///
/// Capture happens on the caller's thread (validation of `track`, the element snapshot
/// of an automatic click); building, storing and sending happen on one serial worker
/// thread, in order. The concerns live apart: who events are about
/// (`Tracker+Identity.swift`), the hand-off to the worker (`SubmissionHandOff`),
/// building events and page time (`EventAssembler`), storing
/// (`Tracker+Storing.swift`), flushing (`QueueDelivery`, `Tracker+Flushing.swift`) and
/// the seam for hosts (`Tracker+AutomaticCapture.swift`).
public final class Tracker: Sendable {
    /// The configuration.
    public let configuration: TrackerConfiguration
    /// The durable queue.
    public let queue: DurableQueue
    /// The serial worker thread that builds and stores.
    let worker = DispatchQueue(label: "autotrack.tracker")
    /// The serial thread that sends, so a slow collector never holds up storing.
    let sender = DispatchQueue(label: "autotrack.tracker.sender")
    /// Marks ``worker``'s thread, which must never wait for itself.
    let workerKey = DispatchSpecificKey<Bool>()
    /// Marks ``sender``'s thread.
    let senderKey = DispatchSpecificKey<Bool>()
    /// Batches the store refused, kept to be written when it recovers. Worker thread
    /// only; the lock makes that confinement safe to state.
    let unstored: Locked<UnstoredBatches>
    /// The tracker's state that any thread reads or changes.
    let state: Locked<State>
    /// Events on their way from callers' threads to the worker.
    let handOff: SubmissionHandOff
    /// Turns submissions into events, keeping the referrer chain and the open page.
    /// Worker thread only.
    let assembler: EventAssembler
    /// Hands stored records to the transport. Worker thread only.
    let delivery: QueueDelivery
    /// The presets, sanitised and encoded once: every stored event begins with them.
    let encodedPresets: EncodedPropertyPrefix
    let encoder: EventJSONEncoder
    private let timer: Locked<TimerBox?> = Locked(nil)
    /// Fetches the remote settings, when a source is configured.
    let remoteSettingsFetcher = Locked<RemoteSettingsFetcher?>(nil)
    /// Left when ``shutdown()`` has finished; later calls wait on it.
    private let shutdownFinished = DispatchGroup()

    /// A context the tracker made, held weakly, and its counters, held strongly.
    struct ContextCounters {
        weak var context: InteractionContext?
        let counters: InteractionContext.Counters
    }

    /// Holds the flush timer.
    final class TimerBox: @unchecked Sendable {
        // Safe: dispatch sources are thread-safe objects; the reference is immutable.
        let source: any DispatchSourceTimer
        init(_ source: any DispatchSourceTimer) { self.source = source }
    }

    /// What any thread may read or change, under ``state``'s lock.
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
        /// The contexts made by ``Tracker/makeInteractionContext()``, held weakly: their
        /// counters are summed into ``Tracker/diagnostics``, those of released ones
        /// into ``releasedContexts``.
        var contexts: [ContextCounters] = []
        /// The counters of contexts released so far, summed.
        var releasedContexts = InterceptionDiagnostics()
        /// Whether an automatic flush is queued on the sender.
        var automaticFlushQueued = false
        /// The consent in force.
        var consent: TrackingConsent = .granted
        /// Whether `$AppInstall` was tracked in this run.
        var installTracked = false
        /// Whether the app runs after a passive launch (in the background, nobody
        /// looking): every event says `$app_state` `background` until it comes to the
        /// foreground.
        var isPassiveLaunch = false
        /// The crash record files whose crashes this launch delivered and the store
        /// has not yet taken (erased when it does).
        var crashHandOverFiles: [String] = []
        /// The crash record's size when it was last read for survival notes.
        var crashRecordSizeSeen = 0
        /// Whether a host recorded the app's launch already (``Tracker/claimLaunch()``).
        var launchClaimed = false
        /// Whether ``Tracker/shutdown()`` closed the queue: nothing is sent any more.
        var isQueueClosed = false
        /// The monotonic instant of the session's `$AppStart`.
        var sessionStart: MonotonicInstant?
        var settings: AutoTrackSettings
        var isShutDown = false
        /// When automatic flushes may try again after a deferred one.
        var flushPacing = FlushPacing()

        /// Whether the settings record `type`; counts it when they do not.
        mutating func recordsAutomatic(_ type: AutomaticEventTypes) -> Bool {
            guard settings.eventTypes.contains(type) else {
                diagnostics.ignoredBySettings += 1
                return false
            }
            return true
        }
    }

    /// Opens the tracker: recovers the queue, loads (or creates) the anonymous id and any
    /// login a launch before did not log out of, and starts the flush timer.
    public init(configuration: TrackerConfiguration) throws(QueueError) {
        self.configuration = configuration
        queue = try DurableQueue(directory: configuration.storeDirectory.appendingPathComponent("queue"), limits: configuration.queueLimits)
        let transport: any Transport = switch configuration.transport {
        case .localFile(let url): LocalFileTransport(file: url, dateOffsetSeconds: configuration.dateOffsetSeconds)
        case .http(let endpoint, let format, let timeout): HTTPTransport(endpoint: endpoint, wireFormat: format, timeout: timeout)
        case .custom(let custom): custom
        }
        delivery = QueueDelivery(
            queue: queue, transport: transport, decoder: EventJSONDecoder(dateOffsetSeconds: configuration.dateOffsetSeconds),
            batchSize: configuration.flushPolicy.batchSize)
        handOff = SubmissionHandOff(capacity: configuration.maximumPendingEvents)
        unstored = Locked(UnstoredBatches(limit: configuration.maximumUnstoredEvents))
        assembler = EventAssembler(configuration: configuration)
        // Checked once: every event carries them.
        var presetRepairs = SanitizationReport()
        encoder = EventJSONEncoder(dateOffsetSeconds: configuration.dateOffsetSeconds)
        encodedPresets = EncodedPropertyPrefix(
            configuration.rules.sanitized(configuration.device.presetProperties, report: &presetRepairs), encoder: encoder)
        let anonymous = StoredIdentity.loadAnonymousID(in: configuration.storeDirectory)
        let identity: Identity = StoredIdentity.loadLoginID(in: configuration.storeDirectory)
            .map { .loggedIn($0, anonymousID: anonymous) } ?? .anonymous(anonymous)
        var initial = State(context: CallContext(identity: identity, superProperties: [:]), settings: configuration.autoTrackSettings)
        initial.diagnostics.sanitized.add(presetRepairs)
        initial.consent = Self.storedConsent(in: configuration.storeDirectory) ?? configuration.initialConsent
        handOff.setRefusing(initial.consent == .denied)
        state = Locked(initial)
        worker.setSpecific(key: workerKey, value: true)
        sender.setSpecific(key: senderKey, value: true)
        if configuration.capturesCrashes {
            deliverRecordedCrashes()
            installCrashCapture()
        }
        startTimer()
        startRemoteSettings()
    }

    private func startTimer() {
        guard let interval = configuration.flushPolicy.interval else { return }
        let source = DispatchSource.makeTimerSource(queue: sender)
        let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        source.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(max(nanoseconds, 1_000_000)))
        source.setEventHandler { [weak self] in self?.automaticFlush() }
        source.resume()
        let box = TimerBox(source)
        timer.withLock { $0 = box }
    }

    /// Stores what was handed over, flushes, stops the timer and closes the queue;
    /// events tracked later throw ``TrackingError/shutDown``, and flushes do nothing.
    /// Returns when all that is done — a second call too, whichever thread made the
    /// first. Called from the tracker's own threads (an event observer, a transport),
    /// it cannot wait for them: the same happens after the current batch.
    public func shutdown() {
        let first = state.withLock { state -> Bool in
            defer { state.isShutDown = true }
            // Entered before any other caller can see the tracker shut down.
            if !state.isShutDown { shutdownFinished.enter() }
            return !state.isShutDown
        }
        let mayWait = !isOnWorker && !isOnSender
        guard first else {
            if mayWait { shutdownFinished.wait() }
            return
        }
        timer.withLock { $0?.source.cancel(); $0 = nil }
        remoteSettingsFetcher.withLock { $0?.stop() }
        handOff.close()
        let finish: @Sendable () -> Void = { [self] in
            worker.sync { drainSubmissions() }
            sender.sync {
                flushOnSender()
                worker.sync {
                    queue.close()
                    // Refused batches the store never took back are lost now: counted.
                    let lost = unstored.withLock { $0.removeAll() }
                    state.withLock {
                        $0.isQueueClosed = true
                        $0.diagnostics.storeFailures += lost
                        $0.diagnostics.awaitingStore = 0
                    }
                }
            }
            shutdownFinished.leave()
        }
        if mayWait {
            finish()
        } else {
            DispatchQueue.global().async(execute: finish)
        }
    }

    /// Waits until every event handed over so far is queued (or kept for a retry, when
    /// the store refuses it). Called from the worker itself (an event observer), it
    /// returns at once: the worker cannot wait for itself.
    public func waitUntilQueued() {
        guard !isOnWorker else { return }
        worker.sync { drainSubmissions(expiringTaps: true) }
    }

    /// The counters now.
    public var diagnostics: TrackerDiagnostics {
        let (stateDiagnostics, contexts, released) = state.withLock { state in
            // Contexts the app released leave their counters behind.
            state.contexts.removeAll { entry in
                guard entry.context == nil else { return false }
                state.releasedContexts += entry.counters.snapshot
                return true
            }
            return (state.diagnostics, state.contexts, state.releasedContexts)
        }
        var diagnostics = stateDiagnostics
        diagnostics.queue = queue.statistics
        diagnostics.droppedWhileBusy = handOff.droppedWhileBusy
        diagnostics.waitsForRoom = handOff.waits
        if let fetcher = remoteSettingsFetcher.withLock({ $0 }) { diagnostics.remoteSettings = fetcher.diagnostics }
        diagnostics.interception = released
        for context in contexts { diagnostics.interception += context.counters.snapshot }
        return diagnostics
    }
}
