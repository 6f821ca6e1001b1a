import AutoTrack
import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackTesting
import Foundation
import Testing

/// `$AppDeadClick`: a tap the host reported that no click or screen view answered in
/// time, on a manual clock.
@Suite("Dead clicks")
struct DeadClickTests {
    final class Fixture {
        let memory: InMemoryTracker
        let context: InteractionContext
        let screen = Screen("ProductViewController", title: "Product")
        let photo = Element("UIImageView", role: .image, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let buy = Element("UIButton", role: .button, text: "Buy")
        let caption = Element("UILabel", role: .label, text: "Blue shoes")

        init(settings: AutoTrackSettings = Fixture.recording()) throws {
            memory = try InMemoryTracker { $0.autoTrackSettings = settings }
            context = memory.tracker.makeInteractionContext()
            for element in [photo, buy, caption] { screen.rootView.addChild(element) }
            caption.tapsMayDoNothing = true
        }

        static func recording(timeout: Duration = .seconds(1)) -> AutoTrackSettings {
            var settings = AutoTrackSettings()
            settings.eventTypes.insert(.appDeadClick)
            settings.deadClickTimeout = timeout
            return settings
        }

        /// A touch ending on `element`, as the host reports it.
        func touch(_ element: Element) {
            memory.tracker.noteTap(on: context.snapshot(of: element), screen: context.snapshot(of: screen))
        }

        /// The click the touch triggers.
        func click(_ element: Element) {
            context.emit(Interaction(
                point: .sendAction, element: context.snapshot(of: element), screen: context.snapshot(of: screen),
                details: InteractionDetails(actionName: "tapped:"), capturedBy: "test"))
        }

        var names: [String] {
            memory.tracker.waitUntilQueued()
            return memory.eventNames
        }
    }

    @Test("a tap with no answer within the timeout is a dead click, at the tap's time; one answered by a click is not")
    func deadAndAnswered() throws {
        let fixture = try Fixture()
        fixture.touch(fixture.buy)
        fixture.click(fixture.buy)
        fixture.memory.clock.advance(by: 2_000)
        #expect(fixture.names == ["$AppClick"])
        let tapTime = fixture.memory.clock.now()
        fixture.touch(fixture.photo)
        fixture.memory.clock.advance(by: 999)
        #expect(fixture.names == ["$AppClick"], "not yet: 999 ms of 1 s")
        fixture.memory.clock.advance(by: 2)
        #expect(fixture.names == ["$AppClick", "$AppDeadClick"])
        let dead = try #require(fixture.memory.events.last)
        #expect(dead.time == tapTime)
        #expect(dead.properties["$element_type"] == "UIImageView")
        #expect(dead.properties["$screen_name"] == "ProductViewController")
        fixture.memory.close()
    }

