/// AutoTrackEvents: `EventName` appears in this file's public API.
public import AutoTrackEvents
import AutoTrackLocking
import CAutoTrackCrashCapture
import Foundation

// MARK: Crashes

extension Tracker {
    /// The event a crash becomes on the next launch.
    public static let appCrashedEvent = EventName(rawValue: "AppCrashed")!

    /// Records an uncaught error the host saw (a JavaScript exception in a React
    /// Native host, an error the app's own handler caught) as a crash, durably, before
    /// the host ends the process; it is tracked as `AppCrashed` on the next launch.
    /// Returns whether it was written: crash capture must be on
    /// (``TrackerConfiguration/capturesCrashes``).
    @discardableResult
    public func recordFatalError(_ reason: String) -> Bool {
        guard configuration.capturesCrashes else { return false }
        return reason.withCString { autotrack_crash_capture_record($0) } == 0
    }

    /// The file crash records are written to, in the store.
    static func crashRecordFile(in directory: URL) -> URL { directory.appendingPathComponent("crash_record") }

    /// The file crash records move to when a launch delivers them, until the store
    /// holds their events: emptied then, delivered again by the next launch if the
    /// store never took them.
    static func crashHandOverFile(in directory: URL) -> URL { directory.appendingPathComponent("crash_record.delivering") }

    /// Installs the fatal-signal handlers writing to this store's crash record (the
    /// process holds one: the last tracker to start owns it).
    func installCrashCapture() {
        _ = PrivateFiles.createDirectory(configuration.storeDirectory.path)
        let descriptor = PrivateFiles.open(Self.crashRecordFile(in: configuration.storeDirectory).path, O_WRONLY | O_APPEND)
        guard descriptor >= 0 else { return }
        _ = autotrack_crash_capture_install(descriptor)
    }

    /// Tracks the crashes recorded by the process before — `AppCrashed` at the time of
    /// the crash, with `app_crashed_reason` — exactly once: the records move to the
    /// hand-over file first (a store that cannot take the move keeps them for the next
    /// launch), and that file is emptied once the store holds their events — at once,
    /// or when a refused batch is written later in this run. A launch that ends first
    /// leaves them to the next.
    func deliverRecordedCrashes() {
        let recordPath = Self.crashRecordFile(in: configuration.storeDirectory).path
        let handOverPath = Self.crashHandOverFile(in: configuration.storeDirectory).path
        let handedOver = PrivateFiles.read(handOverPath) ?? []
        let fresh = PrivateFiles.read(recordPath) ?? []
        var bytes = handedOver
        if !fresh.isEmpty {
            // A rename needs no room on the disk; adding to records handed over before does.
            if handedOver.isEmpty {
                guard rename(recordPath, handOverPath) == 0 else { return }
            } else {
                guard PrivateFiles.write(handedOver + fresh, to: handOverPath) == nil else { return }
                _ = PrivateFiles.write([], to: recordPath)
            }
            bytes += fresh
        }
        guard !bytes.isEmpty else { return }
        let crashes = String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap(CrashRecord.init)
        for crash in crashes {
            let properties: Properties = ["app_crashed_reason": .string(crash.reason)]
            submit(Submission(
                time: crash.time, monotonic: configuration.clock.monotonicNow(), context: callContext(),
                content: .lifecycle(Self.appCrashedEvent, properties)))
        }
        worker.sync { drainSubmissions() }
        let stored = state.withLock { state in
            state.diagnostics.crashesDelivered += crashes.count
            state.crashesAwaitingStore = state.diagnostics.awaitingStore > 0
            return !state.crashesAwaitingStore
        }
        if stored { _ = PrivateFiles.write([], to: handOverPath) }
    }

    /// The refused batches were all written or dropped: crash events among them are
    /// stored and their records done with — unless some were dropped (`erasingRecords`
    /// `false`: the next launch delivers them again). Worker thread only.
    func crashesStoredAfterRetry(erasingRecords: Bool) {
        let wereWaiting = state.withLock { state in
            defer { state.crashesAwaitingStore = false }
            return state.crashesAwaitingStore
        }
        if wereWaiting, erasingRecords { _ = PrivateFiles.write([], to: Self.crashHandOverFile(in: configuration.storeDirectory).path) }
    }
}

/// One line of the crash record: `autotrack-crash <time ms> <reason>`.
struct CrashRecord {
    let time: Timestamp
    let reason: String

    init?(_ line: Substring) {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "autotrack-crash", let milliseconds = Int64(parts[1]) else { return nil }
        time = Timestamp(millisecondsSince1970: milliseconds)
        reason = String(parts[2])
    }
}
