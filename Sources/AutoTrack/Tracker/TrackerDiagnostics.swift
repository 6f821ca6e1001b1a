/// AutoTrackEvents: `SanitizationReport` appears in this file's public API.
public import AutoTrackEvents
/// AutoTrackInterception: `InterceptionDiagnostics` appears in this file's public API.
public import AutoTrackInterception

/// What a tracker has done, for monitoring and tests.
public struct TrackerDiagnostics: Hashable, Sendable {
    /// Events queued.
    public var queued = 0
    /// Batches the worker stored: one write, and with `syncEachBatch` one `fsync`, each.
    public var storedBatches = 0
    /// Events that could not be stored: larger than the queue's record limit, refused
    /// by the store past ``TrackerConfiguration/maximumUnstoredEvents`` or still held
    /// at ``Tracker/shutdown()``, or tracked after it; counted, never silent.
    public var storeFailures = 0
    /// Events confirmed delivered.
    public var delivered = 0
    /// Events a collector refused for good (dropped, counted).
    public var rejected = 0
    /// Flushes that left events queued after a temporary failure.
    public var deferredFlushes = 0
    /// Events dropped because ``TrackerConfiguration/maximumPendingEvents`` were
    /// waiting for a worker that made no room within
    /// ``TrackerConfiguration/maximumWaitForRoom`` (counted, and thrown from `track`;
    /// never silent).
    public var droppedWhileBusy = 0
    /// How callers waited for room in the hand-off to the worker (back-pressure).
    public var waitsForRoom = HandOffWaits()
    /// Events the store refused (a full or read-only disk), held in memory now to be
    /// written when it recovers; not yet in ``queued``.
    public var awaitingStore = 0
    /// Events not recorded because tracking consent was denied (`track` threw
    /// ``TrackingError/consentDenied``; automatic events were counted here).
    public var refusedByConsent = 0
    /// Stored events removed unsent when consent was denied.
    public var purgedByConsent = 0
    /// Crashes of earlier runs tracked as `AppCrashed` at this start.
    public var crashesDelivered = 0
    /// Signal records left out at launch: their process noted afterwards that it was
    /// still alive (a handler installed before the tracker's recovered).
    public var crashRecordsTakenBack = 0
    /// The remote settings fetches (``TrackerConfiguration/remoteSettings``).
    public var remoteSettings = RemoteSettingsDiagnostics()
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
    /// Interception counters (fail-open swallowing, filters, dedupe) of every context
    /// the tracker made, summed.
    public var interception = InterceptionDiagnostics()
}
