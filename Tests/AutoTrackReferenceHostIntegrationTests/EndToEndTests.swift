import AutoTrack
import AutoTrackReferenceHostIntegration
import AutoTrackSampleSession
import AutoTrackEvents
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackSerialization
import Foundation
import Testing

@Suite("End to end: the scripted session through the tracker to the NDJSON file")
struct EndToEndTests {
    @Test("every step produces exactly its events, in order, with the key properties")
    func scriptedSession() throws {
        let directory = temporaryDirectory("e2e")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualTimestampSource(start: Timestamp(millisecondsSince1970: 1_700_000_000_000))
        let tracker = try Tracker(configuration: TrackerConfiguration(
            storeDirectory: directory, device: testDevice, flushPolicy: FlushPolicy(batchSize: 1000, interval: nil),
            clock: clock, eventIDs: SequentialEventIDGenerator()))
        let host = try ReferenceHost()
        try tracker.enableAutoTrack(on: host)
        let app = try SampleApp(host: host)
        var perStep: [(String, Int)] = []
        var queuedBefore = 0
        var previous: ScriptedSession.Step?
        try ScriptedSession.play(on: app, tracker: tracker) { step in
            tracker.waitUntilQueued()
            let queued = tracker.diagnostics.queued
            if let previous { perStep.append((previous.description, queued - queuedBefore)) }
            queuedBefore = queued
            previous = step
            clock.advance(by: 1500)
        }
        tracker.waitUntilQueued()
        perStep.append((previous!.description, tracker.diagnostics.queued - queuedBefore))
        for ((description, count), step) in zip(perStep, ScriptedSession.steps) {
            #expect(count == step.expectedEvents.count, "\(description)")
        }
        tracker.flush()
        // The consent step sends what was queued before it denies consent.
        #expect(tracker.diagnostics.delivered == ScriptedSession.expectedEvents.count)
        tracker.shutdown()

        let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent("events.ndjson")))
        let events = try EventJSONDecoder().decodeNDJSON(from: bytes)
        #expect(events.map(\.name.rawValue) == ScriptedSession.expectedEvents)
        #expect(Set(events.map(\.id)).count == events.count)
        #expect(events.map(\.time) == events.map(\.time).sorted(), "in order")

        func property(_ index: Int, _ key: String) -> String {
            if case .string(let text)? = events[index].properties[key] { return text }
            return events[index].properties[key].map { "\($0)" } ?? "none"
        }
        // 1: the first screen view.
        #expect(property(1, "$screen_name") == "ViewController")
        #expect(property(1, "$title") == "Products")
        // 2: Buy in the first cell.
        #expect(property(2, "$element_content") == "Buy")
        #expect(property(2, "$element_path") == "ViewController[0]/UIView[0]/UITableView[0]/MyTableViewCell#[0,0]/UITableViewCellContentView[0]/UIButton[0]")
        // 3: the sixth row — the tutorials' values.
        #expect(property(3, "$element_content") == "CELL-Buy")
        #expect(property(3, "$element_position") == "0:5")
        #expect(property(3, "$screen_name") == "ViewController")
        let identity = "path(ViewController[0]/UIView[0]/UITableView[0]/MyTableViewCell#[0,5])&page(ViewController)"
        #expect(property(3, "$element_id") == SHA256.hexDigest(identity))
        // Sensors' element types: the list class for a selection (the cell class kept).
        #expect(property(3, "$element_type") == "UITableView" && property(3, "$element_class_name") == "MyTableViewCell")
        // 4: the bar button is attributed to the visible screen, typed as a bar button item.
        #expect(property(4, "$element_content") == "Edit" && property(4, "$screen_name") == "ViewController")
        #expect(property(4, "$element_type") == "UIBarButtonItem")
        // Laid out in the bar like UIKit's: right items from the trailing edge (Edit, then Add).
        #expect(property(4, "$element_frame") == "rect(278, 0, 52, 44)")
        // Settings: switch, segment, search.
        let switchClick = events.firstIndex { $0.properties["$element_type"] == "UISwitch" }!
        #expect(property(switchClick, "$element_content") == "checked")
        #expect(events.contains { $0.properties["$search_text"] == "shoes" })
        #expect(!events.contains { $0.properties.contains { _, value in value == "Ann" || value == "secret" } }, "typed text is never captured")
        // The alert answer.
        let alertClick = events.firstIndex { $0.properties["$alert_message"] != nil }!
        #expect(property(alertClick, "$alert_title") == "退群" && property(alertClick, "$element_content") == "OK")
        #expect(property(alertClick, "$element_type") == "UIAlertController")
        // The slider drag is one click with the value it ended at; the stepper, its value.
        #expect(events.filter { $0.properties["$element_type"] == "UISlider" }.map { $0.properties["$element_content"] } == ["0.8"])
        #expect(events.filter { $0.properties["$element_type"] == "UIStepper" }.map { $0.properties["$element_content"] } == ["2"])
        // The tab bar item: its title, its index, typed as a tab bar item.
        let tabClick = try #require(events.firstIndex { $0.properties["$element_type"] == "UITabBarItem" })
        #expect(property(tabClick, "$element_content") == "Profile" && property(tabClick, "$element_position") == "1")
        // The closure-wired button is one click.
        #expect(events.contains { $0.name == .appClick && $0.properties["$element_content"] == "Share" })
        // The SwiftUI shop: a screen named after its view; two taps on one button, one
        // id across the re-render between them; the toggle, turned on (its value after the
        // tap, as a switch's); the row link with its row.
        let shopScreen = try #require(events.firstIndex { $0.name == .appViewScreen && $0.properties["$screen_name"] == "ShopView" })
        let shopClicks = events[shopScreen...].filter { $0.name == .appClick && $0.properties["$screen_name"] == "ShopView" }
        #expect(shopClicks.map { $0.properties["$element_content"] } == ["Add to cart", "Add to cart", "checked", "Charger"])
        #expect(shopClicks.map { $0.properties["$element_type"] } == ["Button", "Button", "Toggle", "NavigationLink"])
        #expect(shopClicks[0].properties["$element_id"] != nil && shopClicks[0].properties["$element_id"] == shopClicks[1].properties["$element_id"])
        #expect(Set(shopClicks.map { $0.properties["$element_id"] }).count == 3)
        #expect(shopClicks[3].properties["$element_position"] == "0:2")
        #expect(events.contains { $0.name == .appViewScreen && $0.properties["$screen_name"] == "ProductDetailView" })
        let shopExposures = events.filter { $0.name == .appElementExposure && $0.properties["$screen_name"] == "ShopView" }
        #expect(shopExposures.map { $0.properties["$element_type"] } == ["Image", "Image"])
        #expect(shopExposures.allSatisfy { $0.properties["campaign"] == "spring" })
        // The session end and the code-tracked event.
        let end = events.firstIndex { $0.name == .appEnd }!
        #expect(events[end].properties["$event_duration"] != nil)
        #expect(events.last?.library.method == .code && events[1].library.method == .autoTrack)
        #expect(events.last?.properties["items"] == .strings(["shoes", "socks"]))
        // Presets lead every event.
        #expect(events.allSatisfy { $0.properties["$model"] == "iPhone15,3" && $0.properties["$app_version"] == "1.0" })
    }
}
