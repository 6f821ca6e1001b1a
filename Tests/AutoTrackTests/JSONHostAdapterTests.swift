import AutoTrack
import AutoTrackEvents
import AutoTrackInterception
import AutoTrackJSONHost
import AutoTrackProperties
import AutoTrackTesting
import Foundation
import Testing

/// A React-Native-shaped host through the JSON adapter: the same properties, paths and
/// ids as the same tree built natively, stable across re-sent trees, filters applied,
/// bad documents refused with typed errors.
@Suite("The JSON host adapter")
struct JSONHostAdapterTests {
    /// A product screen as a React Native host would describe it: a root view, a scroll
    /// view with a list of rows, each with a title and a Buy touchable.
    static func tree(rows: Int = 3, buyText: String = "Buy") -> String {
        let items = (0..<rows).map { row in
            """
            {"type": "RCTView", "role": "table_cell", "tag": "row-\(row)", "list_position": {"section": 0, "index": \(row)}, "frame": [0, \(row * 60), 390, 60],
             "children": [
               {"type": "RCTText", "role": "label", "text": "Shoe \(row)", "frame": [16, 8, 200, 20]},
               {"type": "RCTTouchableOpacity", "role": "button", "tag": "buy-\(row)", "text": "\(buyText)", "frame": [300, 8, 60, 44],
                "custom_id": "buy-\(row)", "properties": {"sku": "A-\(row)"}}]}
            """
        }.joined(separator: ",")
        return """
            {"screen": {"type": "ProductListScreen", "title": "Shoes", "screen_name": "product_list", "url": "app://products"},
             "root": {"type": "RCTRootView", "frame": [0, 0, 390, 844], "children": [
               {"type": "RCTScrollView", "role": "scroll_view", "frame": [0, 88, 390, 700], "children": [\(items)]},
               {"type": "RCTView", "tag": "promo", "ignored": "descendants", "children": [{"type": "RCTText", "tag": "promo-text", "text": "Promo"}]}]}}
            """
    }

