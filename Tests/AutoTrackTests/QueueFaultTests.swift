import AutoTrack
import AutoTrackEvents
import AutoTrackSerialization
import Foundation
import Testing
import AutoTrackLocking
#if canImport(Glibc)
import Glibc
#endif

/// A write layer that fails on demand: from the `failAt`-th write on (1-based), writes
/// put `shortBytes` bytes down and then fail with `errno`, until `recover()`.
final class FaultyWriteLayer: QueueWriteLayer {
    struct Plan {
        var failAt = Int.max
        var shortBytes = 0
        var errno: Int32 = ENOSPC
        var failSync = false
    }
    private let system = SystemQueueWriteLayer()
    private let state: Locked<(plan: Plan, writes: Int, partialDone: Bool)>

    init(_ plan: Plan = Plan()) { state = Locked((plan, 0, false)) }

    func recover() { state.withLock { $0.plan = Plan() } }

    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        let decision = state.withLock { state -> Int? in
            state.writes += 1
            guard state.writes >= state.plan.failAt else { return nil }
            if state.plan.shortBytes > 0, !state.partialDone {
                state.partialDone = true
                return min(state.plan.shortBytes, bytes.count)
            }
            state.partialDone = false
            return -Int(state.plan.errno)
        }
        guard let decision else { return system.write(descriptor, bytes, at: offset) }
        if decision > 0 { return system.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[0..<decision]), at: offset) }
        return decision
    }

    func synchronize(_ descriptor: Int32) -> Int32 {
        state.withLock { $0.plan.failSync } ? EIO : system.synchronize(descriptor)
    }

    func truncate(_ descriptor: Int32, to length: Int) -> Int32 { system.truncate(descriptor, to: length) }
}

@Suite("The durable queue under faults: damage, full disks, vanished segments, a second owner")
struct QueueFaultTests {
    func payload(_ number: Int) -> [UInt8] { Array("record \(number) ".utf8) + [UInt8](repeating: UInt8(number % 251), count: 20 + number % 61) }

