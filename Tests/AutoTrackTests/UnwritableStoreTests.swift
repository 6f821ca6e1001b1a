import AutoTrack
import AutoTrackEvents
import AutoTrackSerialization
import AutoTrackTesting
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A store that refuses appends — a full disk — keeps its events in memory and writes
/// them, in order, when it recovers; only past the bound are they dropped, counted.
@Suite("Events survive a store that cannot be written (a full tmpfs)", .enabled(if: canMountTmpfs, "needs permission to mount a tmpfs"))
struct UnwritableStoreTests {
    /// A tracker storing on a fresh 512 KiB tmpfs, and a way to fill it to the last byte.
    struct FullDisk {
        let mountPoint: URL
        let filler: URL

        init() throws {
            mountPoint = temporaryDirectory("unwritable")
            filler = mountPoint.appendingPathComponent("filler")
            try #require(mount("tmpfs", mountPoint.path, "tmpfs", 0, "size=512k,mode=0700") == 0)
        }

        /// Writes the filler until the file system has no byte left. Close-on-exec: a
        /// child process another test starts meanwhile must not keep the filler's
        /// space alive after ``free()``.
        func fill() {
            let descriptor = open(filler.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            defer { close(descriptor) }
            var block = [UInt8](repeating: 0x2E, count: 4096)
            while block.withUnsafeMutableBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
            var byte: UInt8 = 0x2E
            while write(descriptor, &byte, 1) > 0 {}
        }

        func free() throws { try FileManager.default.removeItem(at: filler) }

        func unmount() {
            umount(mountPoint.path)
            try? FileManager.default.removeItem(at: mountPoint)
        }
    }

    static func numbers(in queue: DurableQueue) throws -> [Int64] {
        let decoder = EventJSONDecoder()
        return try queue.peek(100_000).compactMap { record in
            guard case .integer(let number)? = try decoder.decodeEvent(from: record.payload).properties["n"] else { return nil }
            return number
        }
    }

    @Test("100 events tracked onto a full disk are kept, then stored in order once space returns; none lost")
    func keptAndRetried() throws {
        let disk = try FullDisk()
        defer { disk.unmount() }
        let memory = try InMemoryTracker(storeDirectory: disk.mountPoint.appendingPathComponent("store"))
        let tracker = memory.tracker
        defer { tracker.shutdown() }
        let before = tracker.diagnostics.queued
        disk.fill()
        for batch in 0..<10 {
            for index in 0..<10 { try tracker.track("offline", properties: ["n": .integer(Int64(batch * 10 + index))]) }
            tracker.waitUntilQueued()
        }
        var diagnostics = tracker.diagnostics
        #expect(diagnostics.queued == before, "the full disk took nothing")
        #expect(diagnostics.awaitingStore == 100)
        #expect(diagnostics.storeFailures == 0)
        #expect(tracker.queue.statistics.writeFailures > 0)
        try disk.free()
        tracker.waitUntilQueued()
        diagnostics = tracker.diagnostics
        #expect(diagnostics.queued == before + 100)
        #expect(diagnostics.awaitingStore == 0)
        #expect(try Self.numbers(in: tracker.queue) == Array(0..<100), "every event, in the order tracked")
    }

