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
        let lines = files.flatMap { file in String(decoding: PrivateFiles.read(file) ?? [], as: UTF8.self).split(separator: "\n") }
        // A signal its process outlived — a survival note of the same process after
        // it in the record (appends keep their order) — was no crash.
        var recorded: [CrashRecord] = []
        var survived: Set<Int> = []
        for line in lines {
            if let record = CrashRecord(line) {
                recorded.append(record)
            } else if let note = SurvivalNote(line) {
                for (index, record) in recorded.enumerated() where record.isSignal && record.processID == note.processID {
                    survived.insert(index)
                }
            }
        }
        let crashes = recorded.enumerated().filter { !survived.contains($0.offset) }.map(\.element)
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
            $0.diagnostics.crashRecordsTakenBack += recorded.count - crashes.count
            $0.crashHandOverFiles = files
        }
        if !waiting { crashesStored() }
    }

    /// Notes, in the crash record, that this process is alive: a signal recorded
    /// before and survived — a handler installed before ours recovered by jumping out
    /// of it — is then no crash at the next launch. Called as the tracker flushes and
    /// shuts down; skipped while a handler runs an earlier one (a crash may be under
    /// way).
    func noteAlive() {
        guard configuration.capturesCrashes else { return }
        let path = Self.crashRecordFile(in: configuration.storeDirectory).path
        var status = stat()
        guard stat(path, &status) == 0, status.st_size > 0 else { return }
        // Read only when the record grew since the last look; note only a signal of
        // this process not noted yet — the file does not grow with every flush.
        let size = Int(status.st_size)
        guard state.withLock({ $0.crashRecordSizeSeen != size }) else { return }
        let lines = String(decoding: PrivateFiles.read(path) ?? [], as: UTF8.self).split(separator: "\n")
        let own = getpid()
        let lastSignal = lines.lastIndex { CrashRecord($0).map { $0.isSignal && $0.processID == own } ?? false }
        let lastNote = lines.lastIndex { SurvivalNote($0)?.processID == own }
        if let lastSignal, lastNote.map({ $0 < lastSignal }) ?? true {
            // Into the file that holds the record.
            let descriptor = PrivateFiles.open(path, O_WRONLY | O_APPEND)
            defer { if descriptor >= 0 { PrivateFiles.closeDescriptor(descriptor) } }
            if descriptor >= 0, autotrack_crash_capture_note_alive(descriptor) == 0 {
                state.withLock { $0.crashRecordSizeSeen = -1 }
                return
            }
        }
        state.withLock { $0.crashRecordSizeSeen = size }
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

/// A line `autotrack-survived <time ms> <pid>`: the process was alive then.
struct SurvivalNote {
    let time: Timestamp
    let processID: Int32

    init?(_ line: Substring) {
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "autotrack-survived", let milliseconds = Int64(parts[1]),
              let processID = Int32(parts[2]) else { return nil }
        time = Timestamp(millisecondsSince1970: milliseconds)
        self.processID = processID
    }
}
