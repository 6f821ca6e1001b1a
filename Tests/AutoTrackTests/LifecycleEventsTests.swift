import AutoTrack
import AutoTrackEvents
import AutoTrackTesting
import Foundation
import Testing

/// Installs, deep links, notification opens, passive launches and crashes.
@Suite("Lifecycle events")
struct LifecycleEventsTests {
    @Test("$AppInstall once per install, before the first $AppStart; a later launch on the same store has none")
    func install() throws {
        let directory = temporaryDirectory("install")
        defer { try? FileManager.default.removeItem(at: directory) }
        for launch in 0..<2 {
            let memory = try InMemoryTracker(storeDirectory: directory) { $0.autoTrackSettings.eventTypes = .all }
            memory.tracker.trackAppStart(resumingFromBackground: false)
            memory.tracker.trackAppStart(resumingFromBackground: true)
            memory.tracker.waitUntilQueued()
            #expect(memory.eventNames == (launch == 0 ? ["$AppInstall", "$AppStart", "$AppStart"] : ["$AppStart", "$AppStart"]))
            memory.tracker.shutdown()
        }
    }

    @Test("a deep link: $AppDeeplinkLaunch with the URL and its utm_* campaign")
    func deepLink() throws {
        let memory = try InMemoryTracker()
        defer { memory.close() }
        memory.tracker.trackDeepLink(try #require(URL(string: "shop://product/42?utm_source=newsletter&utm_medium=email&utm_campaign=spring&ref=x")))
        memory.tracker.waitUntilQueued()
        let event = try #require(memory.events.first)
        #expect(event.name == .appDeeplinkLaunch)
        #expect(event.properties["$deeplink_url"] == "shop://product/42?utm_source=newsletter&utm_medium=email&utm_campaign=spring&ref=x")
        #expect(event.properties["$utm_source"] == "newsletter")
        #expect(event.properties["$utm_medium"] == "email")
        #expect(event.properties["$utm_campaign"] == "spring")
        #expect(event.properties["$utm_term"] == nil)
    }

    @Test("a notification open: $AppPushClick with its title, content and service")
    func pushOpen() throws {
        let memory = try InMemoryTracker()
        defer { memory.close() }
        memory.tracker.trackPushOpen(title: "Sale", content: "20% off today", service: "APNs")
        memory.tracker.waitUntilQueued()
        let event = try #require(memory.events.first)
        #expect(event.name == .appPushClick)
        #expect(event.properties["$app_push_msg_title"] == "Sale")
        #expect(event.properties["$app_push_msg_content"] == "20% off today")
        #expect(event.properties["$app_push_service_name"] == "APNs")
    }

    @Test("after a passive launch every event says $app_state background, until the app comes to the foreground")
    func passiveLaunch() throws {
        let memory = try InMemoryTracker()
        defer { memory.close() }
        let tracker = memory.tracker
        tracker.trackAppStart(resumingFromBackground: false, passively: true)
        try tracker.track("background_fetch")
        tracker.trackAppStart(resumingFromBackground: true)
        try tracker.track("opened")
        tracker.waitUntilQueued()
        let states = memory.events.map { $0.properties["$app_state"] }
        #expect(states == ["background", "background", "foreground", nil])
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
          arguments: [("segv", ["SIGSEGV"]), ("abort", ["SIGABRT"]), ("fatal-error", ["SIGILL", "SIGTRAP"]),
                      ("reported", ["TypeError: undefined is not a function     at render (app.js:42)"])])
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
}
