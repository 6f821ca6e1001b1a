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
    /// Interception counters (fail-open swallowing, filters, dedupe) of every context
    /// the tracker made, summed.
    public var interception = InterceptionDiagnostics()
}
