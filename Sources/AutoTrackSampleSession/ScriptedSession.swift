/// AutoTrack: `Tracker` appears in this file's public API.
public import AutoTrack
import AutoTrackEvents
import AutoTrackReferenceHostIntegration
import AutoTrackReferenceUI
import Foundation
/// AutoTrackSampleApp: `SampleApp` appears in this file's public API.
public import AutoTrackSampleApp

/// The scripted user session of the demo and the end-to-end tests: a walk through the
/// sample app touching every interception point.
public enum ScriptedSession {
    /// One user action.
    public struct Step: Sendable {
        /// What the user does, in words.
        public let description: String
        /// The events the step must produce, in order.
        public let expectedEvents: [String]
        /// How long the user then looks at the screen before the next step, in a live
        /// session: what lets a dead click's timeout pass. Tests play without pauses.
        public let pause: Duration?
        let perform: @Sendable (SampleApp, Tracker) throws -> Void

        /// Performs the step on `app`, with `tracker` enabled on it.
        public func perform(on app: SampleApp, tracker: Tracker) throws {
            try perform(app, tracker)
        }

        init(
            description: String, expectedEvents: [String], pause: Duration? = nil,
            perform: @escaping @Sendable (SampleApp, Tracker) throws -> Void
        ) {
            self.description = description
            self.expectedEvents = expectedEvents
            self.pause = pause
            self.perform = perform
        }
    }

