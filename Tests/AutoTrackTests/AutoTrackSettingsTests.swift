import AutoTrack
import AutoTrackEvents
import AutoTrackTesting
import AutoTrackInterception
import AutoTrackProperties
import Foundation
import Testing

@Suite("Run-time autotrack settings and their JSON document")
struct AutoTrackSettingsTests {
    static let fullDocument = """
        {"version": 1, "event_types": ["$AppClick", "$AppEnd"], "ignored_screens": ["BaseDebugViewController"],
         "ignored_element_types": ["UISwitch"], "ignored_element_ids": ["abc"]}
        """

    @Test("a full document reads into settings and writes back to an equal document")
    func readAndWrite() throws {
        let settings = try AutoTrackSettings(json: Array(Self.fullDocument.utf8))
        #expect(settings.eventTypes == [.appClick, .appEnd])
        #expect(settings.ignoredScreenTypes == ["BaseDebugViewController"])
        #expect(settings.ignoredElementTypes == ["UISwitch"])
        #expect(settings.ignoredElementIDs == ["abc"])
        #expect(try AutoTrackSettings(json: Array(settings.jsonDocument.utf8)) == settings)
        #expect(try AutoTrackSettings(json: Array("{}".utf8)) == .standard, "a missing key keeps its default")
        #expect(try AutoTrackSettings(json: Array(#"{"event_types": []}"#.utf8)).eventTypes.isEmpty)
    }

