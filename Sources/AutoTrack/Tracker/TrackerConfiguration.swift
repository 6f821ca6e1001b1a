/// AutoTrackEvents: `Event`, `EventIDGenerator`, `PropertyRules`, `TimestampSource` appear in this file's public API.
public import AutoTrackEvents
/// AutoTrackInterception: `ActionFilter` appears in this file's public API.
public import AutoTrackInterception
/// AutoTrackProperties: `DeviceInfo`, `TrackingExclusions`, `ViewPathStyle` appear in this file's public API.
public import AutoTrackProperties
/// AutoTrackSerialization: `CollectorWireFormat` appears in this file's public API.
public import AutoTrackSerialization
/// Foundation: `URL` appears in this file's public API.
public import Foundation

/// When queued events are sent.
public struct FlushPolicy: Hashable, Sendable {
    /// Send as soon as this many events wait.
    public var batchSize: Int
    /// Also send on this period, if set.
    public var interval: Duration?

    /// Creates a policy.
    public init(batchSize: Int = 50, interval: Duration? = .seconds(15)) {
        self.batchSize = max(1, batchSize)
        self.interval = interval
    }
}

/// Where events go.
public enum TransportChoice: Sendable {
    /// NDJSON appended to a local file; needs no server.
    case localFile(URL)
    /// A collector over HTTP, in the given wire format.
    case http(endpoint: URL, wireFormat: CollectorWireFormat, timeout: TimeInterval)
    /// Any transport.
    case custom(any Transport)
}

/// Everything a ``Tracker`` is configured with.
public struct TrackerConfiguration: Sendable {
    /// The device and app: the preset properties.
    public var device: DeviceInfo
    /// The path style for `$element_path` and `$element_id`.
    public var pathStyle: ViewPathStyle
    /// Elements and screens automatic capture leaves alone.
    public var exclusions: TrackingExclusions
    /// How `$element_type` names elements (Sensors' conventions by default).
    public var elementTypeConvention: ElementTypeConvention = .sensors
    /// The automatic-capture settings a new tracker starts with; change them while it
    /// runs with ``Tracker/autoTrackSettings`` or ``Tracker/loadAutoTrackSettings(json:)``.
    public var autoTrackSettings: AutoTrackSettings = .standard
    /// Where settings documents are fetched from while the tracker runs; `nil`: none.
    public var remoteSettings: RemoteSettingsSource?
    /// Actions that are not clicks.
    public var actionFilter: ActionFilter
    /// When events are sent.
    public var flushPolicy: FlushPolicy
    /// Where the durable queue and the identity live.
    public var storeDirectory: URL
    /// Where events go.
    public var transport: TransportChoice
    /// The queue's bounds.
    public var queueLimits: DurableQueue.Limits
    /// Whether the worker `fsync`s the queue after storing each batch (every event
    /// handed over while it was busy forms one batch), so a power loss cannot take a
    /// stored batch back. Off by default: a process crash already loses nothing written.
    public var syncEachBatch: Bool
    /// Event times.
    public var clock: any TimestampSource
    /// Event ids.
    public var eventIDs: any EventIDGenerator
    /// The validation rules.
    public var rules: PropertyRules
    /// The time zone of date properties, in seconds east of UTC.
    public var dateOffsetSeconds: Int
    /// Called on the worker thread with every event as it is queued (for logging and
    /// the demo). It may call the tracker: an event it tracks is stored after the
    /// current batch, and `flush()`, `waitUntilQueued()` and `shutdown()` called from it
    /// do not wait for the worker they run on.
    public var eventObserver: (@Sendable (Event) -> Void)?
    /// The most events handed over and not yet stored. While the worker is busy
    /// storing a burst, events wait in memory up to this bound; past it the caller of
    /// `track` (or the thread of an automatic capture) waits for room — back-pressure,
    /// not loss — so memory stays bounded and nothing is dropped. The wait is counted
    /// in ``TrackerDiagnostics/waitsForRoom``. Sending never holds the worker up: it
    /// runs on a thread of its own.
    public var maximumPendingEvents: Int
    /// Whether fatal signals are captured: a crash record is written durably before
    /// the process dies and tracked as `AppCrashed` (with `app_crashed_reason`) on the
    /// next launch, and ``Tracker/recordFatalError(_:)`` records a host's uncaught
    /// errors. Off by default: it installs process-wide signal handlers (chained to
    /// those installed before).
    public var capturesCrashes: Bool
    /// The consent when none is stored yet (a first launch): ``TrackingConsent/granted``
    /// by default; ``TrackingConsent/pending`` for an app that asks first. Once
    /// ``Tracker/setConsent(_:)`` was called, the stored consent wins.
    public var initialConsent: TrackingConsent
    /// The most events kept in memory while the store refuses them (a full disk, a
    /// directory that cannot be written); they are written, in order, when it
    /// recovers. Past it the oldest are dropped and counted in
    /// ``TrackerDiagnostics/storeFailures``.
    public var maximumUnstoredEvents: Int
    /// How long a caller waits for room before its event is dropped: the bound for a
    /// worker stalled on a hung disk. Then `track` throws
    /// ``TrackingError/droppedWhileBusy(waited:)``, automatic capture counts the drop in
    /// ``TrackerDiagnostics/droppedWhileBusy``. The tracker's own worker thread (an
    /// event observer tracking) never waits. Two seconds by default.
    public var maximumWaitForRoom: Duration

    /// Creates a configuration storing under `storeDirectory` and, by default, sending to
    /// `events.ndjson` there.
    public init(
        storeDirectory: URL,
        device: DeviceInfo = .current(appVersion: "1.0"),
        transport: TransportChoice? = nil,
        pathStyle: ViewPathStyle = .slash,
        exclusions: TrackingExclusions = .standard,
        actionFilter: ActionFilter = .standard,
        flushPolicy: FlushPolicy = FlushPolicy(),
        queueLimits: DurableQueue.Limits = DurableQueue.Limits(),
        syncEachBatch: Bool = false,
        clock: any TimestampSource = SystemTimestampSource(),
        eventIDs: any EventIDGenerator = SystemRandomEventIDGenerator(),
        rules: PropertyRules = .standard,
        dateOffsetSeconds: Int = 0,
        eventObserver: (@Sendable (Event) -> Void)? = nil,
        maximumPendingEvents: Int = 10_000,
        maximumWaitForRoom: Duration = .seconds(2),
        maximumUnstoredEvents: Int = 10_000,
        initialConsent: TrackingConsent = .granted,
        capturesCrashes: Bool = false
    ) {
        self.capturesCrashes = capturesCrashes
        self.storeDirectory = storeDirectory
        self.device = device
        self.transport = transport ?? .localFile(storeDirectory.appendingPathComponent("events.ndjson"))
        self.pathStyle = pathStyle
        self.exclusions = exclusions
        self.actionFilter = actionFilter
        self.flushPolicy = flushPolicy
        self.queueLimits = queueLimits
        self.syncEachBatch = syncEachBatch
        self.clock = clock
        self.eventIDs = eventIDs
        self.rules = rules
        self.dateOffsetSeconds = dateOffsetSeconds
        self.eventObserver = eventObserver
        self.maximumPendingEvents = max(1, maximumPendingEvents)
        self.maximumWaitForRoom = max(.zero, maximumWaitForRoom)
        self.maximumUnstoredEvents = max(0, maximumUnstoredEvents)
        self.initialConsent = initialConsent
    }
}
