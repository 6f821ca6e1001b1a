import AutoTrack
import AutoTrackEvents
import AutoTrackTesting
import AutoTrackInterception
import AutoTrackProperties
import Foundation
import Testing

/// `$AppElementExposure`: the exposure rule (`ExposureTimeline`), its options, and the
/// monitor over an element tree feeding a tracker.
@Suite struct ExposureTests {
    static func time(_ milliseconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: 1_000_000 + milliseconds) }
    /// The monotonic instant `milliseconds` after the timelines' start.
    static func instant(_ milliseconds: Int64) -> MonotonicInstant { MonotonicInstant(sinceOrigin: .seconds(1000) + .milliseconds(milliseconds)) }

    // MARK: Options

    @Test("options outside their range are typed errors", arguments: [-0.1, 1.01, Double.nan, .infinity])
    func invalidRatio(ratio: Double) {
        #expect(throws: ExposureOptionsError.self) { try ExposureOptions(minimumVisibleRatio: ratio) }
    }

    @Test func negativeDuration() throws {
        #expect(throws: ExposureOptionsError.negativeDuration(.milliseconds(-1))) { try ExposureOptions(minimumDuration: .milliseconds(-1)) }
        let options = try ExposureOptions(minimumVisibleRatio: 1, minimumDuration: .zero, repeats: false)
        #expect(options.minimumVisibleRatio == 1 && !options.repeats)
    }

    // MARK: Timeline

    /// Feeds `timeline` observations (visible ratio, milliseconds) and returns, for
    /// each, whether the exposure was due.
    static func run(_ timeline: inout ExposureTimeline, _ steps: [(Double, Int64)]) -> [Bool] {
        steps.map { ratio, milliseconds in timeline.observe(visibleRatio: ratio, at: instant(milliseconds)) }
    }

    @Test("visible for the minimum duration: exactly one exposure, at the deadline")
    func duration() throws {
        var timeline = ExposureTimeline(options: try ExposureOptions(minimumVisibleRatio: 0.5, minimumDuration: .seconds(1)))
        let first = Self.run(&timeline, [(0.6, 0)])
        #expect(first == [false])
        #expect(timeline.deadline == Self.instant(1000))
        let rest = Self.run(&timeline, [(0.6, 999), (0.6, 1000)])
        #expect(rest == [false, true])
        #expect(timeline.deadline == nil)
        let later = Self.run(&timeline, [(1, 5000)])
        #expect(later == [false], "the same appearance")
        #expect(timeline.exposures == 1)
    }

    @Test("leaving before the duration restarts the wait")
    func leftEarly() throws {
        var timeline = ExposureTimeline(options: try ExposureOptions(minimumVisibleRatio: 0.5, minimumDuration: .seconds(1)))
        // Less than half at 600 ms: it left; back at 700 ms, so 1200 ms is only 500 ms in.
        let results = Self.run(&timeline, [(0.6, 0), (0.4, 600), (0.6, 700), (0.6, 1200), (0.6, 1700)])
        #expect(results == [false, false, false, false, true])
    }

    @Test("one exposure per appearance when repeating, one in all when not", arguments: [true, false])
    func appearances(repeats: Bool) throws {
        var timeline = ExposureTimeline(options: try ExposureOptions(repeats: repeats))
        let results = Self.run(&timeline, [(1, 0), (1, 1), (0, 2), (0.3, 3), (0.3, 4), (0, 5), (1, 6)])
        #expect(results.filter { $0 }.count == (repeats ? 3 : 1))
        timeline.endAppearance()
        let again = Self.run(&timeline, [(1, 10)])
        #expect(again == [repeats])
    }

    @Test("the ratio is compared at two decimals; zero is never visible, even with a zero minimum")
    func ratioRounding() throws {
        var half = ExposureTimeline(options: try ExposureOptions(minimumVisibleRatio: 0.5))
        #expect(Self.run(&half, [(0.4951, 0)]) == [true])
        var strict = ExposureTimeline(options: try ExposureOptions(minimumVisibleRatio: 0.5))
        #expect(Self.run(&strict, [(0.4949, 0)]) == [false])
        var any = ExposureTimeline(options: .standard)
        #expect(Self.run(&any, [(0, 0), (0.001, 1)]) == [false, true])
    }

    @Test("an observation before the wait's start restarts the wait from the earlier instant")
    func clockBackwards() throws {
        var timeline = ExposureTimeline(options: try ExposureOptions(minimumDuration: .seconds(1)))
        #expect(Self.run(&timeline, [(1, 5000), (1, 0)]) == [false, false])
        #expect(timeline.deadline == Self.instant(1000))
        #expect(Self.run(&timeline, [(1, 1000)]) == [true])
    }

    // MARK: Monitor

    /// A screen in a window with a list (cell at position 0:3) and a banner.
    final class Page {
        let window = Element("UIWindow", role: .window, frame: Rect(x: 0, y: 0, width: 390, height: 844))
        let screen = Screen("HomeViewController", title: "Home")
        let list = Element("UITableView", role: .table, frame: Rect(x: 0, y: 200, width: 390, height: 400))
        let cell = Element("MyCell", role: .tableCell, frame: Rect(x: 0, y: 0, width: 390, height: 100), listPosition: ListPosition(section: 0, index: 3))
        let banner = Element("UIImageView", role: .image, frame: Rect(x: 0, y: 0, width: 390, height: 200), imageName: "spring")

        init() {
            window.addChild(screen.rootView)
            screen.rootView.addChild(banner)
            screen.rootView.addChild(list)
            list.addChild(cell)
            cell.addChild(Element("UILabel", role: .label, text: "Tea"))
        }
    }

    struct Fixture {
        let tracker: Tracker
        let events: InMemoryTracker
        let clock: ManualTimestampSource
        let monitor: ElementExposureMonitor

        init(configure: (inout TrackerConfiguration) -> Void = { _ in }) throws {
            clock = ManualTimestampSource(start: ExposureTests.time(0))
            (tracker, events) = try makeCollectingTracker(temporaryDirectory("exposure"), clock: clock, configure: configure)
            monitor = tracker.makeExposureMonitor()
        }

        var exposures: [Event] {
            tracker.waitUntilQueued()
            return events.events.filter { $0.name != .appStart }
        }
    }

    @Test("an exposure carries the element's and the screen's properties, the watch's on top, the time it became due")
    func eventProperties() throws {
        let page = Page()
        let fixture = try Fixture()
        try fixture.monitor.watch(page.banner, properties: ["campaign": "spring", "$element_content": "Spring sale"])
        fixture.clock.advance(by: 250)
        #expect(fixture.monitor.update() == nil)
        let event = try #require(fixture.exposures.first)
        #expect(fixture.exposures.count == 1)
        #expect(event.name == .appElementExposure)
        #expect(event.name.rawValue == "$AppElementExposure")
        #expect(event.time == Self.time(250))
        #expect(event.library.method == .autoTrack)
        #expect(event.properties["$screen_name"] == "HomeViewController")
        #expect(event.properties["$title"] == "Home")
        #expect(event.properties["$element_type"] == "UIImageView")
        #expect(event.properties["$element_path"] == "HomeViewController[0]/UIView[0]/UIImageView[0]")
        #expect(event.properties["$element_id"] != nil)
        #expect(event.properties["campaign"] == "spring")
        #expect(event.properties["$element_content"] == "Spring sale", "the watch's properties win")
        #expect(fixture.monitor.update() == nil)
        #expect(fixture.exposures.count == 1, "one per appearance")
    }

    @Test("a minimum duration: the deadline is returned, the exposure comes at it and not before")
    func monitorDuration() throws {
        let page = Page()
        let fixture = try Fixture()
        try fixture.monitor.watch(page.cell, options: try ExposureOptions(minimumVisibleRatio: 0.5, minimumDuration: .milliseconds(800)))
        #expect(fixture.monitor.update() == Self.time(800))
        fixture.clock.advance(by: 799)
        #expect(fixture.monitor.update() == Self.time(800))
        #expect(fixture.exposures.isEmpty)
        fixture.clock.advance(by: 1)
        #expect(fixture.monitor.update() == nil)
        let event = try #require(fixture.exposures.first)
        #expect(event.properties["$element_position"] == "0:3")
        #expect(event.properties["$element_content"] == "Tea")
    }

    @Test("scrolled away and back, hidden and shown, moved out and in: one exposure per appearance")
    func changesInTheTree() throws {
        let page = Page()
        let fixture = try Fixture()
        try fixture.monitor.watch(page.cell, options: try ExposureOptions(minimumVisibleRatio: 0.5))
        fixture.monitor.update()
        page.list.boundsOrigin = Point(x: 0, y: 60)  // 40% left: gone
        fixture.monitor.update()
        page.list.boundsOrigin = Point(x: 0, y: 40)  // 60% visible: back
        fixture.monitor.update()
        page.cell.isHidden = true
        fixture.monitor.update()
        page.cell.isHidden = false
        fixture.monitor.update()
        page.list.removeFromParent()
        fixture.monitor.update()
        page.screen.rootView.addChild(page.list)
        fixture.monitor.update()
        fixture.monitor.update()
        #expect(fixture.exposures.count == 4)
    }

    @Test("a reused cell showing another row is a new appearance; its old row's is over")
    func cellReuse() throws {
        let page = Page()
        let fixture = try Fixture()
        try fixture.monitor.watch(page.cell, options: try ExposureOptions(repeats: false))
        fixture.monitor.update()
        page.cell.listPosition = ListPosition(section: 0, index: 9)
        fixture.monitor.update()
        page.cell.listPosition = ListPosition(section: 0, index: 3)
        fixture.monitor.update()
        #expect(fixture.exposures.map { $0.properties["$element_position"] } == ["0:3", "0:9"], "once per row when not repeating")
    }

    @Test("suspended (background): appearances end, nothing recorded until resumed")
    func suspendAndResume() throws {
        let page = Page()
        let fixture = try Fixture()
        try fixture.monitor.watch(page.banner)
        fixture.monitor.update()
        fixture.monitor.suspend()
        fixture.monitor.update()
        #expect(fixture.exposures.count == 1)
        fixture.monitor.resume()
        fixture.monitor.update()
        #expect(fixture.exposures.count == 2)
    }

    @Test("released elements stop being watched; unwatch ends watching; watching again keeps the appearance")
    func lifetimes() throws {
        let fixture = try Fixture()
        var page: Page? = Page()
        try fixture.monitor.watch(page!.banner)
        try fixture.monitor.watch(page!.cell)
        fixture.monitor.update()
        try fixture.monitor.watch(page!.banner, properties: ["again": true])
        fixture.monitor.update()
        #expect(fixture.exposures.count == 2)
        fixture.monitor.unwatch(page!.cell)
        #expect(fixture.monitor.watchedCount == 1)
        page = nil
        fixture.monitor.update()
        #expect(fixture.monitor.watchedCount == 0)
    }

    @Test("the context switched off: nothing recorded, and switched on again the element is seen anew")
    func contextDisabled() throws {
        let page = Page()
        let fixture = try Fixture()
        try fixture.monitor.watch(page.banner)
        fixture.monitor.context.isEnabled = false
        fixture.monitor.update()
        #expect(fixture.exposures.isEmpty)
        fixture.monitor.context.isEnabled = true
        fixture.monitor.update()
        #expect(fixture.exposures.count == 1)
    }

    @Test("filtered like clicks: settings count what they ignore, exclusions count what they filter")
    func filters() throws {
        let page = Page()
        let fixture = try Fixture { $0.exclusions.elementTypes.insert("MyCell") }
        try fixture.monitor.watch(page.banner)
        try fixture.monitor.watch(page.cell)
        fixture.tracker.autoTrackSettings.eventTypes.remove(.appElementExposure)
        fixture.monitor.update()
        #expect(fixture.exposures.isEmpty)
        #expect(fixture.tracker.diagnostics.ignoredBySettings == 1, "the banner; the cell was excluded first")
        #expect(fixture.monitor.context.diagnostics.filtered == 1)
        fixture.tracker.autoTrackSettings = AutoTrackSettings(ignoredScreenTypes: ["HomeViewController"])
        page.banner.isHidden = true
        fixture.monitor.update()
        page.banner.isHidden = false
        fixture.monitor.update()
        #expect(fixture.exposures.isEmpty)
        #expect(fixture.tracker.diagnostics.ignoredBySettings == 2)
    }

    @Test("an app's own event name and invalid properties")
    func customNameAndValidation() throws {
        let page = Page()
        let fixture = try Fixture()
        try fixture.monitor.watch(page.banner, eventName: "BannerSeen")
        fixture.monitor.update()
        #expect(fixture.exposures.map(\.name.rawValue) == ["BannerSeen"])
        #expect(throws: ValidationError.self) { try fixture.monitor.watch(page.cell, eventName: "") }
        #expect(throws: ValidationError.self) { try fixture.monitor.watch(page.cell, properties: ["": 1]) }
        #expect(fixture.monitor.watchedCount == 1, "a refused watch adds nothing")
    }

    @Test("watched without options: the tracker's settings decide, read at each update")
    func defaultOptionsFromSettings() throws {
        let page = Page()
        let fixture = try Fixture()
        fixture.tracker.autoTrackSettings.exposure = try ExposureOptions(minimumVisibleRatio: 0.9)
        try fixture.monitor.watch(page.cell)
        page.list.boundsOrigin = Point(x: 0, y: 20)
        fixture.monitor.update()
        #expect(fixture.exposures.isEmpty)
        fixture.tracker.autoTrackSettings.exposure = try ExposureOptions(minimumVisibleRatio: 0.8)
        fixture.monitor.update()
        #expect(fixture.exposures.count == 1)
    }

    @Test("the settings document carries the default exposure options; bad ones are typed errors")
    func settingsDocument() throws {
        let settings = try AutoTrackSettings(json: Array(#"{"exposure_visible_ratio": 0.5, "exposure_duration": 1.5, "exposure_repeats": false}"#.utf8))
        #expect(settings.exposure == (try ExposureOptions(minimumVisibleRatio: 0.5, minimumDuration: .milliseconds(1500), repeats: false)))
        #expect(try AutoTrackSettings(json: Array(settings.jsonDocument.utf8)) == settings)
        #expect(try AutoTrackSettings(json: Array(#"{"exposure_duration": 2}"#.utf8)).exposure.minimumDuration == .seconds(2))
        for (document, message) in [
            (#"{"exposure_visible_ratio": 2}"#, "visible ratio must be between 0 and 1"),
            (#"{"exposure_duration": -1}"#, #""exposure_duration" is -1.0, allowed 0…86400 seconds"#),
            (#"{"exposure_duration": "1"}"#, #""exposure_duration" must be a number, found string"#),
            (#"{"exposure_repeats": 1}"#, #""exposure_repeats" must be true or false"#),
        ] {
            let error = #expect(throws: AutoTrackSettingsError.self) { try AutoTrackSettings(json: Array(document.utf8)) }
            #expect(error.map { String(describing: $0).contains(message) } == true, "\(String(describing: error))")
        }
    }
}