    @Test("invalid documents are typed errors naming the problem", arguments: [
        ("{", "syntax"),
        ("[]", #"must be a JSON object, found array"#),
        (#"{"ignored_screen": []}"#, #"unknown key "ignored_screen""#),
        (#"{"ignored_screens": [], "ignored_screens": []}"#, #"key "ignored_screens" appears twice"#),
        (#"{"version": 2}"#, "unsupported version 2"),
        (#"{"version": "1"}"#, #""version" must be an integer, found string"#),
        (#"{"ignored_screens": "A"}"#, #""ignored_screens" must be an array of strings, found string"#),
        (#"{"ignored_element_ids": [1]}"#, "found an array holding integer"),
        (#"{"event_types": ["$AppClick", "$AppCrash"]}"#, #""$AppCrash" is not an automatic event"#),
        (#"{"exposure_duration": -1e-9}"#, #""exposure_duration" is -1e-09, allowed 0…86400 seconds"#),
        (#"{"exposure_duration": 86401}"#, #""exposure_duration" is 86401.0, allowed 0…86400 seconds"#),
        (#"{"exposure_duration": 1e300}"#, #""exposure_duration" is 1e+300"#),
        (#"{"exposure_visible_ratio": -0.01}"#, "the visible ratio must be between 0 and 1"),
        (#"{"exposure_visible_ratio": 1.5}"#, "the visible ratio must be between 0 and 1"),
        (#"{"ignored_screens": [""]}"#, #""ignored_screens" is an entry of 0 UTF-8 bytes, allowed 1…1024 bytes"#),
        ("{\"ignored_element_ids\": [\"\(String(repeating: "a", count: 1025))\"]}", "an entry of 1025 UTF-8 bytes"),
        ("{\"ignored_element_types\": [\(Array(repeating: "\"A\"", count: 10_001).joined(separator: ","))]}", "10001 entries, allowed at most 10000"),
    ])
    func invalid(document: String, message: String) {
        let error = #expect(throws: AutoTrackSettingsError.self) { try AutoTrackSettings(json: Array(document.utf8)) }
        let description = error.map { String(describing: $0) } ?? ""
        #expect(description.contains(message) || (message == "syntax" && error.map { if case .syntax = $0 { true } else { false } } == true),
                "\(description)")
    }

    /// A click on `element` on a screen of type `screen` (whose ancestors are `superScreens`).
    static func click(on element: Element, screen: String, superScreens: [String] = [], action: String = "tapped:") -> Interaction {
        let context = InteractionContext(sink: InMemoryInteractionSink())
        let page = Screen(screen, superTypeNames: superScreens)
        page.rootView.addChild(element)
        return Interaction(point: .sendAction, element: context.snapshot(of: element), screen: context.snapshot(of: page),
                           details: InteractionDetails(actionName: action), capturedBy: "test")
    }

    static func screenView(_ screen: String, superScreens: [String] = []) -> Interaction {
        let context = InteractionContext(sink: InMemoryInteractionSink())
        return Interaction(point: .screenView, element: nil, screen: context.snapshot(of: Screen(screen, superTypeNames: superScreens)),
                           details: InteractionDetails(screenViewReason: .appear), capturedBy: "test")
    }

    @Test("event types switch on and off while the tracker runs; what they skip is counted")
    func runTimeSwitches() throws {
        let directory = temporaryDirectory("settings-switch")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tracker, collected) = try makeCollectingTracker(directory)
        let sink = tracker.interactionSink
        let button = Element("UIButton", role: .button, text: "Buy")
        try sink.receive(Self.click(on: button, screen: "HomeViewController"))
        tracker.autoTrackSettings.eventTypes.remove(.appClick)
        try sink.receive(Self.click(on: button, screen: "HomeViewController"))
        try sink.receive(Self.screenView("HomeViewController"))
        tracker.autoTrackSettings.eventTypes = [.appClick]
        tracker.trackAppStart(resumingFromBackground: false)
        tracker.trackAppEnd()
        try sink.receive(Self.screenView("HomeViewController"))
        try sink.receive(Self.click(on: button, screen: "HomeViewController"))
        tracker.autoTrackSettings = .standard
        tracker.trackAppEnd()
        tracker.waitUntilQueued()
        #expect(collected.eventNames == ["$AppClick", "$AppViewScreen", "$AppClick", "$AppEnd"])
        #expect(tracker.diagnostics.ignoredBySettings == 4)
        let appEnd = try #require(collected.events.last)
        #expect(appEnd.properties["$event_duration"] != nil, "a session started while $AppStart was off still has a length")
    }

    @Test("ignored screens cover their subclasses and the clicks on them; element types and ids are ignored too")
    func ignoreLists() throws {
        let directory = temporaryDirectory("settings-ignore")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tracker, collected) = try makeCollectingTracker(directory)
        try tracker.loadAutoTrackSettings(json: Array(Self.fullDocument.utf8))
        tracker.autoTrackSettings.eventTypes = .standard
        let sink = tracker.interactionSink
        try sink.receive(Self.screenView("LogViewController", superScreens: ["BaseDebugViewController", "UIViewController"]))
        try sink.receive(Self.click(on: Element("UIButton", role: .button, text: "Clear"), screen: "LogViewController",
                                    superScreens: ["BaseDebugViewController"]))
        try sink.receive(Self.click(on: Element("FancySwitch", role: .toggle, superTypeNames: ["UISwitch"]), screen: "Home"))
        let tagged = Element("UIButton", role: .button, text: "Tagged")
        tagged.customElementID = "abc"
        try sink.receive(Self.click(on: tagged, screen: "Home"))
        try sink.receive(Self.click(on: Element("UIButton", role: .button, text: "Kept"), screen: "Home"))
        try sink.receive(Self.screenView("Home"))
        tracker.waitUntilQueued()
        #expect(collected.eventNames == ["$AppClick", "$AppViewScreen"])
        #expect(collected.events.first?.properties["$element_content"] == "Kept")
        #expect(tracker.diagnostics.ignoredBySettings == 4)
    }

    @Test("a document changes the keys it holds and says which; {} changes nothing")
    func documentsSayWhatTheyChange() throws {
        let directory = temporaryDirectory("settings-patch")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tracker, _) = try makeCollectingTracker(directory)
        var changed = try tracker.loadAutoTrackSettings(json: Array(#"{"event_types": ["$AppClick"], "ignored_screens": ["DebugViewController"]}"#.utf8))
        #expect(changed == [.eventTypes, .ignoredScreens])
        let configured = tracker.autoTrackSettings
        changed = try tracker.loadAutoTrackSettings(json: Array("{}".utf8))
        #expect(changed.isEmpty)
        #expect(tracker.autoTrackSettings == configured, "{} resets nothing")
        changed = try tracker.loadAutoTrackSettings(json: Array(#"{"exposure_duration": 2}"#.utf8))
        #expect(changed == [.exposure])
        #expect(tracker.autoTrackSettings.eventTypes == [.appClick], "keys left out keep their value")
        #expect(tracker.autoTrackSettings.ignoredScreenTypes == ["DebugViewController"])
        #expect(tracker.autoTrackSettings.exposure.minimumDuration == .seconds(2))
        #expect(try tracker.loadAutoTrackSettings(json: Array(#"{"exposure_duration": 2}"#.utf8)).isEmpty, "the same value changes nothing")
    }

    @Test("an invalid document leaves the settings in force unchanged")
    func invalidKeepsPrevious() throws {
        let directory = temporaryDirectory("settings-invalid")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tracker, collected) = try makeCollectingTracker(directory)
        try tracker.loadAutoTrackSettings(json: Array(#"{"event_types": ["$AppViewScreen"]}"#.utf8))
        let before = tracker.autoTrackSettings
        #expect(throws: AutoTrackSettingsError.unknownKey("event_type")) {
            try tracker.loadAutoTrackSettings(json: Array(#"{"event_type": []}"#.utf8))
        }
        #expect(throws: AutoTrackSettingsError.self) {
            try tracker.loadAutoTrackSettings(json: Array(#"{"event_types": ["$AppClick"], "version": 9}"#.utf8))
        }
        #expect(tracker.autoTrackSettings == before)
        try tracker.interactionSink.receive(Self.click(on: Element("UIButton", role: .button, text: "Buy"), screen: "Home"))
        try tracker.interactionSink.receive(Self.screenView("Home"))
        tracker.waitUntilQueued()
        #expect(collected.eventNames == ["$AppViewScreen"])
    }

    @Test("$AppPageLeave: each screen left — by the next screen or the background — once, with its duration and properties")
    func pageLeave() throws {
        let directory = temporaryDirectory("page-leave")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualTimestampSource(start: Timestamp(millisecondsSince1970: 1_000_000))
        let (tracker, collected) = try makeCollectingTracker(directory, clock: clock)
        let sink = tracker.interactionSink
        tracker.autoTrackSettings.eventTypes = .all
        try sink.receive(Self.screenView("HomeViewController"))
        clock.advance(by: 2_500)
        try sink.receive(Self.click(on: Element("UIButton", role: .button, text: "Open"), screen: "HomeViewController"))
        try sink.receive(Self.screenView("DetailViewController"))
        clock.advance(by: 1_000)
        tracker.trackAppEnd()
        clock.advance(by: 60_000)
        tracker.trackAppStart(resumingFromBackground: true)
        var foreground = Self.screenView("DetailViewController")
        foreground.details.screenViewReason = .foreground
        try sink.receive(foreground)
        clock.advance(by: 500)
        try sink.receive(Self.screenView("HomeViewController"))
        tracker.waitUntilQueued()
        let events = collected.events
        #expect(events.map(\.name.rawValue) == [
            "$AppViewScreen", "$AppClick", "$AppPageLeave", "$AppViewScreen", "$AppPageLeave", "$AppEnd", "$AppStart",
            "$AppViewScreen", "$AppPageLeave", "$AppViewScreen",
        ])
        let leaves = events.filter { $0.name == .appPageLeave }
        #expect(leaves.map { $0.properties["$screen_name"] } == ["HomeViewController", "DetailViewController", "DetailViewController"])
        #expect(leaves.map { $0.properties["event_duration"] } == [.number(2.5), .number(1.0), .number(0.5)],
                "the time in the background is not time on the screen")
        #expect(leaves[1].properties["$referrer"] == "HomeViewController", "a leave carries its screen view's referrer")
        #expect(leaves[0].time == events[3].time, "left when the next screen appeared")
    }

    @Test("$AppPageLeave is off by default; an ignored screen appearing leaves the one before")
    func pageLeaveDefaultsAndIgnoredScreens() throws {
        let directory = temporaryDirectory("page-leave-ignored")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualTimestampSource(start: Timestamp(millisecondsSince1970: 0))
        let (tracker, collected) = try makeCollectingTracker(directory, clock: clock)
        let sink = tracker.interactionSink
        try sink.receive(Self.screenView("HomeViewController"))
        try sink.receive(Self.screenView("DetailViewController"))
        tracker.waitUntilQueued()
        #expect(collected.eventNames == ["$AppViewScreen", "$AppViewScreen"])
        tracker.autoTrackSettings = AutoTrackSettings(eventTypes: .all, ignoredScreenTypes: ["DebugViewController"])
        try sink.receive(Self.screenView("HomeViewController"))
        clock.advance(by: 3_000)
        try sink.receive(Self.screenView("DebugViewController"))
        clock.advance(by: 9_000)
        tracker.trackAppEnd()
        tracker.waitUntilQueued()
        let leaves = collected.events.filter { $0.name == .appPageLeave }
        #expect(leaves.map { $0.properties["$screen_name"] } == ["DetailViewController", "HomeViewController"])
        #expect(leaves.last?.properties["event_duration"] == .number(3), "left when the ignored screen appeared, not at the background")
    }

    @Test("a screen the context's exclusions drop still ends the previous screen's page time")
    func pageLeaveAtExcludedScreen() throws {
        let directory = temporaryDirectory("page-leave-excluded")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualTimestampSource(start: Timestamp(millisecondsSince1970: 0))
        let (tracker, collected) = try makeCollectingTracker(directory, clock: clock) { configuration in
            configuration.exclusions.screenTypes.insert("PaymentViewController")
            configuration.autoTrackSettings.eventTypes = .all
        }
        let context = tracker.makeInteractionContext()
        context.emit(Self.screenView("HomeViewController"))
        clock.advance(by: 2_000)
        context.emit(Self.screenView("PaymentViewController"))
        clock.advance(by: 7_000)
        tracker.trackAppEnd()
        tracker.waitUntilQueued()
        #expect(collected.eventNames == ["$AppViewScreen", "$AppPageLeave", "$AppEnd"])
        let leave = try #require(collected.events.first { $0.name == .appPageLeave })
        #expect(leave.properties["event_duration"] == .number(2), "left when the excluded screen appeared, not at the background")
        #expect(context.diagnostics.filtered == 1)
    }
}

/// The filters an interaction passes in a tracker's context, as one ordered pipeline.
@Suite("One filter pipeline: actions, exclusions, then a tracker's settings")
struct FilterPipelineTests {
    @Test("a tracker's context asks its settings as the pipeline's last stage: what they ignore is filtered, never delivered, and counted as ignored by settings")
    func settingsStage() throws {
        let directory = temporaryDirectory("pipeline-settings")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualTimestampSource(start: Timestamp(millisecondsSince1970: 0))
        let (tracker, collected) = try makeCollectingTracker(directory, clock: clock) { configuration in
            configuration.autoTrackSettings.eventTypes = .all
        }
        let context = tracker.makeInteractionContext()
        #expect(context.filters.stages.map(\.name) == [.actions, .exclusions, .settings])
        context.emit(AutoTrackSettingsTests.screenView("HomeViewController"))
        clock.advance(by: 3_000)
        tracker.autoTrackSettings.ignoredScreenTypes = ["DebugViewController"]
        let button = Element("UIButton", role: .button, text: "Clear")
        context.emit(AutoTrackSettingsTests.click(on: button, screen: "DebugViewController"))
        context.emit(AutoTrackSettingsTests.screenView("DebugViewController"))
        tracker.waitUntilQueued()
        #expect(collected.eventNames == ["$AppViewScreen", "$AppPageLeave"], "an ignored screen still ends the page shown before it")
        #expect(context.diagnostics.delivered == 1)
        #expect(context.diagnostics.filtered == 2)
        #expect(tracker.diagnostics.ignoredBySettings == 2)
        #expect(tracker.diagnostics.interception.filtered == 2)
    }

    @Test("the first stage that excludes is the one named; a tab bar item's private action passes the action stage")
    func order() {
        let pipeline = InteractionFilterPipeline(exclusions: TrackingExclusions(elementTypes: ["UIButton"]))
        let privateAction = AutoTrackSettingsTests.click(on: Element("UIButton", role: .button, text: "Buy"), screen: "Home", action: "_private:")
        #expect(pipeline.stage(excluding: privateAction) == .actions, "both stages exclude it; the first asked is named")
        let tab = AutoTrackSettingsTests.click(on: Element("UITabBarButton", role: .tabBarItem, text: "Orders"), screen: "Home", action: "_tab:")
        #expect(pipeline.stage(excluding: tab) == nil)
        let plain = AutoTrackSettingsTests.click(on: Element("UIButton", role: .button, text: "Buy"), screen: "Home")
        #expect(pipeline.stage(excluding: plain) == .exclusions)
    }
}