    static func tap(_ tag: String) -> String { #"{"kind": "tap", "target": "\#(tag)", "action": "onPress"}"# }

    /// The same screen built natively, and the Buy element of row `row`.
    static func nativeTree(row: Int) -> (Screen, Element) {
        let screen = Screen("ProductListScreen", title: "Shoes", screenTracking: ScreenTracking(screenName: "product_list", url: "app://products"),
                            rootView: Element("RCTRootView", frame: Rect(x: 0, y: 0, width: 390, height: 844)))
        let scroll = screen.rootView.addChild(Element("RCTScrollView", role: .scrollView, frame: Rect(x: 0, y: 88, width: 390, height: 700)))
        var target: Element!
        for index in 0..<3 {
            let cell = scroll.addChild(Element(
                "RCTView", role: .tableCell, frame: Rect(x: 0, y: Double(index * 60), width: 390, height: 60),
                listPosition: ListPosition(section: 0, index: index)))
            cell.addChild(Element("RCTText", role: .label, frame: Rect(x: 16, y: 8, width: 200, height: 20), text: "Shoe \(index)"))
            let buy = cell.addChild(Element("RCTTouchableOpacity", role: .button, frame: Rect(x: 300, y: 8, width: 60, height: 44), text: "Buy"))
            buy.customElementID = "buy-\(index)"
            buy.customProperties = ["sku": .string("A-\(index)")]
            if index == row { target = buy }
        }
        let promo = screen.rootView.addChild(Element("RCTView"))
        promo.ignoresDescendants = true
        promo.addChild(Element("RCTText", text: "Promo"))
        return (screen, target)
    }

    @Test("a tap on a list row's button gets the native path's properties, path and id, with the host's own properties")
    func sameAsNative() throws {
        let memory = try InMemoryTracker()
        let adapter = JSONHostAdapter(context: memory.tracker.makeInteractionContext())
        try adapter.handle(treeJSON: Array(Self.tree().utf8), interactionJSON: Array(Self.tap("buy-2").utf8))
        let context = memory.tracker.makeInteractionContext()
        let (screen, buy) = Self.nativeTree(row: 2)
        context.emit(Interaction(
            point: JSONHostAdapter.tapPoint, element: context.snapshot(of: buy, action: "onPress"), screen: context.snapshot(of: screen),
            details: InteractionDetails(actionName: "onPress", listPosition: buy.listPosition), capturedBy: "native"))
        memory.tracker.waitUntilQueued()
        let clicks = memory.events.filter { $0.name == .appClick }
        try #require(clicks.count == 2)
        #expect(clicks[0].properties == clicks[1].properties)
        let click = clicks[0].properties
        #expect(click["$element_content"] == "Buy")
        #expect(click["$screen_name"] == "product_list")
        #expect(click["sku"] == "A-2")
        #expect(click["$element_id"] != nil && click["$element_path"] != nil)
        try adapter.handle(treeJSON: Array(Self.tree().utf8), interactionJSON: Array(#"{"kind": "tap", "target": "row-2"}"#.utf8))
        memory.tracker.waitUntilQueued()
        #expect(memory.events.last?.properties["$element_position"] == "0:2", "a row's list position")
        memory.close()
    }

    @Test("ids survive a re-sent tree and a changed label, and differ between rows; an ignored subtree records nothing")
    func stableIDs() throws {
        let memory = try InMemoryTracker()
        let adapter = JSONHostAdapter(context: memory.tracker.makeInteractionContext())
        try adapter.handle(treeJSON: Array(Self.tree().utf8), interactionJSON: Array(Self.tap("buy-1").utf8))
        try adapter.handle(treeJSON: Array(Self.tree(buyText: "Buy now").utf8), interactionJSON: Array(Self.tap("buy-1").utf8))
        try adapter.handle(treeJSON: Array(Self.tree().utf8), interactionJSON: Array(Self.tap("buy-0").utf8))
        try adapter.handle(treeJSON: Array(Self.tree().utf8), interactionJSON: Array(Self.tap("promo-text").utf8))
        memory.tracker.waitUntilQueued()
        let ids = memory.events.filter { $0.name == .appClick }.map { $0.properties["$element_id"] }
        try #require(ids.count == 3, "the promo text is ignored with its subtree")
        #expect(ids[0] == ids[1], "the same element after a re-render")
        #expect(ids[0] != ids[2], "another row's element")
        memory.close()
    }

    @Test("a screen view through the adapter is $AppViewScreen with the host's screen name and URL")
    func screenView() throws {
        let memory = try InMemoryTracker()
        let adapter = JSONHostAdapter(context: memory.tracker.makeInteractionContext())
        try adapter.handle(treeJSON: Array(Self.tree().utf8), interactionJSON: Array(#"{"kind": "screen_view"}"#.utf8))
        memory.tracker.waitUntilQueued()
        let view = try #require(memory.events.first { $0.name == .appViewScreen })
        #expect(view.properties["$screen_name"] == "product_list")
        #expect(view.properties["$url"] == "app://products")
        memory.close()
    }

    @Test("documents the adapter cannot use are refused with typed errors", arguments: [
        (#"{"screen": {"type": "S"}, "root": {"type": "V"}}"#, #"{"kind": "tap", "target": 9}"#, HostTreeError.unknownTag("9")),
        (#"{"screen": {"type": "S"}}"#, #"{"kind": "screen_view"}"#, .missing(path: "root")),
        (#"{"screen": {"type": "S"}, "root": {"type": "V", "colour": 1}}"#, #"{"kind": "screen_view"}"#, .unknownKey(path: "root.colour")),
        (#"{"screen": {"type": "S"}, "root": {"type": "V", "frame": [1, 2]}}"#, #"{"kind": "screen_view"}"#,
         .wrongType(path: "root.frame", expected: "[x, y, width, height]", found: "array")),
        (#"{"screen": {"type": "S"}, "root": {"type": "V", "children": [{"type": "A", "tag": 1}, {"type": "B", "tag": "1"}]}}"#,
         #"{"kind": "screen_view"}"#, .duplicateTag("1")),
        (#"{"screen": {"type": "S"}, "root": {"type": "V"}}"#, #"{"kind": "swipe"}"#,
         .invalid(path: "interaction.kind", reason: "'swipe' is not one of screen_view, tap, touch, layout, background, foreground")),
    ])
    func refused(tree: String, interaction: String, expected: HostTreeError) throws {
        let memory = try InMemoryTracker()
        let adapter = JSONHostAdapter(context: memory.tracker.makeInteractionContext())
        #expect(throws: expected) { try adapter.handle(treeJSON: Array(tree.utf8), interactionJSON: Array(interaction.utf8)) }
        memory.close()
    }

    @Test("a tree deeper than the limit is refused, not recursed into")
    func tooDeep() throws {
        var node = #"{"type": "Leaf"}"#
        for _ in 0..<(HostTree.maximumDepth + 1) { node = #"{"type": "V", "children": [\#(node)]}"# }
        let tree = #"{"screen": {"type": "S"}, "root": \#(node)}"#
        #expect(throws: HostTreeError.self) { try HostTree(json: Array(tree.utf8)) }
    }

    @Test("the documentation's example: a React Native tap")
    func documentationExample() throws {
        let memory = try InMemoryTracker()
        let adapter = JSONHostAdapter(context: memory.tracker.makeInteractionContext())
        let tree = """
            {"screen": {"type": "CartScreen", "title": "Cart", "screen_name": "cart"},
             "root": {"type": "RCTRootView", "children": [
               {"type": "RCTText", "role": "label", "text": "2 items"},
               {"type": "RCTTouchableOpacity", "role": "button", "tag": 41, "text": "Check out",
                "properties": {"total": 118.5}}]}}
            """
        try adapter.handle(treeJSON: Array(tree.utf8), interactionJSON: Array(#"{"kind": "screen_view"}"#.utf8))
        try adapter.handle(treeJSON: Array(tree.utf8), interactionJSON: Array(#"{"kind": "tap", "target": 41}"#.utf8))
        memory.tracker.waitUntilQueued()
        let click = memory.events.last!
        #expect(click.name == .appClick)
        #expect(click.properties["$element_content"] == "Check out")
        #expect(click.properties["$screen_name"] == "cart")
        #expect(click.properties["total"] == 118.5)
        memory.close()
    }
}
