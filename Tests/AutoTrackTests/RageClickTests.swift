import AutoTrack
import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackTesting
import Foundation
import Testing

/// `$AppRageClick`: a burst of clicks on one element, counted on the monotonic clock.
@Suite("Rage clicks")
struct RageClickTests {
    final class Fixture {
        let memory: InMemoryTracker
        let context: InteractionContext
        let screen = Screen("CheckoutViewController", title: "Checkout")
        let pay = Element("UIButton", role: .button, text: "Pay")
        let cancel = Element("UIButton", role: .button, text: "Cancel")
        let stepper = Element("UIStepper", role: .button, text: "+")

        init(settings: AutoTrackSettings = Fixture.recording()) throws {
            memory = try InMemoryTracker { $0.autoTrackSettings = settings }
            context = memory.tracker.makeInteractionContext()
            for element in [pay, cancel, stepper] { screen.rootView.addChild(element) }
            stepper.allowsRapidTaps = true
        }

        static func recording(_ rule: RageClickRule = .standard) -> AutoTrackSettings {
            var settings = AutoTrackSettings()
            settings.eventTypes.insert(.appRageClick)
            settings.rageClicks = rule
            return settings
        }

        /// Taps `element`, then lets `milliseconds` pass.
        func tap(_ element: Element, thenWait milliseconds: Int64 = 150) {
            context.emit(Interaction(
                point: .sendAction, element: context.snapshot(of: element), screen: context.snapshot(of: screen),
                details: InteractionDetails(actionName: "tapped:"), capturedBy: "test"))
            memory.clock.advance(by: milliseconds)
        }

        var names: [String] {
            memory.tracker.waitUntilQueued()
            return memory.eventNames.filter { $0 != "$AppStart" }
        }
    }

    @Test("six taps 150 ms apart: six clicks and one rage click, after the third, counting three")
    func sixTaps() throws {
        let fixture = try Fixture()
        for _ in 0..<6 { fixture.tap(fixture.pay) }
        #expect(fixture.names == ["$AppClick", "$AppClick", "$AppClick", "$AppRageClick", "$AppClick", "$AppClick", "$AppClick"])
        let rage = try #require(fixture.memory.events.first { $0.name == .appRageClick })
        #expect(rage.properties["$rage_click_count"] == .integer(3))
        #expect(rage.properties["$element_content"] == "Pay")
        #expect(rage.properties["$screen_name"] == "CheckoutViewController")
        fixture.memory.close()
    }

    @Test("a new burst after the window gives another; taps spread past the window, or alternating elements, give none")
    func bursts() throws {
        let fixture = try Fixture()
        for _ in 0..<3 { fixture.tap(fixture.pay) }
        fixture.memory.clock.advance(by: 2_000)
        for _ in 0..<3 { fixture.tap(fixture.pay) }
        for _ in 0..<3 { fixture.tap(fixture.cancel, thenWait: 600) }
        for _ in 0..<2 {
            fixture.tap(fixture.pay)
            fixture.tap(fixture.cancel)
        }
        #expect(fixture.names.filter { $0 == "$AppRageClick" }.count == 2)
        fixture.memory.close()
    }

    @Test("a view that allows rapid taps never gives a rage click; off in the settings, none either")
    func optOuts() throws {
        let fixture = try Fixture()
        for _ in 0..<10 { fixture.tap(fixture.stepper, thenWait: 50) }
        #expect(!fixture.names.contains("$AppRageClick"))
        fixture.memory.close()
        let off = try Fixture(settings: AutoTrackSettings())
        for _ in 0..<6 { off.tap(off.pay, thenWait: 10) }
        #expect(off.names == Array(repeating: "$AppClick", count: 6))
        off.memory.close()
    }

    @Test("the thresholds come from the settings document; a wall clock moved back changes nothing")
    func thresholds() throws {
        let settings = try AutoTrackSettings(json: Array(#"{"event_types": ["$AppClick", "$AppRageClick"], "rage_click_count": 4, "rage_click_window": 0.5}"#.utf8))
        #expect(settings.rageClicks == RageClickRule(clicks: 4, window: .milliseconds(500)))
        let fixture = try Fixture(settings: settings)
        for _ in 0..<4 { fixture.tap(fixture.pay, thenWait: 200) }
        #expect(!fixture.names.contains("$AppRageClick"), "four taps over 600 ms: not within 500 ms")
        for _ in 0..<4 {
            fixture.tap(fixture.cancel, thenWait: 100)
            fixture.memory.clock.jumpWallClock(by: -60_000)
        }
        #expect(fixture.names.filter { $0 == "$AppRageClick" }.count == 1)
        fixture.memory.close()
        #expect(throws: AutoTrackSettingsError.self) { try AutoTrackSettings(json: Array(#"{"rage_click_count": 1}"#.utf8)) }
        #expect(throws: AutoTrackSettingsError.self) { try AutoTrackSettings(json: Array(#"{"rage_click_window": 0}"#.utf8)) }
    }
}
