import AutoTrack
import AutoTrackEvents
import AutoTrackProperties
import AutoTrackReferenceHostIntegration
import AutoTrackReferenceUI
import AutoTrackSampleApp
import Foundation
import Testing
import AutoTrackLocking

/// `$AppElementExposure` on the reference host: the capture's monitor runs after every
/// turn of the run loop, so scrolling, transitions and the background change what is
/// seen without the app calling anything.
@Suite struct ExposureCaptureTests {
    final class EventLog: Sendable {
        let events = Locked<[Event]>([])
    }

    final class Session {
        let directory = temporaryDirectory("exposure-capture")
        let log = EventLog()
        let tracker: Tracker
        let host: ReferenceHost
        let app: SampleApp
        let capture: AutomaticCapture

        init() throws {
            let log = self.log
            tracker = try Tracker(configuration: TrackerConfiguration(
                storeDirectory: directory, device: testDevice, flushPolicy: FlushPolicy(batchSize: 1000, interval: nil),
                eventObserver: { event in log.events.withLock { $0.append(event) } }))
            host = try ReferenceHost()
            capture = try tracker.enableAutoTrack(on: host)
            app = try SampleApp(host: host)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        var exposures: [Event] {
            tracker.waitUntilQueued()
            return log.events.withLock { $0 }.filter { $0.name == .appElementExposure }
        }
    }

    @Test("the banner: seen at launch, gone under a pushed screen, seen again after the pop and after the background")
    func bannerAcrossTransitions() throws {
        let session = try Session()
        let app = session.app
        try session.capture.exposures.watch(app.bannerImage, options: try ExposureOptions(minimumVisibleRatio: 0.5))
        try app.launch()
        #expect(session.exposures.count == 1)
        let first = try #require(session.exposures.first)
        #expect(first.properties["$screen_name"] == "ViewController")
        #expect(first.properties["$element_type"] == "UIImageView")
        try app.host.driver.tap(gesturesOn: app.bannerImage)
        try app.host.driver.push(app.settingsScreen, on: app.navigation)
        #expect(session.exposures.count == 1, "a tap or a push is no new appearance")
        try app.host.driver.pop(app.navigation)
        #expect(session.exposures.count == 2)
        app.host.driver.background()
        #expect(session.exposures.count == 2)
        app.host.driver.foreground()
        #expect(session.exposures.count == 3)
    }

    @Test("a row below the fold: seen once scrolled half into view, with its position; again after it left")
    func rowScrolledIntoView() throws {
        let session = try Session()
        let app = session.app
        app.table.rowHeight = 60  // 13 rows: 780 points in a 636-point table
        app.table.reloadData()
        let row = try #require(app.table.cell(at: IndexPath(item: 1, section: 2)))  // the 12th row, at 660
        try session.capture.exposures.watch(row, options: try ExposureOptions(minimumVisibleRatio: 0.5))
        try app.launch()
        #expect(session.exposures.isEmpty)
        try app.host.driver.scroll(app.table, by: 40)  // 620-680 shown: 16 of 60 points
        #expect(session.exposures.isEmpty)
        try app.host.driver.scroll(app.table, by: 20)  // 600-680: 36 of 60
        let seen = try #require(session.exposures.first)
        #expect(seen.properties["$element_position"] == "2:1")
        #expect(seen.properties["$element_content"] == "Item 2-1-Buy")
        try app.host.driver.scroll(app.table, by: -60)
        try app.host.driver.scroll(app.table, by: 60)
        #expect(session.exposures.count == 2)
    }

    @Test("page containers show one page: the others are beside it, not seen")
    func pages() throws {
        let session = try Session()
        let app = session.app
        try app.launch()
        try app.host.driver.push(app.pagesScreen, on: app.navigation)
        let pages = app.pagesScreen.children.map(\.view)
        #expect(pages.count >= 2)
        for page in pages { try session.capture.exposures.watch(page) }
        app.host.runLoopTurn()
        #expect(session.exposures.count == 1)
        try app.host.driver.swipe(toPage: 1, in: app.pagesScreen)
        #expect(session.exposures.count == 2)
        #expect(ElementVisibility.visibleRatio(of: pages[0]) == 0)
        #expect(ElementVisibility.visibleRatio(of: pages[1]) == 1)
    }

    @Test("after disable(), nothing is recorded and the run loop no longer drives the monitor")
    func disabled() throws {
        let session = try Session()
        try session.capture.exposures.watch(session.app.bannerImage)
        try session.capture.disable()
        try session.app.launch()
        session.app.host.runLoopTurn()
        #expect(session.exposures.isEmpty)
    }
}
