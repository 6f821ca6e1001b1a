import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import Testing

/// `Interaction` shares its fields between copies, yet behaves as a value.
@Suite("Interactions are values")
struct InteractionValueTests {
    static func make() -> Interaction {
        Interaction(
            point: .sendAction,
            element: ElementSnapshot(typeName: "UIButton", typeHierarchy: ["UIButton", "UIControl"], role: .button,
                                     accessibilityIdentifier: nil, properties: ["$element_content": "Buy"]),
            screen: ScreenSnapshot(typeName: "ViewController", typeHierarchy: ["ViewController"], properties: ["$screen_name": "ViewController"]),
            details: InteractionDetails(actionName: "buy:"), capturedBy: "test")
    }

    @Test("changing a copy leaves the original as it was, field by field")
    func copyOnWrite() {
        let original = Self.make()
        var copy = original
        #expect(copy == original)
        copy.capturedBy = "other"
        copy.point = .gesture
        copy.element?.properties["$element_content"] = "Sell"
        copy.screen = nil
        copy.details.actionName = "sell:"
        #expect(original.capturedBy == "test")
        #expect(original.point == .sendAction)
        #expect(original.element?.properties["$element_content"] == "Buy")
        #expect(original.screen?.typeName == "ViewController")
        #expect(original.details.actionName == "buy:")
        #expect(copy != original)
        #expect(copy.element?.properties["$element_content"] == "Sell")
    }

    @Test("equal values hash alike, whether or not they share storage")
    func hashing() {
        let first = Self.make()
        let second = Self.make()
        #expect(first == second)
        #expect(Set([first, second, first]).count == 1)
        var changed = second
        changed.capturedBy = "x"
        #expect(Set([first, changed]).count == 2)
    }

    @Test("copies handed to other threads read the same fields")
    func sendable() async {
        let interaction = Self.make()
        let names = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 { group.addTask { interaction.element?.typeName } }
            var all: [String?] = []
            for await name in group { all.append(name) }
            return all
        }
        #expect(names == Array(repeating: "UIButton", count: 8))
    }
}
