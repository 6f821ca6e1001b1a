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

    /// The prefix of the files crash records move to when a launch delivers them —
    /// `crash_record.delivering.<n>`, a rename, which needs no room on the disk — until
    /// the store holds their events: erased then, delivered again by the next launch if
    /// the store never took them.
    static let crashHandOverPrefix = "crash_record.delivering."

    /// Installs the fatal-signal handlers writing to this store's crash record (the
    /// process holds one: the last tracker to start owns it).
    func installCrashCapture() {
        _ = PrivateFiles.createDirectory(configuration.storeDirectory.path)
        let descriptor = PrivateFiles.open(Self.crashRecordFile(in: configuration.storeDirectory).path, O_WRONLY | O_APPEND)
        guard descriptor >= 0 else { return }
        _ = autotrack_crash_capture_install(descriptor)
    }

    /// The hand-over files in the store, oldest first.
    private func crashHandOverFiles() -> [String] {
        let directory = configuration.storeDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix(Self.crashHandOverPrefix), let number = Int(name.dropFirst(Self.crashHandOverPrefix.count)) else { return nil }
            return (number, directory.appendingPathComponent(name).path)
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Tracks the crashes recorded by the processes before — `AppCrashed` at the time
    /// of the crash, with `app_crashed_reason` — at least once and, short of a process
    /// dying between a store and an erase, once: the record file is renamed to a new
    /// hand-over file first, the hand-over files (this launch's and those an earlier
    /// launch never got stored) are delivered, and they are erased when the store holds
    /// the batch with their events — at once, or when a refused batch is written later
    /// in this run. A batch dropped, or a launch that ends first, leaves them to the
    /// next launch.
    func deliverRecordedCrashes() {
        let recordPath = Self.crashRecordFile(in: configuration.storeDirectory).path
        var files = crashHandOverFiles()
        if let fresh = PrivateFiles.read(recordPath), !fresh.isEmpty {
            let next = (files.last.flatMap { Int($0.split(separator: ".").last ?? "") } ?? 0) + 1
            let handOver = configuration.storeDirectory.appendingPathComponent("\(Self.crashHandOverPrefix)\(next)").path
            if rename(recordPath, handOver) == 0 { files.append(handOver) }
        }
        let crashes = files.flatMap { file in
            String(decoding: PrivateFiles.read(file) ?? [], as: UTF8.self).split(separator: "\n").compactMap(CrashRecord.init)
        }
        guard !files.isEmpty else { return }
        unstored.withLock { $0.crashesInNextBatch = !crashes.isEmpty }
        for crash in crashes {
            let properties: Properties = ["app_crashed_reason": .string(crash.reason)]
            submit(Submission(
                time: crash.time, monotonic: configuration.clock.monotonicNow(), context: callContext(),
                content: .lifecycle(Self.appCrashedEvent, properties)))
        }
        worker.sync { drainSubmissions() }
        let waiting = unstored.withLock { unstored in
            defer { unstored.crashesInNextBatch = false }
            return unstored.holdsCrashes
        }
        state.withLock {
            $0.diagnostics.crashesDelivered += crashes.count
            $0.crashHandOverFiles = files
        }
        if !waiting { crashesStored() }
    }

    /// Takes back the signal records this process wrote: it still runs, so the signal
    /// did not end it — a handler installed before ours recovered by jumping out of
    /// it. Called as the tracker flushes and shuts down; an error the host reported is
    /// kept (the host ends the process after it).
    func takeBackSurvivedCrashRecords() {
        guard configuration.capturesCrashes else { return }
        let path = Self.crashRecordFile(in: configuration.storeDirectory).path
        guard let bytes = PrivateFiles.read(path), !bytes.isEmpty else { return }
        let own = getpid()
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        let kept = lines.filter { line in CrashRecord(line).map { !($0.isSignal && $0.processID == own) } ?? true }
        guard kept.count != lines.count else { return }
        _ = PrivateFiles.write(Array(kept.map { $0 + "\n" }.joined().utf8), to: path)
        state.withLock { $0.diagnostics.crashRecordsTakenBack += lines.count - kept.count }
    }

    /// The batch holding the delivered crashes was written: their files are done with.
    func crashesStored() {
        let files = state.withLock { state in
            defer { state.crashHandOverFiles = [] }
            return state.crashHandOverFiles
        }
        for file in files { unlink(file) }
    }
}

/// One line of the crash record: `autotrack-crash <time ms> <pid> <reason>` for a
/// fatal signal, `autotrack-reported …` for an error a host reported.
struct CrashRecord {
    let time: Timestamp
    let processID: Int32
    let reason: String
    /// A fatal signal, not a reported error.
    let isSignal: Bool

    init?(_ line: Substring) {
        let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "autotrack-crash" || parts[0] == "autotrack-reported",
              let milliseconds = Int64(parts[1]), let processID = Int32(parts[2]) else { return nil }
        time = Timestamp(millisecondsSince1970: milliseconds)
        self.processID = processID
        reason = String(parts[3])
        isSignal = parts[0] == "autotrack-crash"
    }
}