    @Test("past maximumUnstoredEvents the oldest refused events are dropped and counted; the newest are stored")
    func boundedAndCounted() throws {
        let disk = try FullDisk()
        defer { disk.unmount() }
        let memory = try InMemoryTracker(storeDirectory: disk.mountPoint.appendingPathComponent("store")) {
            $0.maximumUnstoredEvents = 30
        }
        let tracker = memory.tracker
        defer { tracker.shutdown() }
        disk.fill()
        for batch in 0..<10 {
            for index in 0..<10 { try tracker.track("offline", properties: ["n": .integer(Int64(batch * 10 + index))]) }
            tracker.waitUntilQueued()
        }
        #expect(tracker.diagnostics.awaitingStore == 30)
        #expect(tracker.diagnostics.storeFailures == 70, "every dropped event counted")
        try disk.free()
        tracker.waitUntilQueued()
        #expect(try Self.numbers(in: tracker.queue) == Array(70..<100))
    }
}

/// Crash records delivered while the store refuses writes: delivered once the store
/// takes them, never twice, never lost.
@Suite("Crashes delivered onto a full disk", .enabled(if: canMountTmpfs, "needs permission to mount a tmpfs"))
struct CrashDeliveryOntoAFullDiskTests {
    /// A store on a full-disk mount, made by a first launch, with one crash record.
    static func storeWithACrash(on disk: UnwritableStoreTests.FullDisk) throws -> URL {
        let store = disk.mountPoint.appendingPathComponent("store")
        try InMemoryTracker(storeDirectory: store) { $0.capturesCrashes = true }.tracker.shutdown()
        try Data("autotrack-crash 1700000000000 1 SIGSEGV\n".utf8).write(to: store.appendingPathComponent("crash_record"))
        return store
    }

    func crashesDelivered(from store: URL) throws -> Int {
        let launch = try InMemoryTracker(storeDirectory: store) { $0.capturesCrashes = true }
        defer { launch.tracker.shutdown() }
        return launch.tracker.diagnostics.crashesDelivered
    }

    @Test("a crash delivered while the store refuses writes is stored when the disk recovers, and the next launch does not deliver it again")
    func storedLaterOnce() throws {
        let disk = try UnwritableStoreTests.FullDisk()
        defer { disk.unmount() }
        let store = try Self.storeWithACrash(on: disk)
        disk.fill()
        let launch = try InMemoryTracker(storeDirectory: store) { $0.capturesCrashes = true }
        #expect(launch.tracker.diagnostics.crashesDelivered == 1)
        #expect(launch.tracker.diagnostics.awaitingStore == 1)
        try disk.free()
        launch.tracker.waitUntilQueued()
        #expect(launch.tracker.diagnostics.awaitingStore == 0)
        launch.tracker.flush()
        #expect(launch.transport.events.map(\.name.rawValue) == ["AppCrashed"])
        launch.tracker.shutdown()
        #expect(try crashesDelivered(from: store) == 0, "delivered once")
    }

    @Test("a launch that ends before the store takes the crash leaves it to the next launch")
    func leftToTheNextLaunch() throws {
        let disk = try UnwritableStoreTests.FullDisk()
        defer { disk.unmount() }
        let store = try Self.storeWithACrash(on: disk)
        disk.fill()
        let launch = try InMemoryTracker(storeDirectory: store) { $0.capturesCrashes = true }
        #expect(launch.tracker.diagnostics.awaitingStore == 1)
        launch.tracker.shutdown()
        try disk.free()
        #expect(try crashesDelivered(from: store) == 1, "delivered by the next launch")
        #expect(try crashesDelivered(from: store) == 0)
    }

    @Test("a crash batch dropped from the full retry buffer is delivered again by the next launch; one stored is not")
    func droppedCrashBatchComesBack() throws {
        let disk = try UnwritableStoreTests.FullDisk()
        defer { disk.unmount() }
        let store = try Self.storeWithACrash(on: disk)
        disk.fill()
        let launch = try InMemoryTracker(storeDirectory: store) {
            $0.capturesCrashes = true
            $0.maximumUnstoredEvents = 3
        }
        #expect(launch.tracker.diagnostics.crashesDelivered == 1)
        for index in 0..<3 { try launch.tracker.track("offline", properties: ["n": .integer(Int64(index))]) }
        launch.tracker.waitUntilQueued()
        #expect(launch.tracker.diagnostics.storeFailures == 1, "the crash batch, the oldest, was dropped")
        try disk.free()
        launch.tracker.waitUntilQueued()
        #expect(launch.tracker.diagnostics.awaitingStore == 0)
        launch.tracker.shutdown()
        #expect(try crashesDelivered(from: store) == 1, "its record was kept")
        #expect(try crashesDelivered(from: store) == 0)
    }
}
