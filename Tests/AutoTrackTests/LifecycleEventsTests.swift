import AutoTrack
import AutoTrackEvents
import AutoTrackTesting
import Foundation
import Testing

/// Installs, deep links, notification opens and passive launches (crashes: see
/// `CrashCaptureTests`).
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
}