    /// The steps, in order.
    public static let steps: [Step] = [
        Step(description: "launch the app on the product list", expectedEvents: ["$AppViewScreen"]) { app, _ in
            try app.launch()
        },
        Step(description: "tap Buy in the first cell", expectedEvents: ["$AppClick"]) { app, _ in
            let buy = app.table.cell(at: IndexPath(row: 0, section: 0))!.contentView.subviews[1] as! ControlObject
            try app.host.driver.tap(buy)
        },
        Step(description: "select the sixth row", expectedEvents: ["$AppClick"]) { app, _ in
            try app.host.driver.select(IndexPath(row: 5, section: 0), in: app.table)
        },
        Step(description: "tap Edit in the navigation bar", expectedEvents: ["$AppClick"]) { app, _ in
            let edit = app.navigation.navigationBar!.subviews.compactMap { $0 as? ControlObject }.first { $0.title == "Edit" }!
            try app.host.driver.tap(edit)
        },
        Step(description: "tap the banner", expectedEvents: ["$AppClick"]) { app, _ in
            try app.host.driver.tap(gesturesOn: app.bannerImage)
        },
        Step(description: "long-press the banner", expectedEvents: ["$AppClick"]) { app, _ in
            try app.host.driver.longPress(app.bannerImage, changes: 2)
        },
        Step(description: "open Settings", expectedEvents: ["$AppViewScreen"]) { app, _ in
            try app.host.driver.push(app.settingsScreen, on: app.navigation)
        },
        Step(description: "turn notifications on", expectedEvents: ["$AppClick"]) { app, _ in
            try app.host.driver.tap(app.notificationsSwitch)
        },
        Step(description: "choose the Dark theme", expectedEvents: ["$AppClick"]) { app, _ in
            try app.host.driver.select(segment: 1, of: app.themeSegments)
        },
        Step(description: "tap Share (a button wired with a closure, UIAction)", expectedEvents: ["$AppClick"]) { app, _ in
            try app.host.driver.tap(app.shareButton)
        },
        Step(description: "drag the volume slider to 0.8 (one click, at the end, with the value)", expectedEvents: ["$AppClick"]) { app, _ in
            try app.host.driver.slide(app.volumeSlider, to: 0.8)
        },
        Step(description: "tap + on the quantity stepper", expectedEvents: ["$AppClick"]) { app, _ in
            try app.host.driver.tap(app.quantityStepper)
        },
        Step(description: "type a name and a password (never captured)", expectedEvents: []) { app, _ in
            try app.host.driver.type("Ann", into: app.nameField)
            try app.host.driver.type("secret", into: app.passwordField)
        },
        Step(description: "search for shoes", expectedEvents: ["$AppClick"]) { app, _ in
            try app.host.driver.type("shoes", into: app.searchField)
        },
        Step(description: "go back to the list", expectedEvents: ["$AppViewScreen"]) { app, _ in
            try app.host.driver.pop(app.navigation)
        },
        Step(description: "watch the banner (half in view) and the last row (all in view), then scroll down to it",
             expectedEvents: ["$AppElementExposure", "$AppElementExposure"]) { app, tracker in
            let exposures = tracker.automaticCapture(on: app.host)!.exposures
            try exposures.watch(app.bannerImage, options: try ExposureOptions(minimumVisibleRatio: 0.5), properties: ["campaign": "spring"])
            let lastRow = app.table.cell(at: IndexPath(row: 2, section: 2))!
            try exposures.watch(lastRow, options: try ExposureOptions(minimumVisibleRatio: 1))
            try app.host.driver.scroll(app.table, by: 150)
        },
        Step(description: "open the collection and select the third tile", expectedEvents: ["$AppViewScreen", "$AppClick"]) { app, _ in
            try app.host.driver.push(app.collectionScreen, on: app.navigation)
            try app.host.driver.select(IndexPath(item: 2, section: 0), in: app.collection)
        },
        Step(description: "answer OK in the leave-group alert", expectedEvents: ["$AppClick"]) { app, _ in
            try app.host.driver.present(try app.makeAlert(), from: app.collectionScreen)
            try app.host.driver.tapAlertAction(titled: "OK")
        },
        Step(description: "open the pages and swipe to page 2", expectedEvents: ["$AppViewScreen", "$AppViewScreen"]) { app, _ in
            try app.host.driver.push(app.pagesScreen, on: app.navigation)
            try app.host.driver.swipe(toPage: 2, in: app.pagesScreen)
        },
        Step(description: "open the account tabs, tap the Profile tab, close them",
             expectedEvents: ["$AppViewScreen", "$AppClick", "$AppViewScreen", "$AppViewScreen"]) { app, _ in
            try app.host.driver.present(app.accountTabs, from: app.navigation)
            try app.host.driver.selectTab(1, in: app.accountTabs)
            try app.host.driver.dismiss(app.accountTabs)
        },
        Step(description: "go to the background and come back", expectedEvents: ["$AppEnd", "$AppStart", "$AppViewScreen"]) { app, _ in
            app.host.driver.background()
            app.host.driver.foreground()
        },
        Step(description: "show the filter sheet and close it (the page under it pauses, then resumes)", expectedEvents: ["$AppViewScreen"]) { app, _ in
            try app.host.driver.present(app.filterSheet, from: app.navigation)
            try app.host.driver.dismiss(app.filterSheet)
        },
        Step(description: "open a campaign link (the app delegate's application:openURL:options:)", expectedEvents: ["$AppDeeplinkLaunch"]) { app, _ in
            try app.host.driver.open(link: "sampleapp://product/42?utm_source=newsletter&utm_medium=email&utm_campaign=spring")
        },
        Step(description: "open the app from a notification (the notification center delegate's response)", expectedEvents: ["$AppPushClick"]) { app, _ in
            try app.host.driver.openNotification(title: "Sale", body: "20% off shoes today", userInfo: ["service": "APNs"])
        },
        Step(description: "go back to the list (its watched banner and row are seen again) and tap Buy three times at once (a rage click where the settings record them)",
             expectedEvents: ["$AppViewScreen", "$AppViewScreen", "$AppElementExposure", "$AppElementExposure", "$AppClick", "$AppClick", "$AppClick"]) { app, _ in
            try app.host.driver.pop(app.navigation)
            try app.host.driver.pop(app.navigation)
            let buy = app.table.cell(at: IndexPath(row: 0, section: 0))!.contentView.subviews[1] as! ControlObject
            for _ in 0..<3 { try app.host.driver.tap(buy) }
        },
        Step(description: "tap the free-shipping note, which does nothing (a dead click once the timeout passes, where the settings record them)",
             expectedEvents: [], pause: .milliseconds(700)) { app, _ in
            let note = try app.host.makeLabel("Free shipping over ¥99")
            app.listScreen.view.addSubview(note)
            try app.host.driver.touch(note)
        },
        Step(description: "deny consent (what was queued is sent first), tap Buy — nothing is recorded — and grant it again",
             expectedEvents: []) { app, tracker in
            tracker.flush()
            tracker.setConsent(.denied)
            let buy = app.table.cell(at: IndexPath(row: 0, section: 0))!.contentView.subviews[1] as! ControlObject
            try app.host.driver.tap(buy)
            tracker.setConsent(.granted)
        },
        Step(description: "open the SwiftUI shop: a hosting controller, a screen named after its view; its banner asks to be watched",
             expectedEvents: ["$AppViewScreen", "$AppElementExposure"]) { app, _ in
            try app.host.driver.push(app.shopScreen, on: app.navigation)
        },
        Step(description: "tap Add to cart twice: the cart line re-renders, the button keeps its $element_id",
             expectedEvents: ["$AppClick", "$AppClick"]) { app, _ in
            let shop = try app.shopScreen.requireHostingView()
            try app.host.driver.tap("Add to cart", in: shop)
            try app.host.driver.tap("Add to cart", in: shop)
        },
        Step(description: "flip the Gift wrap toggle, then tap the shop's title (text: no click; a dead click once the timeout passes, where the settings record them)",
             expectedEvents: ["$AppClick"], pause: .milliseconds(700)) { app, _ in
            let shop = try app.shopScreen.requireHostingView()
            try app.host.driver.tap("Gift wrap", in: shop)
            try app.host.driver.tap("Shop", in: shop)
        },
        Step(description: "tap the Charger row, a navigation link: a click with its list position, then its detail screen",
             expectedEvents: ["$AppClick", "$AppViewScreen"]) { app, _ in
            try app.host.driver.tap("Charger", in: try app.shopScreen.requireHostingView())
        },
        Step(description: "go back to the list through the shop (the watched banners and row are seen again)",
             expectedEvents: ["$AppViewScreen", "$AppElementExposure", "$AppViewScreen", "$AppElementExposure", "$AppElementExposure"]) { app, _ in
            try app.host.driver.pop(app.navigation)
            try app.host.driver.pop(app.navigation)
        },
        Step(description: "check out (an event tracked in code)", expectedEvents: ["checkout"]) { _, tracker in
            try tracker.track("checkout", properties: ["order_id": "A-1001", "amount": 59.9, "items": ["shoes", "socks"]])
        },
    ]

    /// The events enabling automatic capture produces before the first step.
    public static let initialEvents = ["$AppStart"]

    /// The events the whole session must produce, in order, from enabling on.
    public static var expectedEvents: [String] { initialEvents + steps.flatMap(\.expectedEvents) }

    /// Plays the session on `app` with `tracker` enabled on it, calling `onStep` before
    /// each step; `pausing`, the user pauses after the steps that say so, as in a live
    /// session.
    public static func play(on app: SampleApp, tracker: Tracker, pausing: Bool = false, onStep: (Step) -> Void = { _ in }) throws {
        for step in steps {
            onStep(step)
            try step.perform(app, tracker)
            if pausing, let pause = step.pause { Thread.sleep(forTimeInterval: pause.inSeconds) }
        }
    }
}