    func segmentFiles(_ directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("segment-") }.sorted()
            .map { directory.appendingPathComponent($0) }
    }

    @Test("a zero-filled tail (a power cut) parses as no record: 0 fake records, every real one kept")
    func zeroTail() throws {
        let directory = temporaryDirectory("zero-tail")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let queue = try DurableQueue(directory: directory, limits: .init(segmentBytes: 8 << 20))
            try queue.append((0..<100).map(payload))
            queue.close()
        }
        let segment = try #require(try segmentFiles(directory).first)
        let handle = try FileHandle(forWritingTo: segment)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(count: 1 << 20))
        try handle.close()
        let recovered = try DurableQueue(directory: directory, limits: .init(segmentBytes: 8 << 20))
        #expect(recovered.statistics.recoveredRecords == 100)
        #expect(recovered.statistics.droppedOldest == 0)
        #expect(recovered.statistics.truncatedBytes == 1 << 20)
        #expect(try recovered.peek(1000).map(\.payload) == (0..<100).map(payload))
        // Zeros in the middle of a segment are skipped too.
        try recovered.append([payload(100)])
        #expect(try recovered.peek(1000).count == 101)
    }

    @Test("500 single-byte damages: every undamaged record recovered, no fake record")
    func randomDamage() throws {
        var random = SplitMix64(seed: 0xA7)
        var undamaged = 0, recoveredUndamaged = 0, fake = 0, damagedCounted = 0
        let directory = temporaryDirectory("damage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let records = (0..<40).map(payload)
        var original: [UInt8] = []
        do {
            let queue = try DurableQueue(directory: directory)
            try queue.append(records)
            queue.close()
            original = try [UInt8](Data(contentsOf: try segmentFiles(directory)[0]))
        }
        // Where each record lies, to know which one a damaged byte belongs to.
        var starts: [Int] = []
        var offset = 0
        for record in records {
            starts.append(offset)
            offset += 12 + record.count
        }
        for _ in 0..<500 {
            var bytes = original
            let position = Int.random(in: 0..<bytes.count, using: &random)
            bytes[position] ^= UInt8.random(in: 1...255, using: &random)
            let hit = starts.lastIndex { $0 <= position }!
            try Data(bytes).write(to: try segmentFiles(directory)[0])
            try? FileManager.default.removeItem(at: directory.appendingPathComponent("cursor"))
            let queue = try DurableQueue(directory: directory)
            let got = try queue.peek(100).map(\.payload)
            undamaged += records.count - 1
            recoveredUndamaged += records.indices.filter { $0 != hit && got.contains(records[$0]) }.count
            fake += got.filter { !records.contains($0) }.count
            damagedCounted += queue.statistics.damagedRecords + (queue.statistics.truncatedBytes > 0 ? 1 : 0)
            queue.close()
        }
        #expect(fake == 0)
        #expect(Double(recoveredUndamaged) >= 0.999 * Double(undamaged), "\(recoveredUndamaged) of \(undamaged)")
        #expect(damagedCounted >= 500, "every damage is visible in the statistics")
        print("random damage: \(recoveredUndamaged) of \(undamaged) undamaged records recovered, \(fake) fake, \(damagedCounted) losses counted")
    }

    @Test("a full disk mid-append: nothing acknowledged is lost, nothing unacknowledged appears, appends resume without a restart",
          arguments: [(1, 0, false), (2, 0, false), (2, 7, false), (3, 40, false), (2, 0, true), (4, 13, true)])
    func diskFull(failAt: Int, shortBytes: Int, sync: Bool) throws {
        let directory = temporaryDirectory("enospc")
        defer { try? FileManager.default.removeItem(at: directory) }
        let layer = FaultyWriteLayer(.init(failAt: failAt, shortBytes: shortBytes))
        let queue = try DurableQueue(directory: directory, limits: .init(segmentBytes: 2048), files: layer)
        var acknowledged: [[UInt8]] = []
        var failures = 0
        for batch in 0..<6 {
            let payloads = (0..<5).map { payload(batch * 10 + $0) }
            do {
                try queue.append(payloads, sync: sync)
                acknowledged += payloads
            } catch {
                guard case .io(.append, _, ENOSPC) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                failures += 1
            }
            #expect(queue.statistics.pendingRecords == acknowledged.count, "the index holds exactly what was acknowledged")
            #expect(try queue.peek(1000).map(\.payload) == acknowledged, "every peek works after a failure")
            if batch == 3 { layer.recover() }  // space returns
        }
        #expect(failures > 0)
        #expect(queue.statistics.writeFailures == failures)
        try queue.append([payload(999)])
        acknowledged.append(payload(999))
        queue.close()
        let reopened = try DurableQueue(directory: directory, limits: .init(segmentBytes: 2048))
        #expect(try reopened.peek(1000).map(\.payload) == acknowledged, "0 acknowledged records lost, 0 unacknowledged ones kept")
        #expect(reopened.statistics.damagedRecords == 0)
    }

    @Test("a failing fsync refuses the append and keeps nothing of it")
    func failingSync() throws {
        let directory = temporaryDirectory("eio")
        defer { try? FileManager.default.removeItem(at: directory) }
        let layer = FaultyWriteLayer(.init(failSync: true))
        let queue = try DurableQueue(directory: directory, files: layer)
        try queue.append([payload(0)])
        #expect(throws: QueueError.self) { try queue.append([payload(1)], sync: true) }
        layer.recover()
        try queue.append([payload(2)], sync: true)
        #expect(try queue.peek(10).map(\.payload) == [payload(0), payload(2)])
        queue.close()
        #expect(try DurableQueue(directory: directory).peek(10).map(\.payload) == [payload(0), payload(2)])
    }

    @Test("a segment deleted or replaced while open is skipped and counted; the rest is delivered")
    func vanishedSegment() throws {
        let directory = temporaryDirectory("vanished")
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = try DurableQueue(directory: directory, limits: .init(segmentBytes: 1024))
        for batch in 0..<20 { try queue.append((0..<10).map { payload(batch * 10 + $0) }) }
        let segments = try segmentFiles(directory)
        #expect(segments.count >= 4)
        try FileManager.default.removeItem(at: segments[1])
        try Data(repeating: 0x5A, count: 4096).write(to: segments[2])  // replaced by garbage
        var delivered = 0
        while true {
            let batch = try queue.peek(25)
            if batch.isEmpty { break }
            delivered += batch.count
            try queue.remove(batch)
        }
        let lost = queue.statistics.unreadableRecords
        #expect(lost > 0)
        #expect(delivered + lost == 200, "every record is delivered or counted")
        #expect(queue.statistics.pendingRecords == 0)
    }

    @Test("a segment missing when the queue opens is counted; the segments around it are recovered")
    func missingSegmentOnOpen() throws {
        let directory = temporaryDirectory("missing")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let queue = try DurableQueue(directory: directory, limits: .init(segmentBytes: 1024))
            for batch in 0..<20 { try queue.append((0..<10).map { payload(batch * 10 + $0) }) }
            queue.close()
        }
        let segments = try segmentFiles(directory)
        let removed = try [UInt8](Data(contentsOf: segments[2]))
        try FileManager.default.removeItem(at: segments[2])
        let queue = try DurableQueue(directory: directory, limits: .init(segmentBytes: 1024))
        #expect(queue.statistics.missingSegments == 1)
        let lostRecords = removed.withUnsafeBytes { raw in (0..<raw.count).filter { raw[$0] == 0xA7 && $0 + 1 < raw.count && raw[$0 + 1] == 0x51 }.count }
        #expect(queue.statistics.recoveredRecords == 200 - lostRecords)
    }

    @Test("a second queue on the same store is refused with a typed error, in this process and from another")
    func exclusiveLock() throws {
        let directory = temporaryDirectory("lock")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try DurableQueue(directory: directory)
        try first.append([payload(1)])
        #expect(throws: QueueError.locked(path: directory.path)) { try DurableQueue(directory: directory) }
        // Another process (util-linux flock) cannot take it either.
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        other.arguments = ["-n", directory.appendingPathComponent("lock").path, "true"]
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/flock") {
            try other.run()
            other.waitUntilExit()
            #expect(other.terminationStatus != 0, "the lock is held across processes")
        }
        first.close()
        let second = try DurableQueue(directory: directory)
        #expect(try second.peek(10).map(\.payload) == [payload(1)], "nothing lost")
    }

    @Test("the store is private: directories 0700, files 0600, not what the umask gives")
    func privateModes() throws {
        let parent = temporaryDirectory("modes")
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("store/queue")
        // (The test process runs with the usual umask 022, under which files are 0644.)
        let queue = try DurableQueue(directory: directory)
        try queue.append([payload(0)])
        try queue.remove(try queue.peek(1))
        func mode(_ url: URL) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        #expect(try mode(directory) == 0o700)
        #expect(try mode(parent.appendingPathComponent("store")) == 0o700)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            #expect(try mode(directory.appendingPathComponent(name)) == 0o600, "\(name)")
        }
    }
}

