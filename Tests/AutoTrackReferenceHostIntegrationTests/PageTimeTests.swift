import AutoTrack
import AutoTrackEvents
import AutoTrackProperties
import AutoTrackReferenceHostIntegration
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackTesting
import Foundation
import Testing

/// `$AppPageLeave` as the user saw the screens: a page stays open under an alert, a
/// sheet's page ends when it disappears and the page under it resumes, full-screen
/// presentations end and reopen the presenter's page; page time without
/// `$AppViewScreen`. Durations on a manual clock.
@Suite("Page time as UIKit shows screens")
struct PageTimeTests {
    final class Session {
        let memory: InMemoryTracker
        let host: ReferenceHost
        let app: SampleApp

        init(eventTypes: AutomaticEventTypes = .all) throws {
            memory = try InMemoryTracker { $0.autoTrackSettings.eventTypes = eventTypes }
            host = try ReferenceHost()
            try memory.tracker.enableAutoTrack(on: host)
            app = try SampleApp(host: host)
            try host.defineClass("LoginViewController", superclass: "UIViewController")
            try app.launch()
        }

        func wait(_ seconds: Int64) { memory.clock.advance(by: seconds * 1000) }

        /// Each `$AppPageLeave` as (screen, seconds), in order.
        var leaves: [(String, Double)] {
            memory.tracker.waitUntilQueued()
            return memory.events.filter { $0.name == .appPageLeave }.map { event in
                let screen = if case .string(let name)? = event.properties["$screen_name"] { name } else { "?" }
                let seconds = if case .number(let value)? = event.properties["event_duration"] { value } else { -1.0 }
                return (screen, seconds)
            }
        }

        var screenViews: [String] {
            memory.tracker.waitUntilQueued()
            return memory.events.filter { $0.name == .appViewScreen }.compactMap { event in
                if case .string(let name)? = event.properties["$screen_name"] { name } else { nil }
            }
        }
    }

    static func describe(_ leaves: [(String, Double)]) -> [String] { leaves.map { "\($0.0) \($0.1)" } }

    @Test("an alert leaves the page open: 2 s, an alert for 10 s, 5 s more make one leave of 17 s")
    func alertKeepsThePage() throws {
        let session = try Session()
        session.wait(2)
        try session.host.driver.present(try session.app.makeAlert(), from: session.app.listScreen)
        session.wait(10)
        try session.host.driver.tapAlertAction(titled: "OK")
        session.wait(5)
        try session.host.driver.push(try session.host.makeController("SettingsViewController", title: "Settings"), on: session.app.navigation)
        #expect(Self.describe(session.leaves) == ["ViewController 17.0"])
    }

    @Test("a sheet pauses the page under it and ends at its own disappearance; the presenter's page resumes",
          arguments: [ScreenPresentation.pageSheet, .formSheet, .overFullScreen, .popover])
    func sheet(style: ScreenPresentation) throws {
        let session = try Session()
        session.wait(2)
        let sheet = session.app.filterSheet!
        sheet.modalPresentationStyle = style
        try session.host.driver.present(sheet, from: session.app.listScreen)
        session.wait(2)
        try session.host.driver.dismiss(sheet)
        session.wait(3)
        try session.host.driver.push(try session.host.makeController("SettingsViewController", title: "Settings"), on: session.app.navigation)
        #expect(Self.describe(session.leaves) == ["ViewController 2.0", "FilterViewController 2.0", "ViewController 3.0"])
        #expect(session.screenViews == ["ViewController", "FilterViewController", "SettingsViewController"],
                "UIKit sends the presenter no viewDidAppear after a sheet: no second screen view")
    }

    @Test("a sheet across the background: its page ends and comes back with the app; the page under it still resumes after")
    func sheetAcrossTheBackground() throws {
        let session = try Session()
        session.wait(2)
        try session.host.driver.present(session.app.filterSheet, from: session.app.listScreen)
        session.wait(1)
        session.host.driver.background()
        session.wait(30)
        session.host.driver.foreground()
        session.wait(1)
        try session.host.driver.dismiss(session.app.filterSheet)
        session.wait(3)
        try session.host.driver.push(try session.host.makeController("SettingsViewController", title: "Settings"), on: session.app.navigation)
        #expect(Self.describe(session.leaves) == ["ViewController 2.0", "FilterViewController 1.0", "FilterViewController 1.0", "ViewController 3.0"])
    }

    @Test("a full-screen presentation ends the presenter's page; dismissed, the presenter appears again with a page of its own")
    func fullScreen() throws {
        let session = try Session()
        session.wait(4)
        let modal = try session.host.makeController("LoginViewController", title: "Login")
        try session.host.driver.present(modal, from: session.app.navigation)
        session.wait(6)
        try session.host.driver.dismiss(modal)
        session.wait(1)
        session.host.driver.background()
        #expect(Self.describe(session.leaves) == ["ViewController 4.0", "LoginViewController 6.0", "ViewController 1.0"])
    }

    @Test("page leaves stay on with $AppViewScreen off: the switches are independent")
    func pageLeaveWithoutScreenViews() throws {
        var types = AutomaticEventTypes.all
        types.remove(.appViewScreen)
        let session = try Session(eventTypes: types)
        session.wait(3)
        try session.host.driver.push(try session.host.makeController("SettingsViewController", title: "Settings"), on: session.app.navigation)
        session.wait(2)
        try session.host.driver.pop(session.app.navigation)
        #expect(session.screenViews.isEmpty)
        #expect(Self.describe(session.leaves) == ["ViewController 3.0", "SettingsViewController 2.0"])
    }
}
