import AutoTrack
import AutoTrackEvents
import AutoTrackProperties
import AutoTrackReferenceHostIntegration
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackTesting
import Foundation
import Testing

/// The application-level hooks end to end: a link the app delegate opens is
/// `$AppDeeplinkLaunch`, a notification the user opens is `$AppPushClick`, a finger's
/// tap that nothing answers is `$AppDeadClick` — with the app's own methods run once.
@Suite("Links, notifications and touches through the app's delegates")
struct ApplicationEventsTests {
    final class Session {
        let memory: InMemoryTracker
        let host: ReferenceHost
        let app: SampleApp

        /// Hooks installed before the app sets its delegates, or (`appBeforeHooks`) after.
        init(appBeforeHooks: Bool = false) throws {
            var settings = AutoTrackSettings()
            settings.eventTypes.insert(.appDeadClick)
            settings.deadClickTimeout = .seconds(1)
            memory = try InMemoryTracker { $0.autoTrackSettings = settings }
            host = try ReferenceHost()
            if appBeforeHooks {
                app = try SampleApp(host: host)
                try memory.tracker.enableAutoTrack(on: host)
            } else {
                try memory.tracker.enableAutoTrack(on: host)
                app = try SampleApp(host: host)
            }
            try app.launch()
        }

        var names: [String] {
            memory.tracker.waitUntilQueued()
            return memory.eventNames.filter { $0 != "$AppViewScreen" && $0 != "$AppStart" }
        }
    }

    @Test("a link opened by the app delegate is one $AppDeeplinkLaunch with its campaign; the delegate's answer comes back",
          arguments: [false, true])
    func deepLink(appBeforeHooks: Bool) throws {
        let session = try Session(appBeforeHooks: appBeforeHooks)
        let opened = try session.host.driver.open(link: "shop://product/42?utm_source=newsletter&utm_campaign=spring")
        #expect(opened)
        #expect(session.app.log.count(of: .openLink) == 1)
        #expect(session.names == ["$AppDeeplinkLaunch"])
        let event = try #require(session.memory.events.last)
        #expect(event.properties["$deeplink_url"] == "shop://product/42?utm_source=newsletter&utm_campaign=spring")
        #expect(event.properties["$utm_source"] == "newsletter")
        #expect(event.properties["$utm_campaign"] == "spring")
        session.memory.close()
    }

    @Test("a notification the user opens is one $AppPushClick with its title and body; the app calls the completion handler once",
          arguments: [false, true])
    func pushOpen(appBeforeHooks: Bool) throws {
        let session = try Session(appBeforeHooks: appBeforeHooks)
        let completions = try session.host.driver.openNotification(title: "Sale", body: "50% off today", userInfo: ["service": "APNs"])
        #expect(completions == 1)
        #expect(session.app.log.count(of: .openNotification) == 1)
        #expect(session.names == ["$AppPushClick"])
        let event = try #require(session.memory.events.last)
        #expect(event.properties["$app_push_msg_title"] == "Sale")
        #expect(event.properties["$app_push_msg_content"] == "50% off today")
        #expect(event.properties["$app_push_service_name"] == "APNs")
        session.memory.close()
    }

    @Test("a finger's tap on a view that does nothing is a dead click; one on the banner (a tap recognizer) or a button is not")
    func deadClickFromAFinger() throws {
        let session = try Session()
        let caption = try session.host.makeLabel("Free shipping")
        caption.frame = Rect(x: 0, y: 60, width: 200, height: 20)
        session.app.listScreen.view.addSubview(caption)
        try session.host.driver.touch(session.app.bannerImage)
        #expect(session.app.log.count(.bannerTap) == 1)
        session.memory.clock.advance(by: 2_000)
        #expect(session.names == ["$AppClick"])
        try session.host.driver.touch(caption)
        session.memory.clock.advance(by: 2_000)
        #expect(session.names == ["$AppClick", "$AppDeadClick"])
        #expect(session.memory.events.last?.properties["$element_content"] == "Free shipping")
        session.memory.close()
    }
}
