import AutoTrack
import AutoTrackEvents
import AutoTrackSerialization
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Crash safety: a writer killed with SIGKILL at random moments")
struct CrashSafetyTests {
    /// The `autotrack` executable, built next to the test bundle (`swift build` builds it;
    /// CI builds everything before testing).
    static var writer: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("autotrack")
    }

    @Test("20 trials: after each kill, the queue holds every acknowledged record and nothing corrupt")
    func killedWriter() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.writer.path), "build the autotrack product first (swift build)")
        var random = SplitMix64(seed: 20)
        let directory = temporaryDirectory("crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        var totalAcknowledged = 0
        var startFrom = 0
        for trial in 0..<20 {
            let run = try Self.killWriter(
                arguments: ["queue-writer", "--dir", directory.path, "--count", "1000000"],
                after: Double.random(in: 0.02...0.25, using: &random))
            #expect(run.terminationReason == .uncaughtSignal, "trial \(trial)")
            let acknowledged = run.acknowledged.last ?? -1
            #expect(run.acknowledged == Array(0..<run.acknowledged.count), "acknowledgements arrive in order (trial \(trial))")
            // Reopen: every acknowledged record is there, in order, intact.
            let queue = try DurableQueue(directory: directory, limits: .init(maximumRecords: 1 << 40, maximumBytes: 1 << 50, segmentBytes: 64 << 10))
            let records = try queue.peek(10_000_000)
            let numbers = records.compactMap { record -> Int? in
                let text = String(decoding: record.payload.prefix(20), as: UTF8.self)
                return text.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            }
            #expect(numbers.count == records.count, "every record parses: nothing corrupt (trial \(trial))")
            let thisTrial = numbers.suffix(from: startFrom)
            #expect(Array(thisTrial) == Array(0..<thisTrial.count), "records of trial \(trial) are consecutive from 0")
            #expect(thisTrial.count > acknowledged, "trial \(trial): acknowledged \(acknowledged), found \(thisTrial.count)")
            totalAcknowledged += max(0, acknowledged + 1)
            startFrom = numbers.count
            queue.close()
        }
        #expect(totalAcknowledged >= 20, "every writer acknowledged at least one record before being killed")
    }

    @Test("15 trials: a NDJSON writer killed mid-batch leaves no torn line once the next batch is written")
    func killedNDJSONWriter() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.writer.path), "build the autotrack product first (swift build)")
        var random = SplitMix64(seed: 15)
        let directory = temporaryDirectory("ndjson-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("events.ndjson")
        var tornSeen = 0
        var acknowledgedTotal = 0
        for trial in 0..<15 {
            let run = try Self.killWriter(
                arguments: ["queue-writer", "--dir", directory.path, "--count", "1000000", "--ndjson", file.path],
                after: Double.random(in: 0.02...0.2, using: &random))
            #expect(run.terminationReason == .uncaughtSignal, "trial \(trial)")
            let acknowledged = run.acknowledged.count
            acknowledgedTotal += acknowledged
            let before = try Data(contentsOf: file)
            if let last = before.last, last != 0x0A { tornSeen += 1 }
            // The next writer's first batch repairs the file before appending.
            var report = SanitizationReport()
            let event = try PropertyRules.standard.makeEvent(
                name: "after", properties: [:], time: Timestamp(millisecondsSince1970: 0), identity: .anonymous("a"),
                id: EventID(truncatingBits: UInt64(trial)), report: &report)
            #expect(LocalFileTransport(file: file).deliver([event]) == .accepted)
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.last == "", "the file ends with a complete line (trial \(trial))")
            let decoder = EventJSONDecoder()
            let undecodable = lines.dropLast().filter { (try? decoder.decodeEvent(from: Array($0.utf8))) == nil }
            #expect(undecodable.isEmpty, "trial \(trial): \(undecodable.count) torn lines")
            let batches = lines.dropLast().filter { $0.contains("\"batch\"") }.count
            #expect(batches >= acknowledgedTotal * 50, "every acknowledged batch is in the file")
        }
        print("NDJSON kills: \(tornSeen) of 15 left a torn last line, repaired before the next append; \(acknowledgedTotal) batches acknowledged")
    }

    /// Runs the writer, waits for its first acknowledgement however slowly the child
    /// starts (so its file exists and it made progress), lets it run `extra` seconds more
    /// — any duration is a valid kill point, no assertion depends on it — kills it with
    /// SIGKILL and returns every number it acknowledged before dying.
    static func killWriter(arguments: [String], after extra: Double) throws
        -> (acknowledged: [Int], terminationReason: Process.TerminationReason) {
        let process = Process()
        process.executableURL = writer
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let reader = pipe.fileHandleForReading
        var output = Data()
        while !output.contains(0x0A) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            output.append(chunk)
        }
        Thread.sleep(forTimeInterval: extra)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        output.append(reader.readDataToEndOfFile())
        // A line cut by the kill was never acknowledged: keep complete lines only.
        let complete = output.lastIndex(of: 0x0A).map { output[...$0] } ?? Data()
        let numbers = String(decoding: complete, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        return (numbers, process.terminationReason)
    }
}