    @Test("a view whose taps may do nothing, and settings without dead clicks, give none; the timeout comes from the document")
    func optOuts() throws {
        let fixture = try Fixture()
        fixture.touch(fixture.caption)
        fixture.memory.clock.advance(by: 5_000)
        #expect(fixture.names.isEmpty)
        fixture.memory.close()
        let off = try Fixture(settings: AutoTrackSettings())
        off.touch(off.photo)
        off.memory.clock.advance(by: 5_000)
        #expect(off.names.isEmpty)
        off.memory.close()
        let settings = try AutoTrackSettings(json: Array(#"{"event_types": ["$AppClick", "$AppDeadClick"], "dead_click_timeout": 0.25}"#.utf8))
        #expect(settings.deadClickTimeout == .milliseconds(250))
        let quick = try Fixture(settings: settings)
        quick.touch(quick.photo)
        quick.memory.clock.advance(by: 300)
        #expect(quick.names == ["$AppDeadClick"])
        quick.memory.close()
        #expect(throws: AutoTrackSettingsError.self) { try AutoTrackSettings(json: Array(#"{"dead_click_timeout": 11}"#.utf8)) }
    }

    @Test("a wall clock moved forward an hour makes no dead click of a tap answered in time")
    func wallClock() throws {
        let fixture = try Fixture()
        fixture.touch(fixture.buy)
        fixture.memory.clock.jumpWallClock(by: 3_600_000)
        fixture.memory.clock.advance(by: 100)
        fixture.click(fixture.buy)
        fixture.memory.clock.advance(by: 5_000)
        #expect(fixture.names == ["$AppClick"])
        fixture.memory.close()
    }

    @Test("a click answers the tap that triggered it, not a dead tap elsewhere before it; taps on the clicked element or inside it are answered too")
    func clickAnswersItsOwnTap() throws {
        let fixture = try Fixture()
        let badge = Element("UILabel", role: .label, text: "Sale")
        fixture.buy.addChild(badge)
        fixture.touch(fixture.photo)
        fixture.memory.clock.advance(by: 200)
        fixture.touch(fixture.buy)
        fixture.click(fixture.buy)
        fixture.memory.clock.advance(by: 2_000)
        #expect(fixture.names == ["$AppClick", "$AppDeadClick"])
        #expect(fixture.memory.events.last?.properties["$element_type"] == "UIImageView")
        // A double tap's first touch, and a touch on a label inside the button.
        fixture.touch(fixture.buy)
        fixture.memory.clock.advance(by: 150)
        fixture.touch(badge)
        fixture.click(fixture.buy)
        fixture.memory.clock.advance(by: 2_000)
        #expect(fixture.names == ["$AppClick", "$AppDeadClick", "$AppClick"])
        fixture.memory.close()
    }

    @Test("a click answers its own element's tap even when a later tap elsewhere is the newest (a recognizer that waits for a double tap)")
    func clickAnswersTheMatchingTapFirst() throws {
        let fixture = try Fixture()
        fixture.touch(fixture.buy)
        fixture.memory.clock.advance(by: 200)
        fixture.touch(fixture.photo)
        fixture.click(fixture.buy)
        fixture.memory.clock.advance(by: 2_000)
        #expect(fixture.names == ["$AppClick", "$AppDeadClick"])
        #expect(fixture.memory.events.last?.properties["$element_type"] == "UIImageView", "the photo's tap, not the button's")
        fixture.memory.close()
    }

    @Test("a click recorded just before the touch it came from answers it (two hooks at one sendEvent:); an older one does not")
    func clickBeforeItsTouch() throws {
        let fixture = try Fixture()
        fixture.click(fixture.buy)
        fixture.touch(fixture.buy)
        fixture.memory.clock.advance(by: 2_000)
        #expect(fixture.names == ["$AppClick"])
        // A click long before is no answer to a tap now.
        fixture.click(fixture.buy)
        fixture.memory.clock.advance(by: 1_500)
        fixture.touch(fixture.buy)
        fixture.memory.clock.advance(by: 2_000)
        #expect(fixture.names == ["$AppClick", "$AppClick", "$AppDeadClick"])
        // Nor a click on another element.
        fixture.click(fixture.buy)
        fixture.touch(fixture.photo)
        fixture.memory.clock.advance(by: 2_000)
        #expect(fixture.names == ["$AppClick", "$AppClick", "$AppDeadClick", "$AppClick", "$AppDeadClick"])
        fixture.memory.close()
    }

    @Test("a dead tap stays dead when a working tap's click comes before its own touch")
    func deadTapBeforeAClickFirstTap() throws {
        let fixture = try Fixture()
        fixture.touch(fixture.photo)
        fixture.memory.clock.advance(by: 100)
        fixture.click(fixture.buy)
        fixture.touch(fixture.buy)
        fixture.memory.clock.advance(by: 2_000)
        #expect(fixture.names == ["$AppClick", "$AppDeadClick"])
        #expect(fixture.memory.events.last?.properties["$element_type"] == "UIImageView", "the photo's tap, not the button's")
        fixture.memory.close()
    }

    @Test("a click on another element answers the newest tap before it, even when nothing follows for longer than the timeout")
    func unrelatedClickAnswersTheNewestTap() throws {
        let fixture = try Fixture()
        fixture.touch(fixture.photo)
        fixture.click(fixture.buy)
        fixture.memory.clock.advance(by: 2_000)
        #expect(fixture.names == ["$AppClick"])
        fixture.touch(fixture.photo)
        fixture.memory.clock.advance(by: 2_000)
        #expect(fixture.names == ["$AppClick", "$AppDeadClick"], "settled by the next tap: that one is dead on its own")
        fixture.memory.close()
    }
}