@Suite("The NDJSON file transport never leaves a torn line for readers")
struct NDJSONFileTests {
    func event(_ number: Int) throws -> Event {
        var report = SanitizationReport()
        return try PropertyRules.standard.makeEvent(
            name: "e", properties: ["n": .integer(Int64(number))], time: Timestamp(millisecondsSince1970: 0), identity: .anonymous("a"),
            id: EventID(truncatingBits: UInt64(number)), report: &report)
    }

    @Test("a torn last line (a writer killed mid-write) is cut back before the next batch", arguments: [1, 17, 4000, 9000])
    func tornLineCut(tornBytes: Int) throws {
        let directory = temporaryDirectory("ndjson-torn")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("events.ndjson")
        let transport = LocalFileTransport(file: file)
        #expect(transport.deliver([try event(0), try event(1)]) == .accepted)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        let line = Array("{\"event\":\"e\",\"properties\":{\"filler\":\"".utf8) + [UInt8](repeating: 0x78, count: 9000)
        try handle.write(contentsOf: Data(line.prefix(tornBytes)))
        try handle.close()
        #expect(transport.deliver([try event(2)]) == .accepted)
        let events = try EventJSONDecoder().decodeNDJSON(from: [UInt8](try Data(contentsOf: file)))
        #expect(events.map(\.id.rawValue) == [0, 1, 2])
        let mode = (try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
    }
}

/// Whether this process may mount a tmpfs (root in a sandbox that allows it).
let canMountTmpfs: Bool = {
    let probe = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-tmpfs-probe-\(getpid())")
    try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: probe) }
    guard mount("tmpfs", probe.path, "tmpfs", 0, "size=64k") == 0 else { return false }
    umount(probe.path)
    return true
}()

@Suite("The durable queue on a real full disk (a small tmpfs)", .enabled(if: canMountTmpfs, "needs permission to mount a tmpfs"))
struct FullDiskTests {
    @Test("ENOSPC from a 256 KiB tmpfs: typed errors, 0 acknowledged records lost, appends resume when space returns")
    func realFullDisk() throws {
        let mountPoint = temporaryDirectory("tmpfs")
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        try #require(mount("tmpfs", mountPoint.path, "tmpfs", 0, "size=256k,mode=0700") == 0)
        defer { umount(mountPoint.path) }
        let filler = mountPoint.appendingPathComponent("filler")
        try Data(count: 64 << 10).write(to: filler)
        let directory = mountPoint.appendingPathComponent("queue")
        let queue = try DurableQueue(directory: directory, limits: .init(segmentBytes: 32 << 10))
        var acknowledged: [[UInt8]] = []
        var failures = 0
        for batch in 0..<400 {
            let payloads = (0..<4).map { Array("batch \(batch) record \($0) ".utf8) + [UInt8](repeating: UInt8($0), count: 300) }
            do {
                try queue.append(payloads, sync: true)
                acknowledged += payloads
            } catch {
                guard case .io(_, _, ENOSPC) = error else {
                    Issue.record("unexpected \(error)")
                    break
                }
                failures += 1
                if failures == 3 { try FileManager.default.removeItem(at: filler) }  // space returns
            }
            #expect(queue.statistics.pendingRecords == acknowledged.count)
        }
        #expect(failures >= 3, "the disk filled up")
        #expect(acknowledged.count > 0)
        #expect(queue.statistics.writeFailures == failures)
        queue.close()
        let reopened = try DurableQueue(directory: directory, limits: .init(segmentBytes: 32 << 10))
        #expect(try reopened.peek(100_000).map(\.payload) == acknowledged, "0 acknowledged records lost")
        print("tmpfs: \(acknowledged.count) records acknowledged, \(failures) appends refused with ENOSPC, all acknowledged recovered")
        reopened.close()
    }
}
