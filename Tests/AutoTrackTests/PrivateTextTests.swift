import AutoTrack
import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackSerialization
import AutoTrackTesting
import Foundation
import Testing

/// Element text under the app's control: a capture level, a per-view mask, ignore
/// policies for a view, its children or both, and a digit-run mask; ids never change.
@Suite("Private text")
struct PrivateTextTests {
    /// A screen with a card cell holding a name and a card number, and a plain button.
    final class Page {
        let window = Element("UIWindow", role: .window, frame: Rect(x: 0, y: 0, width: 390, height: 844))
        let screen = Screen("WalletViewController", title: "Wallet")
        let cell = Element("CardCell", role: .tableCell, frame: Rect(x: 0, y: 100, width: 390, height: 80), listPosition: ListPosition(section: 0, index: 0))
        let name = Element("UILabel", role: .label, text: "Alice Example")
        let number = Element("UILabel", role: .label, text: "Card 4111 1111 1111 1111")
        let button = Element("UIButton", role: .button, text: "Pay 120 EUR")

        init() {
            window.addChild(screen.rootView)
            screen.rootView.addChild(cell)
            cell.addChild(name)
            cell.addChild(number)
            screen.rootView.addChild(button)
        }
    }

    /// The clicks recorded for taps on the cell and the button, under `settings`.
    static func clicks(_ page: Page, settings: AutoTrackSettings) throws -> [Event] {
        let memory = try InMemoryTracker { $0.autoTrackSettings = settings }
        defer { memory.close() }
        let context = memory.tracker.makeInteractionContext()
        for element in [page.cell, page.button] {
            context.emit(Interaction(
                point: .sendAction, element: context.snapshot(of: element), screen: context.snapshot(of: page.screen),
                details: InteractionDetails(actionName: "tapped:"), capturedBy: "test"))
        }
        memory.tracker.waitUntilQueued()
        return memory.events.filter { $0.name == .appClick }
    }

    static let secrets = ["Alice", "Example", "4111", "Pay", "120", "EUR"]

    /// The secrets found in the events' properties — ids left out: the identity and
    /// the hex of ids are random and may hold any run of digits.
    static func leaks(_ events: [Event]) -> [String] {
        let encoded = events.map { event in
            var properties = event.properties
            for key in properties.keys where key.hasSuffix("_id") { properties.removeValue(forKey: key) }
            return String(decoding: EventJSONEncoder().encode(properties), as: UTF8.self)
        }.joined()
        return secrets.filter { encoded.contains($0) }
    }

    @Test("masked: no label text leaves the process; paths and ids are the same as with full text")
    func masked() throws {
        let page = Page()
        let full = try Self.clicks(page, settings: AutoTrackSettings())
        var settings = AutoTrackSettings()
        settings.elementText = ElementTextPolicy(capture: .masked)
        let masked = try Self.clicks(page, settings: settings)
        #expect(Self.leaks(full).count == Self.secrets.count, "full capture carries the text")
        #expect(Self.leaks(masked).isEmpty, "masked: \(Self.leaks(masked))")
        #expect(masked.map { $0.properties["$element_content"] } == [.string("***** ************ **** **** **** ****"), .string("*** *** ***")])
        #expect(masked.map { $0.properties["$element_id"] } == full.map { $0.properties["$element_id"] }, "masking never changes ids")
        #expect(masked.map { $0.properties["$element_path"] } == full.map { $0.properties["$element_path"] })
    }

    @Test("none: the text properties are left out")
    func noText() throws {
        var settings = AutoTrackSettings()
        settings.elementText = ElementTextPolicy(capture: .none)
        let events = try Self.clicks(Page(), settings: settings)
        #expect(events.count == 2)
        #expect(events.allSatisfy { $0.properties["$element_content"] == nil && $0.properties["$element_title"] == nil })
        #expect(Self.leaks(events).isEmpty)
    }

    @Test("a view that masks its text masks its subtree, whatever the level; the rest stays readable")
    func perViewMask() throws {
        let page = Page()
        page.cell.masksText = true
        let events = try Self.clicks(page, settings: AutoTrackSettings())
        #expect(events.first?.properties["$element_content"] == "***** ************ **** **** **** ****")
        #expect(events.last?.properties["$element_content"] == "Pay 120 EUR")
    }

    @Test("a mask set after a first click applies to the next: cached marks follow the hierarchy's version")
    func maskSetLater() throws {
        let page = Page()
        let before = try Self.clicks(page, settings: AutoTrackSettings())
        page.cell.masksText = true
        let after = try Self.clicks(page, settings: AutoTrackSettings())
        #expect(before.first?.properties["$element_content"] == "Alice Example-Card 4111 1111 1111 1111")
        #expect(after.first?.properties["$element_content"] == "***** ************ **** **** **** ****")
        #expect(after.first?.properties["$element_id"] == before.first?.properties["$element_id"])
    }

    @Test("digit runs of the configured length are masked in full capture; shorter ones stay")
    func digitRuns() throws {
        var settings = AutoTrackSettings()
        settings.elementText = ElementTextPolicy(capture: .full, digitRunMask: 4)
        let events = try Self.clicks(Page(), settings: settings)
        #expect(events.first?.properties["$element_content"] == "Alice Example-Card **** **** **** ****")
        #expect(events.last?.properties["$element_content"] == "Pay 120 EUR")
        #expect(ElementTextPolicy.maskingDigitRuns("a12345b12", from: 3) == "a*****b12")
    }

    @Test("ignore policies: the element itself, its children, or both", arguments: [
        (true, false, [false, true]), (false, true, [true, false]), (true, true, [false, false]),
    ])
    func ignorePolicies(ignoresSelf: Bool, ignoresChildren: Bool, recorded: [Bool]) throws {
        let page = Page()
        page.cell.isIgnoredByAutoTrack = ignoresSelf
        page.cell.ignoresDescendants = ignoresChildren
        let memory = try InMemoryTracker()
        defer { memory.close() }
        let context = memory.tracker.makeInteractionContext()
        var results: [Bool] = []
        for element in [page.cell, page.name] {
            let before = context.diagnostics.delivered
            context.emit(Interaction(
                point: .sendAction, element: context.snapshot(of: element), screen: context.snapshot(of: page.screen),
                details: InteractionDetails(actionName: "tapped:"), capturedBy: "test"))
            results.append(context.diagnostics.delivered > before)
        }
        #expect(results == recorded, "cell, then a label inside it")
    }

    @Test("the settings document sets the text policy; bad values are typed errors")
    func settingsDocument() throws {
        let settings = try AutoTrackSettings(json: Array(#"{"element_text": "masked", "mask_digit_runs": 6}"#.utf8))
        #expect(settings.elementText == ElementTextPolicy(capture: .masked, digitRunMask: 6))
        #expect(try AutoTrackSettings(json: Array(settings.jsonDocument.utf8)) == settings)
        #expect(throws: AutoTrackSettingsError.outOfRange(key: "element_text", found: "\"hidden\"", allowed: "\"full\", \"masked\" or \"none\"")) {
            try AutoTrackSettings(json: Array(#"{"element_text": "hidden"}"#.utf8))
        }
        #expect(throws: AutoTrackSettingsError.self) { try AutoTrackSettings(json: Array(#"{"mask_digit_runs": 1}"#.utf8)) }
    }
}
