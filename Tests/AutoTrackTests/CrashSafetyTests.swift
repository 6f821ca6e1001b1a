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
            let process = Process()
            process.executableURL = Self.writer
            process.arguments = ["queue-writer", "--dir", directory.path, "--count", "1000000"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            // Read acknowledgements for a random while, then kill.
            let deadline = Date().addingTimeInterval(Double.random(in: 0.02...0.25, using: &random))
            var acknowledged = -1
            var pending = Data()
            let reader = pipe.fileHandleForReading
            while Date() < deadline {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                if let last = pending.lastIndex(of: 0x0A) {
                    let lines = String(decoding: pending[..<last], as: UTF8.self).split(separator: "\n")
                    if let number = lines.last.flatMap({ Int($0) }) { acknowledged = number }
                    pending = Data(pending[(last + 1)...])
                }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "trial \(trial)")
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
        #expect(totalAcknowledged > 20, "the writers made progress before being killed")
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
            let process = Process()
            process.executableURL = Self.writer
            process.arguments = ["queue-writer", "--dir", directory.path, "--count", "1000000", "--ndjson", file.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.2, using: &random))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let acknowledged = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n").compactMap { Int($0) }.count
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
}
