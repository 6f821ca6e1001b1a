import AutoTrackProperties
import AutoTrack
import AutoTrackEvents
import AutoTrackReferenceHostIntegration
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackSampleSession
import AutoTrackSerialization
import Foundation
import AutoTrackLocking

/// `autotrack demo`: the sample app with automatic capture, a scripted session, each
/// event printed as it is queued, the queue and the delivered NDJSON written under
/// `--out`, or sent to `--endpoint`.
struct DemoCommand {
    let outputDirectory: String?
    let endpoint: String?
    let wireFormat: CollectorWireFormat
    /// Print every event as pretty JSON (for scripts) instead of one line per event.
    var printsJSON = false
    /// Also write the inspect page with this session's clicks as a heat map.
    var writesInspectPage = false

    func run() throws -> Int32 {
        let directory = outputDirectory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-demo-\(UUID().uuidString.prefix(8))")
        // Private, as the store inside it: events carry ids and search text.
        if let code = PrivateFiles.createDirectory(directory.path) {
            throw QueueError.io(operation: .createDirectory, path: directory.path, errno: code)
        }
        let output = directory.appendingPathComponent("events.ndjson")
        // Sent to a collector, what it accepts is also copied to events.ndjson: the
        // summary and the inspect page name that file.
        let transport: TransportChoice = endpoint.flatMap(URL.init(string:)).map { url in
            .custom(CopyingTransport(
                sending: HTTPTransport(endpoint: url, wireFormat: wireFormat, timeout: 10),
                copy: LocalFileTransport(file: output, dateOffsetSeconds: TimeZone.current.secondsFromGMT())))
        } ?? .localFile(output)
        let pretty = EventJSONEncoder(layout: .pretty, dateOffsetSeconds: TimeZone.current.secondsFromGMT())
        let printed = Locked(0)
        let tally = Locked<[(name: String, screen: String)]>([])
        let printsJSON = printsJSON
        var configuration = TrackerConfiguration(
            storeDirectory: directory.appendingPathComponent("store"),
            device: .current(appVersion: "1.0", screenWidth: 390, screenHeight: 844),
            transport: transport,
            flushPolicy: FlushPolicy(batchSize: 20, interval: nil),
            dateOffsetSeconds: TimeZone.current.secondsFromGMT(),
            eventObserver: { event in
                printed.withLock { $0 += 1 }
                var screen = "—"
                if case .string(let name)? = event.properties["$screen_name"] { screen = name }
                tally.withLock { $0.append((event.name.rawValue, screen)) }
                if printsJSON {
                    print(pretty.encodeToString(event))
                } else {
                    var detail = ""
                    if case .string(let content)? = event.properties["$element_content"] { detail = " \"\(content)\"" }
                    if case .number(let seconds)? = event.properties["event_duration"] { detail = " after \(seconds) s" }
                    if event.name == .appElementExposure, case .string(let type)? = event.properties["$element_type"] { detail = " \(type)" + detail }
                    print("  \(event.name.rawValue.padding(toLength: 19, withPad: " ", startingAt: 0)) \(screen)\(detail)")
                }
            })
        // The demo shows every automatic event, page leaves too (off by default).
        configuration.autoTrackSettings.eventTypes = .all
        // A dead click shows half a second after the tap nothing answered.
        configuration.autoTrackSettings.deadClickTimeout = .milliseconds(500)
        // With --json, standard output carries the events alone (a stream of JSON
        // objects for scripts); the narration goes to standard error.
        func narrate(_ text: String) {
            if printsJSON {
                FileHandle.standardError.write(Data((text + "\n").utf8))
            } else {
                print(text)
            }
        }
        // Before the tracker starts: its first events print from its worker.
        narrate("AutoTrack demo — store: \(directory.path)\n")
        let tracker = try Tracker(configuration: configuration)
        // As an app does: start the SDK first, then build the UI.
        let host = try ReferenceHost()
        try tracker.enableAutoTrack(on: host)
        let app = try SampleApp(host: host)
        try ScriptedSession.play(on: app, tracker: tracker, pausing: true) { step in
            tracker.waitUntilQueued()
            narrate("\n▶ \(step.description)")
        }
        tracker.waitUntilQueued()
        let report = tracker.flush()
        tracker.shutdown()
        let diagnostics = tracker.diagnostics
        narrate("\n▶ crash a child process with SIGSEGV, then launch again: the crash is delivered")
        try Self.crashAndRelaunch(store: directory.appendingPathComponent("crash-store"), configuration: configuration)

        narrate("\n" + Self.summary(tally.withLock { $0 }))
        var inspectLine = "Look at the screens and where the clicks went: swift run autotrack inspect --out DIR --events \(output.path)"
        if writesInspectPage {
            let page = try InspectCommand.write(to: directory.appendingPathComponent("inspect"), events: output)
            inspectLine = "inspect:   file://\(page.path) (this session's clicks as a heat map)"
        }
        narrate("""

            \(printed.withLock { $0 }) events: \(diagnostics.queued) queued, \(report.delivered) delivered now (\(diagnostics.delivered) in all), \
            \(report.rejected) rejected by the collector, \(diagnostics.queue.pendingRecords) still queued\
            \(report.deferred ? " (deferred: the collector was unavailable)" : "")\
            \(report.rejectionReasons.isEmpty ? "" : "\nrejected: " + report.rejectionReasons.joined(separator: "; "))
            queue:     \(directory.appendingPathComponent("store/queue").path)
            delivered: \(endpoint.map { "\($0) (a copy of the session's events: \(output.path))" } ?? output.path)
            \(inspectLine)
            """)
        return report.deferred ? 1 : 0
    }
}

