import AutoTrack
import AutoTrackEvents
import AutoTrackTesting
import AutoTrackProperties
import AutoTrackSerialization
import Foundation
import Testing

@Suite("The tracker API")
struct TrackerTests {
    @Test("an event too large for the queue is counted as a store failure, never dropped silently")
    func storeFailure() throws {
        let directory = temporaryDirectory("store-failure")
        defer { try? FileManager.default.removeItem(at: directory) }
        let tracker = try Tracker(configuration: TrackerConfiguration(
            storeDirectory: directory, device: testDevice, flushPolicy: FlushPolicy(batchSize: 1000, interval: nil),
            queueLimits: DurableQueue.Limits(maximumRecordBytes: 600)))
        try tracker.track("small")
        try tracker.track("large", properties: ["note": .string(String(repeating: "x", count: 700))])
        try tracker.track("small")
        tracker.waitUntilQueued()
        #expect(tracker.diagnostics.queued == 2)
        #expect(tracker.diagnostics.storeFailures == 1)
        #expect(tracker.queue.statistics.pendingRecords == 2)
        tracker.shutdown()
    }

    @Test("an event tracked after shutdown is refused with a typed error and counted as a store failure")
    func afterShutdown() throws {
        let directory = temporaryDirectory("after-shutdown")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tracker, _) = try makeCollectingTracker(directory)
        try tracker.track("before")
        tracker.shutdown()
        #expect(throws: TrackingError.shutDown) { try tracker.track("after") }
        tracker.waitUntilQueued()
        #expect(tracker.diagnostics.queued == 1)
        #expect(tracker.diagnostics.storeFailures == 1)
    }

    @Test("caller mistakes are typed errors at the call; nothing is queued for them")
    func validation() throws {
        let directory = temporaryDirectory("validation")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tracker, _) = try makeCollectingTracker(directory)
        #expect(throws: TrackingError.invalid(.invalidEventName("bad name", .invalidCharacter(" ", offset: 3)))) { try tracker.track("bad name") }
        #expect(throws: TrackingError.invalid(.invalidPropertyKey("time", .reserved(matched: "time")))) { try tracker.track("ok", properties: ["time": 1]) }
        #expect(throws: TrackingError.invalid(.nonFiniteNumber(key: "price", .nan))) { try tracker.track("ok", properties: ["price": .number(.nan)]) }
        tracker.waitUntilQueued()
        #expect(tracker.diagnostics.queued == 0)
    }

    @Test("precedence: preset < super < dynamic super < caller; identity follows login and logout")
    func precedenceAndIdentity() throws {
        let directory = temporaryDirectory("precedence")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tracker, collected) = try makeCollectingTracker(directory)
        try tracker.registerSuperProperties(["$model": "super-model", "plan": "free", "channel": "store"])
        tracker.setDynamicSuperProperties { ["plan": "pro", "bad key": "dropped"] }
        try tracker.login("user-7")
        try tracker.track("buy", properties: ["channel": "ad"])
        tracker.logout()
        try tracker.track("leave")
        tracker.waitUntilQueued()
        let events = collected.events
        #expect(events[0].properties["$model"] == "super-model")
        #expect(events[0].properties["plan"] == "pro")
        #expect(events[0].properties["channel"] == "ad")
        #expect(events[0].properties["bad key"] == nil)
        #expect(events[0].identity.distinctID == "user-7")
        #expect(events[1].identity.loginID == nil && events[1].identity.distinctID == events[1].identity.anonymousID)
        #expect(tracker.diagnostics.sanitized.droppedInvalidKeys == 2)
        #expect(events[0].properties.keys.prefix(3) == ["$lib", "$lib_version", "$os"], "presets lead")
    }

    @Test("the anonymous id persists across trackers on the same store")
    func anonymousIDPersists() throws {
        let directory = temporaryDirectory("anonymous")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try makeCollectingTracker(directory).0.identity.anonymousID
        let second = try makeCollectingTracker(directory).0.identity.anonymousID
        #expect(first != nil && first == second)
    }

    @Test("$AppStart at launch and on return; $AppEnd with the session's duration")
    func appStartEnd() throws {
        let directory = temporaryDirectory("session")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualTimestampSource(start: Timestamp(millisecondsSince1970: 1_000_000))
        let (tracker, collected) = try makeCollectingTracker(directory, clock: clock)
        tracker.trackAppStart(resumingFromBackground: false)
        clock.advance(by: 12_345)
        tracker.trackAppEnd()
        clock.advance(by: 60_000)
        tracker.trackAppStart(resumingFromBackground: true)
        tracker.waitUntilQueued()
        let events = collected.events
        #expect(events.map(\.name) == [.appStart, .appEnd, .appStart])
        #expect(events[1].properties["$event_duration"] == .number(12.345))
        #expect(events[0].properties["$resume_from_background"] == false)
        #expect(events[2].properties["$resume_from_background"] == true)
        #expect(events[0].properties["$app_state"] == "foreground")
    }

    @Test("a passive launch is an $AppStart with $app_state background")
    func passiveLaunch() throws {
        let directory = temporaryDirectory("passive")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tracker, collected) = try makeCollectingTracker(directory)
        tracker.trackAppStart(resumingFromBackground: false, passively: true)
        tracker.waitUntilQueued()
        let start = try #require(collected.events.first)
        #expect(start.name == .appStart)
        #expect(start.properties["$app_state"] == "background")
        #expect(start.properties["$resume_from_background"] == false)
    }

    @Test("trackAppClick fills in the element's properties; the caller's win; bad ones are typed errors")
    func manualClick() throws {
        let directory = temporaryDirectory("manual-click")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tracker, collected) = try makeCollectingTracker(directory)
        let screen = Screen("CartViewController", title: "Cart", screenTracking: ScreenTracking(screenName: "Cart"))
        let canvas = screen.rootView.addChild(Element("ChartView"))
        canvas.addChild(Element("UILabel", role: .label, text: "Weekly sales"))
        canvas.customElementID = "sales-chart"
        canvas.customProperties = ["chart": "weekly"]
        canvas.isIgnoredByAutoTrack = true
        try tracker.trackAppClick(element: canvas, properties: ["bar": "Monday", "chart": "daily"])
        #expect(throws: TrackingError.self) { try tracker.trackAppClick(element: canvas, properties: ["$bad key": "x"]) }
        tracker.waitUntilQueued()
        let events = collected.events
        let click = try #require(events.first)
        #expect(events.count == 1)
        #expect(click.name == .appClick)
        #expect(click.library.method == .code)
        #expect(click.properties["$screen_name"] == "Cart")
        #expect(click.properties["$title"] == "Cart")
        #expect(click.properties["$element_type"] == "ChartView")
        #expect(click.properties["$element_content"] == "Weekly sales")
        #expect(click.properties["$element_id"] == "sales-chart")
        #expect(click.properties["$element_path"] != nil)
        #expect(click.properties["bar"] == "Monday")
        #expect(click.properties["chart"] == "daily", "the caller's property wins over the element's")
    }

    @Test("a full batch flushes by itself; the interval timer flushes too")
    func flushPolicy() throws {
        let directory = temporaryDirectory("policy")
        defer { try? FileManager.default.removeItem(at: directory) }
        let tracker = try Tracker(configuration: TrackerConfiguration(
            storeDirectory: directory, device: testDevice, flushPolicy: FlushPolicy(batchSize: 5, interval: .milliseconds(50))))
        for _ in 0..<5 { try tracker.track("e") }
        tracker.waitUntilQueued()
        // Sending runs on the tracker's sender thread, after the batch is stored.
        #expect(eventually { tracker.diagnostics.delivered == 5 })
        try tracker.track("late")
        tracker.waitUntilQueued()
        #expect(eventually { tracker.diagnostics.delivered == 6 }, "the timer flushed the partial batch")
        tracker.shutdown()
        let lines = try String(contentsOf: directory.appendingPathComponent("events.ndjson"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 6)
    }
}
