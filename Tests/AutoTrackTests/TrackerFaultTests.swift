import AutoTrack
import AutoTrackEvents
import Foundation
import Testing

@Suite("The tracker under faults: a second tracker on the store, a million events with the collector down")
struct TrackerFaultTests {
    @Test("a second tracker on the same store is refused with a typed error; the first loses nothing")
    func secondTracker() throws {
        let directory = temporaryDirectory("two-trackers")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = TrackerConfiguration(
            storeDirectory: directory, device: testDevice, flushPolicy: FlushPolicy(batchSize: 100_000, interval: nil))
        let first = try Tracker(configuration: configuration)
        #expect(throws: QueueError.locked(path: directory.appendingPathComponent("queue").path)) {
            try Tracker(configuration: configuration)
        }
        for number in 0..<5000 { try first.track("e", properties: ["n": .integer(Int64(number))]) }
        first.waitUntilQueued()
        #expect(first.diagnostics.queued == 5000)
        #expect(first.flush().delivered == 5000)
        first.shutdown()
        // Once the first is shut down, the store is free again.
        let second = try Tracker(configuration: configuration)
        second.shutdown()
    }

    @Test("the store directory and its files are private (0700 / 0600)")
    func privateStore() throws {
        let parent = temporaryDirectory("private-store")
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("store")
        let tracker = try Tracker(configuration: TrackerConfiguration(
            storeDirectory: directory, device: testDevice, flushPolicy: FlushPolicy(batchSize: 1, interval: nil)))
        try tracker.track("e")
        tracker.waitUntilQueued()
        tracker.shutdown()
        func mode(_ url: URL) -> Int? {
            (try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue
        }
        #expect(mode(directory) == 0o700)
        #expect(mode(directory.appendingPathComponent("queue")) == 0o700)
        for name in ["anonymous_id", "events.ndjson"] {
            #expect(mode(directory.appendingPathComponent(name)) == 0o600, "\(name)")
        }
    }

    /// Runs `autotrack track-stress` with `arguments` and returns the numbers it prints.
    static func stress(_ arguments: [String]) throws -> [String: Int] {
        let executable = CrashSafetyTests.writer
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build the autotrack product first (swift build)")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["track-stress"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        var values: [String: Int] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        return values
    }

    @Test("8 threads × 100 000 tracks: 800 000 stored, 0 dropped, peak memory under 128 MiB; callers wait for room instead")
    func burstFromEightThreads() throws {
        let directory = temporaryDirectory("burst")
        defer { try? FileManager.default.removeItem(at: directory) }
        let values = try Self.stress(["--dir", directory.path, "--count", "100000", "--threads", "8", "--keep-all"])
        #expect(values["queued"] == 800_000, "\(values)")
        #expect(values["dropped_while_busy"] == 0)
        #expect(values["track_errors"] == 0)
        #expect(values["store_failures"] == 0)
        #expect(values["dropped_oldest"] == 0)
        let peak = try #require(values["peak_rss_kb"])
        #expect(peak > 0 && peak < 128 * 1024, "peak RSS \(peak) KiB")
        print("8 × 100 000 tracks: peak RSS \(peak / 1024) MiB; \(values["waits_for_room"] ?? -1) waits for room, "
              + "longest \((values["longest_wait_us"] ?? 0) / 1000) ms, total \((values["total_wait_us"] ?? 0) / 1000) ms")
    }

    @Test("1 000 000 tracks with the collector down stay under 100 MB; every event is stored or counted")
    func boundedMemory() throws {
        let directory = temporaryDirectory("stress")
        defer { try? FileManager.default.removeItem(at: directory) }
        let values = try Self.stress(["--dir", directory.path, "--count", "1000000"])
        let peak = try #require(values["peak_rss_kb"])
        #expect(peak > 0 && peak < 100 * 1024, "peak RSS \(peak) KiB")
        let accounted = (values["queued"] ?? 0) + (values["dropped_while_busy"] ?? 0) + (values["store_failures"] ?? 0)
        #expect(accounted == 1_000_000, "\(values)")
        print("1 000 000 tracks, collector down: peak RSS \(peak / 1024) MiB; \(values)")
    }
}