extension DemoCommand {
    /// Runs `autotrack crash-child` on `store` (it tracks an event, then dies of
    /// SIGSEGV), then opens a tracker there with crash capture on, as the next launch
    /// would: it tracks `AppCrashed` and sends it with the event before the crash.
    static func crashAndRelaunch(store: URL, configuration: TrackerConfiguration) throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["crash-child", "--dir", store.path, "--crash", "segv"]
        child.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        var relaunch = configuration
        relaunch.storeDirectory = store
        relaunch.capturesCrashes = true
        let tracker = try Tracker(configuration: relaunch)
        tracker.flush()
        tracker.shutdown()
    }

    /// Events per type and per screen, as a small table.
    static func summary(_ events: [(name: String, screen: String)]) -> String {
        let names = events.reduce(into: [String: Int]()) { $0[$1.name, default: 0] += 1 }.sorted { $0.key < $1.key }
        let screens = events.reduce(into: [String: Int]()) { $0[$1.screen, default: 0] += 1 }.sorted { $0.key < $1.key }
        var lines = ["events by type                 events by screen"]
        for row in 0..<max(names.count, screens.count) {
            let left = row < names.count ? "  \(String(names[row].value).leftPadded(3))  \(names[row].key)" : ""
            let right = row < screens.count ? "  \(String(screens[row].value).leftPadded(3))  \(screens[row].key)" : ""
            lines.append(left.padding(toLength: 31, withPad: " ", startingAt: 0) + right)
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// Padded with spaces on the left to `width`.
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

/// `autotrack queue-writer --dir D --count N`: appends numbered records to a durable
/// queue, printing each number once its append returned — the child process of the
/// crash-safety test, which kills it at random moments. With `--ndjson FILE` it
/// delivers numbered batches of 50 events to the NDJSON file transport instead.
struct QueueWriterCommand {
    /// Unbounded for the test: no record may be dropped.
    static let limits = DurableQueue.Limits(maximumRecords: 1 << 40, maximumBytes: 1 << 50, segmentBytes: 64 << 10)

    let directory: String
    let count: Int
    let sync: Bool
    var ndjsonFile: String?

    func run() throws -> Int32 {
        if let ndjsonFile { return try writeNDJSON(to: ndjsonFile) }
        let queue = try DurableQueue(directory: URL(fileURLWithPath: directory), limits: Self.limits)
        for number in 0..<count {
            let payload = Array("record \(number) ".utf8) + [UInt8](repeating: UInt8(number % 251), count: 100 + number % 400)
            try queue.append([payload], sync: sync)
            FileHandle.standardOutput.write(Data("\(number)\n".utf8))
        }
        return 0
    }

    private func writeNDJSON(to path: String) throws -> Int32 {
        let transport = LocalFileTransport(file: URL(fileURLWithPath: path))
        let ids = SequentialEventIDGenerator()
        var report = SanitizationReport()
        for batch in 0..<count {
            let events = try (0..<50).map { index in
                try PropertyRules.standard.makeEvent(
                    name: "batch", properties: ["batch": .integer(Int64(batch)), "index": .integer(Int64(index)),
                                                "filler": .string(String(repeating: "x", count: 200 + index * 7))],
                    time: Timestamp(millisecondsSince1970: 1_700_000_000_000), identity: .anonymous("writer"), id: ids.next(),
                    report: &report)
            }
            guard transport.deliver(events) == .accepted else { return 1 }
            FileHandle.standardOutput.write(Data("\(batch)\n".utf8))
        }
        return 0
    }
}

/// `autotrack track-stress --dir D --count N [--threads T] [--keep-all]`: `track`
/// called N times on each of T threads while the collector is down (a closed loopback
/// port), then the peak resident memory, the tracker's counts and the callers' waits
/// for room — the child process of the memory-bound and burst tests.
struct TrackStressCommand {
    let directory: String
    let count: Int
    var threads = 1
    var keepsAll = false

    func run() throws -> Int32 {
        let tracker = try Tracker(configuration: TrackerConfiguration(
            storeDirectory: URL(fileURLWithPath: directory),
            transport: .http(endpoint: URL(string: "http://127.0.0.1:9/down")!, wireFormat: .jsonBatch, timeout: 1),
            flushPolicy: FlushPolicy(batchSize: 50, interval: nil),
            queueLimits: keepsAll ? DurableQueue.Limits(maximumRecords: 1 << 40, maximumBytes: 1 << 50, segmentBytes: 16 << 20) : DurableQueue.Limits(),
            maximumWaitForRoom: .seconds(600)))
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for number in 0..<count {
                do {
                    try tracker.track("stress", properties: [
                        "n": PropertyValue.integer(Int64(number)), "thread": .integer(Int64(thread)), "note": "a property of moderate length",
                    ])
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        tracker.waitUntilQueued()
        let peakKilobytes = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?
            .split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
        let diagnostics = tracker.diagnostics
        print("peak_rss_kb \(peakKilobytes)")
        print("queued \(diagnostics.queued)")
        print("dropped_while_busy \(diagnostics.droppedWhileBusy)")
        print("store_failures \(diagnostics.storeFailures)")
        print("dropped_oldest \(diagnostics.queue.droppedOldest)")
        print("track_errors \(failures.withLock { $0 })")
        print("waits_for_room \(diagnostics.waitsForRoom.count)")
        print("longest_wait_us \(Self.microseconds(diagnostics.waitsForRoom.longest))")
        print("total_wait_us \(Self.microseconds(diagnostics.waitsForRoom.total))")
        return 0
    }

    static func microseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1_000_000 + Int(duration.components.attoseconds / 1_000_000_000_000)
    }
}

/// Sends through one transport and, for what it accepts, writes a copy through another.
struct CopyingTransport: Transport {
    let sending: any Transport
    let copy: any Transport

    func deliver(_ events: [Event]) -> DeliveryResult {
        let result = sending.deliver(events)
        if case .accepted = result { _ = copy.deliver(events) }
        return result
    }
}
