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

    /// Installs the fatal-signal handlers writing to this store's crash record (the
    /// process holds one: the last tracker to start owns it).
    func installCrashCapture() {
        _ = PrivateFiles.createDirectory(configuration.storeDirectory.path)
        let descriptor = PrivateFiles.open(Self.crashRecordFile(in: configuration.storeDirectory).path, O_WRONLY | O_APPEND)
        guard descriptor >= 0 else { return }
        _ = autotrack_crash_capture_install(descriptor)
    }

    /// Tracks the crashes recorded by the process before — `AppCrashed` at the time of
    /// the crash, with `app_crashed_reason` — stores them, then empties the record (a
    /// record the store could not take stays for the next launch).
    func deliverRecordedCrashes() {
        let file = Self.crashRecordFile(in: configuration.storeDirectory)
        guard let bytes = PrivateFiles.read(file.path), !bytes.isEmpty else { return }
        let crashes = String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap(CrashRecord.init)
        for crash in crashes {
            let properties: Properties = ["app_crashed_reason": .string(crash.reason)]
            submit(Submission(
                time: crash.time, monotonic: configuration.clock.monotonicNow(), context: callContext(),
                content: .lifecycle(Self.appCrashedEvent, properties)))
        }
        worker.sync { drainSubmissions() }
        if state.withLock({ $0.diagnostics.awaitingStore }) == 0 {
            _ = PrivateFiles.write([], to: file.path)
        }
        state.withLock { $0.diagnostics.crashesDelivered += crashes.count }
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
