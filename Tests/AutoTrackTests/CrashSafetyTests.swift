import AutoTrack
import AutoTrackEvents
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
}
