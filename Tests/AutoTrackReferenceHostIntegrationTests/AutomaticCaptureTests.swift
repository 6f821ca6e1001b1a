import AutoTrack
import AutoTrackEvents
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceHostIntegration
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import Foundation
import Testing
import AutoTrackLocking

@Suite("Enabling automatic capture on the reference host: idempotent and reversible")
struct AutomaticCaptureTests {
    final class Collected: Sendable {
        let events = Locked<[Event]>([])
        var names: [String] { events.withLock { $0.map(\.name.rawValue) } }
    }

    func makeTracker(_ directory: URL, _ collected: Collected) throws -> Tracker {
        try Tracker(configuration: TrackerConfiguration(
            storeDirectory: directory, device: testDevice, flushPolicy: FlushPolicy(batchSize: 1000, interval: nil),
            eventObserver: { event in collected.events.withLock { $0.append(event) } }))
    }

    /// A launched sample app with one button whose action logs `buy`.
    func makeApp(_ host: ReferenceHost) throws -> (SampleApp, ControlObject) {
        let app = try SampleApp(host: host)
        let button = try host.makeControl("UIButton", title: "Buy now", frame: Rect(x: 10, y: 500, width: 100, height: 40))
        app.listScreen.view.addSubview(button)
        try button.addTarget(app.listScreen, action: "buyTapped:", for: .touchUpInside)
        try app.launch()
        return (app, button)
    }

    @Test("two enableAutoTrack calls give one $AppStart and one click per tap")
    func enableTwice() throws {
        let directory = temporaryDirectory("enable-twice")
        defer { try? FileManager.default.removeItem(at: directory) }
        let collected = Collected()
        let tracker = try makeTracker(directory, collected)
        let host = try ReferenceHost()
        let first = try tracker.enableAutoTrack(on: host)
        let second = try tracker.enableAutoTrack(on: host)
        #expect(first === second)
        #expect(first.handles.count == BuiltInHooks.standard().count)
        let (app, button) = try makeApp(host)
        app.log.clear()
        try host.driver.tap(button)
        host.driver.background()
        host.driver.foreground()
        tracker.waitUntilQueued()
        #expect(collected.names == ["$AppStart", "$AppViewScreen", "$AppClick", "$AppEnd", "$AppStart", "$AppViewScreen"])
        #expect(app.log.count(.buy) == 1)
        tracker.shutdown()
    }

    @Test("enabling from several threads at once enables once")
    func enableConcurrently() throws {
        let directory = temporaryDirectory("enable-threads")
        defer { try? FileManager.default.removeItem(at: directory) }
        let collected = Collected()
        let tracker = try makeTracker(directory, collected)
        let host = try ReferenceHost()
        let captures = Locked<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let capture = try? tracker.enableAutoTrack(on: host) {
                captures.withLock { $0.append(ObjectIdentifier(capture)) }
            }
        }
        tracker.waitUntilQueued()
        #expect(captures.withLock { Set($0).count } == 1)
        #expect(captures.withLock { $0.count } == 8)
        #expect(collected.names == ["$AppStart"])
        tracker.shutdown()
    }

    @Test("disabling stops automatic events and lifecycle events; originals still run once")
    func disable() throws {
        let directory = temporaryDirectory("disable")
        defer { try? FileManager.default.removeItem(at: directory) }
        let collected = Collected()
        let tracker = try makeTracker(directory, collected)
        let host = try ReferenceHost()
        let capture = try tracker.enableAutoTrack(on: host)
        let (app, button) = try makeApp(host)
        try capture.disable()
        try capture.disable()
        #expect(!capture.isActive)
        #expect(capture.handles.isEmpty)
        #expect(tracker.automaticCapture(on: host) == nil)
        app.log.clear()
        tracker.waitUntilQueued()
        let before = collected.names
        try host.driver.tap(button)
        try host.driver.push(try host.makeController("SettingsViewController", title: "Settings"), on: app.navigation)
        host.driver.background()
        host.driver.foreground()
        tracker.waitUntilQueued()
        #expect(collected.names == before, "nothing after disabling")
        #expect(app.log.count(.buy) == 1)
        #expect(app.log.count(.viewDidAppear("SettingsViewController")) == 1)
        // The framework's methods are the originals again.
        let sendAction = try #require(host.runtime.method("sendAction:to:forEvent:", in: try host.lookUpClass("UIControl")))
        #expect(sendAction.implementation.name == "-[UIControl sendAction:to:forEvent:]")
        tracker.shutdown()
    }

    @Test("enabling again after disabling captures again, once")
    func reenable() throws {
        let directory = temporaryDirectory("reenable")
        defer { try? FileManager.default.removeItem(at: directory) }
        let collected = Collected()
        let tracker = try makeTracker(directory, collected)
        let host = try ReferenceHost()
        try tracker.enableAutoTrack(on: host).disable()
        try tracker.enableAutoTrack(on: host)
        let (app, button) = try makeApp(host)
        app.log.clear()
        try host.driver.tap(button)
        tracker.waitUntilQueued()
        #expect(collected.names == ["$AppStart", "$AppViewScreen", "$AppClick"], "re-enabling is no cold start")
        #expect(app.log.count(.buy) == 1)
        tracker.shutdown()
    }

    @Test("a screen shown before disable() is recorded when it returns after enabling again; no second $AppStart")
    func reenableKeepsScreens() throws {
        let directory = temporaryDirectory("reenable-screens")
        defer { try? FileManager.default.removeItem(at: directory) }
        let collected = Collected()
        let tracker = try makeTracker(directory, collected)
        let host = try ReferenceHost()
        let capture = try tracker.enableAutoTrack(on: host)
        let (app, _) = try makeApp(host)
        try capture.disable()
        let settings = try host.makeController("SettingsViewController", title: "Settings")
        try host.driver.push(settings, on: app.navigation)
        try tracker.enableAutoTrack(on: host)
        try host.driver.pop(app.navigation)
        try host.driver.push(try host.makeController("SettingsViewController", title: "Settings"), on: app.navigation)
        tracker.waitUntilQueued()
        let screens = collected.events.withLock { $0.filter { $0.name == .appViewScreen }.map { $0.properties["$screen_name"] } }
        #expect(collected.names.filter { $0 == "$AppStart" }.count == 1, "\(collected.names)")
        #expect(screens == [.string(app.listScreen.realClass.name), .string(app.listScreen.realClass.name), "SettingsViewController"],
                "the list screen shown before disabling is recorded on its return")
        tracker.shutdown()
    }
}
