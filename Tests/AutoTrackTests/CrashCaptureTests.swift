import AutoTrack
import AutoTrackEvents
import AutoTrackTesting
import Foundation
import Testing

/// Crashes of a child process, with real signals, delivered as `AppCrashed` on the next
/// launch; handlers installed before the tracker's keep their say.
@Suite("Crash capture")
struct CrashCaptureTests {
    /// How a child dies, and the reasons its record may give.
    static var crashKinds: [(String, [String])] {
        var kinds = [("segv", ["SIGSEGV"]), ("abort", ["SIGABRT"]), ("fatal-error", ["SIGILL", "SIGTRAP"]),
                     ("reported", ["TypeError: undefined is not a function     at render (app.js:42)"])]
        #if !AUTOTRACK_TSAN
        // ThreadSanitizer handles processor faults and stack overflows itself.
        kinds += [("fault", ["SIGSEGV", "SIGBUS"]), ("stack-overflow", ["SIGSEGV", "SIGBUS"]), ("chained-fault", ["SIGSEGV", "SIGBUS"]),
                  ("one-shot-fault", ["SIGSEGV", "SIGBUS"])]
        #endif
        return kinds
    }

    static func runCrashChild(_ crash: String, directory: URL) throws -> Process {
        let process = Process()
        process.executableURL = CrashSafetyTests.writer
        process.arguments = ["crash-child", "--dir", directory.path, "--crash", crash]
        // No runtime backtrace: the test needs the death, not the report.
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process
    }

    @Test("a crash in a child process — a real signal, a Swift fatal error, an error the host reports — is written before the process dies and delivered as AppCrashed on the next launch, once",
          arguments: crashKinds)
    func crashes(crash: String, reasons: [String]) throws {
        try #require(FileManager.default.isExecutableFile(atPath: CrashSafetyTests.writer.path), "build the autotrack product first (swift build)")
        let directory = temporaryDirectory("crash-\(crash)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let child = try Self.runCrashChild(crash, directory: directory)
        if crash == "reported" {
            #expect(child.terminationReason == .exit && child.terminationStatus == 70)
        } else {
            #if AUTOTRACK_TSAN
            // ThreadSanitizer takes fatal signals over and exits with its own status.
            #expect(child.terminationStatus != 0, "the process still dies")
            #else
            #expect(child.terminationReason == .uncaughtSignal, "the process still dies of its signal")
            #endif
        }
        let relaunch = try InMemoryTracker(storeDirectory: directory) { $0.capturesCrashes = true }
        relaunch.tracker.flush()
        let delivered = relaunch.transport.events
        #expect(delivered.map(\.name.rawValue) == ["before_crash", "AppCrashed"])
        let crashed = try #require(delivered.last)
        if case .string(let reason)? = crashed.properties["app_crashed_reason"] {
            #expect(reasons.contains(reason), "\(reason)")
        } else {
            Issue.record("no app_crashed_reason")
        }
        #expect(crashed.time.millisecondsSince1970 >= (delivered.first?.time.millisecondsSince1970 ?? .max))
        #expect(relaunch.tracker.diagnostics.crashesDelivered == 1)
        relaunch.tracker.shutdown()
        let again = try InMemoryTracker(storeDirectory: directory) { $0.capturesCrashes = true }
        #expect(again.tracker.diagnostics.crashesDelivered == 0, "delivered once")
        again.tracker.shutdown()
    }

    #if !AUTOTRACK_TSAN
    @Test("a fault a handler installed before the tracker's recovers from is no crash: the process goes on, nothing is recorded")
    func recoveredFault() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CrashSafetyTests.writer.path), "build the autotrack product first (swift build)")
        let directory = temporaryDirectory("crash-recovered")
        defer { try? FileManager.default.removeItem(at: directory) }
        let child = try Self.runCrashChild("recovered-fault", directory: directory)
        #expect(child.terminationReason == .exit && child.terminationStatus == 0, "the earlier handler fixed the fault")
        let relaunch = try InMemoryTracker(storeDirectory: directory) { $0.capturesCrashes = true }
        relaunch.tracker.flush()
        #expect(relaunch.transport.events.map(\.name.rawValue) == ["before_crash"])
        #expect(relaunch.tracker.diagnostics.crashesDelivered == 0)
        relaunch.tracker.shutdown()
    }
    #endif

    @Test("a signal record of the process still running is followed by a survival note at the next flush (a handler before ours recovered by jumping out) and not delivered; a reported error and other processes' records are")
    func survivedRecordsTakenBack() throws {
        let directory = temporaryDirectory("crash-survived")
        defer { try? FileManager.default.removeItem(at: directory) }
        let memory = try InMemoryTracker(storeDirectory: directory) { $0.capturesCrashes = true }
        let own = getpid()
        let handle = try FileHandle(forWritingTo: directory.appendingPathComponent("crash_record"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("""
            autotrack-crash 1700000000000 \(own) SIGSEGV
            autotrack-crash 1700000000001 1 SIGBUS
            autotrack-reported 1700000000002 \(own) TypeError: x is undefined

            """.utf8))
        try handle.close()
        memory.tracker.flush()
        memory.tracker.flush()
        let record = try String(contentsOf: directory.appendingPathComponent("crash_record"), encoding: .utf8)
        #expect(record.components(separatedBy: "autotrack-survived").count == 2, "one survival note, not one per flush")
        memory.close()
        let relaunch = try InMemoryTracker(storeDirectory: directory) { $0.capturesCrashes = true }
        #expect(relaunch.tracker.diagnostics.crashRecordsTakenBack == 1)
        relaunch.tracker.flush()
        let reasons = relaunch.transport.events.filter { $0.name.rawValue == "AppCrashed" }.map { $0.properties["app_crashed_reason"] }
        #expect(reasons == ["SIGBUS", "TypeError: x is undefined"])
        relaunch.close()
    }

    @Test("trackers started one after another with crash capture hold one descriptor for the record between them, not one each")
    func oneDescriptor() throws {
        let directory = temporaryDirectory("crash-descriptors")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Descriptors open on crash records (other tests' files are not counted; one
        // being installed by another test at the same moment may be).
        func crashRecordDescriptors() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { fd in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"))?.hasSuffix("/crash_record") ?? false
            }.count
        }
        for index in 0..<20 {
            try InMemoryTracker(storeDirectory: directory.appendingPathComponent("store-\(index)")) { $0.capturesCrashes = true }.close()
        }
        #expect(try crashRecordDescriptors() <= 3, "one for the process, not one per tracker started")
    }
}
