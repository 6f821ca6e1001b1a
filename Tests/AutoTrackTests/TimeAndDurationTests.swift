import AutoTrack
import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackTesting
import Foundation
import Testing

/// Durations come from the monotonic clock, timestamps from the wall clock: a wall
/// clock moved either way during a session changes no duration.
@Suite("Durations on the monotonic clock")
struct TimeAndDurationTests {
    /// A session: start, a screen for 2 s, the wall clock moved by `jump`, 10 s more on
    /// it, a second screen for 5 s, the wall clock moved by `-jump`, 3 s more, then the
    /// app goes to the background. 20 s pass on the monotonic clock.
    @Test("the wall clock jumps ±1 h mid-session: $AppEnd's and every page's duration equal the monotonic time elapsed",
          arguments: [Int64(3_600_000), -3_600_000])
    func wallClockJumps(jump: Int64) throws {
        let clock = ManualTimestampSource(start: Timestamp(millisecondsSince1970: 1_700_000_000_000))
        let directory = temporaryDirectory("monotonic")
        defer { try? FileManager.default.removeItem(at: directory) }
        let memory = try InMemoryTracker(storeDirectory: directory, clock: clock) { $0.autoTrackSettings.eventTypes = .all }
        let tracker = memory.tracker
        let context = tracker.makeInteractionContext()
        let first = MiniHost.Page("FirstPage", title: "First")
        let second = MiniHost.Page("SecondPage", title: "Second")
        let reporter = MiniHost.Reporter(context: context)
        tracker.trackAppStart(resumingFromBackground: false)
        reporter.shown(first)
        clock.advance(by: 2_000)
        clock.jumpWallClock(by: jump)
        clock.advance(by: 10_000)
        reporter.shown(second)
        clock.advance(by: 5_000)
        clock.jumpWallClock(by: -jump)
        clock.advance(by: 3_000)
        tracker.trackAppEnd()
        tracker.waitUntilQueued()
        let events = memory.events
        let end = try #require(events.first { $0.name == .appEnd })
        #expect(end.properties["$event_duration"] == .number(20), "20 s passed, whatever the wall clock says")
        let leaves = events.filter { $0.name == .appPageLeave }.compactMap { event -> Double? in
            if case .number(let seconds)? = event.properties["event_duration"] { seconds } else { nil }
        }
        #expect(leaves == [12, 8], "the first page 2 s + 10 s, the second 5 s + 3 s")
        // Timestamps still follow the wall clock.
        #expect(end.time.millisecondsSince1970 == 1_700_000_000_000 + 20_000)
        tracker.shutdown()
    }

    @Test("a wall clock moved forward an hour exposes nothing early; the exposure comes after the monotonic minimum")
    func exposureIgnoresWallClock() throws {
        let page = ExposureTests.Page()
        let fixture = try ExposureTests.Fixture()
        try fixture.monitor.watch(page.cell, options: try ExposureOptions(minimumVisibleRatio: 0.5, minimumDuration: .milliseconds(800)))
        fixture.monitor.update()
        fixture.clock.jumpWallClock(by: 3_600_000)
        fixture.clock.advance(by: 100)
        fixture.monitor.update()
        #expect(fixture.exposures.isEmpty, "100 ms visible is not 800 ms, whatever the wall clock says")
        fixture.clock.jumpWallClock(by: -7_200_000)
        fixture.clock.advance(by: 700)
        fixture.monitor.update()
        #expect(fixture.exposures.count == 1, "800 ms visible on the monotonic clock, with the wall clock moved back")
    }

    @Test("the manual clock: a step forward moves both clocks, a jump or a step back the wall clock only")
    func manualClock() {
        let clock = ManualTimestampSource(start: Timestamp(millisecondsSince1970: 0))
        let start = clock.monotonicNow()
        clock.advance(by: 1_000)
        clock.jumpWallClock(by: 5_000)
        clock.advance(by: -2_000)
        clock.set(Timestamp(millisecondsSince1970: 42))
        #expect(clock.monotonicNow() - start == .seconds(1))
        #expect(clock.now().millisecondsSince1970 == 42)
        let system = SystemTimestampSource()
        let before = system.monotonicNow()
        #expect(system.monotonicNow() >= before)
    }
}
