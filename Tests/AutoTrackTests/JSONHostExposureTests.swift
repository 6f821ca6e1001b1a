import AutoTrack
import AutoTrackEvents
import AutoTrackJSONHost
import AutoTrackSerialization
import AutoTrackTesting
import Foundation
import Testing

/// Exposure for a JSON host: the nodes a tree asks to watch are recorded by the rules of
/// the native monitor, one appearance lasting while the host keeps sending the node, and
/// ending when it leaves the tree, the window or the foreground.
@Suite("Exposure through the JSON host adapter")
struct JSONHostExposureTests {
    /// A feed: a banner at the top, then `rows` rows of 200 points in a scroll view 600
    /// high, scrolled by `offset`; every row asks for exposure.
    static func feed(offset: Double = 0, rows: Int = 6, banner: String? = #"{"properties": {"campaign": "spring"}}"#,
                     bannerType: String = "RCTImage", bannerHidden: Bool = false) -> String {
        let items = (0..<rows).map { row in
            """
            {"type": "RCTView", "role": "table_cell", "tag": "row-\(row)", "list_position": {"index": \(row)},
             "frame": [0, \(row * 200), 390, 200], "exposure": {"min_visible_ratio": 0.5},
             "children": [{"type": "RCTText", "role": "label", "text": "Item \(row)"}]}
            """
        }.joined(separator: ",")
        let bannerNode = banner.map { exposure in
            #"{"type": "\#(bannerType)", "role": "image", "tag": "banner", "frame": [0, 0, 390, 100], "hidden": \#(bannerHidden), "exposure": \#(exposure)},"#
        } ?? ""
        return """
            {"window": {"type": "UIWindow", "frame": [0, 0, 390, 844]},
             "screen": {"type": "FeedScreen", "screen_name": "feed"},
             "root": {"type": "RCTRootView", "frame": [0, 0, 390, 844], "children": [\(bannerNode)
               {"type": "RCTScrollView", "role": "scroll_view", "frame": [0, 100, 390, 600], "content_offset": [0, \(offset)],
                "children": [\(items)]}]}}
            """
    }

    static let layout = #"{"kind": "layout"}"#

    /// A list node's position, `section:index`.
    static func position(_ event: Event) -> String? {
        guard case .string(let position)? = event.properties["$element_position"] else { return nil }
        return position
    }

    struct Fixture {
        let memory: InMemoryTracker
        let adapter: JSONHostAdapter

        init() throws {
            memory = try InMemoryTracker()
            adapter = JSONHostAdapter(tracker: memory.tracker)
        }

        @discardableResult
        func send(_ tree: String, _ interaction: String = JSONHostExposureTests.layout) throws -> Timestamp? {
            try adapter.handle(treeJSON: Array(tree.utf8), interactionJSON: Array(interaction.utf8))
        }

        /// The exposures recorded so far: the watched node's tag, from its custom id
        /// or position.
        var exposures: [Event] {
            memory.tracker.waitUntilQueued()
            return memory.events.filter { $0.name == .appElementExposure || $0.name.rawValue == "BannerSeen" }
        }
    }

    @Test("each watched node is recorded once while it stays on screen, again after it left and came back")
    func oncePerAppearance() throws {
        let fixture = try Fixture()
        defer { fixture.memory.close() }
        try fixture.send(Self.feed(), #"{"kind": "screen_view"}"#)
        // The banner, and rows 0–2 (row 2 is 400–600 in a viewport of 600: whole).
        let first = fixture.exposures
        #expect(first.count == 4)
        let banner = try #require(first.first { $0.properties["$element_type"] == "RCTImage" })
        #expect(banner.properties["campaign"] == "spring")
        #expect(banner.properties["$screen_name"] == "feed")
        #expect(first.compactMap(Self.position).sorted() == ["0:0", "0:1", "0:2"])
        // Sent again, unchanged or with new text elsewhere: the same appearances.
        try fixture.send(Self.feed())
        try fixture.send(Self.feed(), #"{"kind": "screen_view"}"#)
        #expect(fixture.exposures.count == 4)
        // The banner leaves the tree and comes back: a second appearance.
        try fixture.send(Self.feed(banner: nil))
        try fixture.send(Self.feed())
        #expect(fixture.exposures.count == 5)
        // Hidden, then shown: another.
        try fixture.send(Self.feed(bannerHidden: true))
        try fixture.send(Self.feed())
        #expect(fixture.exposures.count == 6)
    }

    @Test("scrolling brings rows into the viewport; a row counts when half of it is visible, and again after it scrolled away")
    func scrolling() throws {
        let fixture = try Fixture()
        defer { fixture.memory.close() }
        try fixture.send(Self.feed())
        let before = fixture.exposures.count
        // Offset 150: row 3 (600–800) shows 600–750 of the viewport's 150–750: 150 of 200.
        try fixture.send(Self.feed(offset: 150))
        #expect(fixture.exposures.count == before + 1)
        #expect(fixture.exposures.last?.properties["$element_position"] == "0:3")
        // Offset 300: row 0 (0–200) is out; row 4 (800–1000) shows 100 of 200 — half.
        try fixture.send(Self.feed(offset: 300))
        #expect(fixture.exposures.last?.properties["$element_position"] == "0:4")
        let count = fixture.exposures.count
        try fixture.send(Self.feed(offset: 0))
        let back = fixture.exposures.dropFirst(count).compactMap(Self.position)
        #expect(back == ["0:0"], "row 0 left the viewport and came back; rows 1 and 2 never left")
    }

    @Test("the id and path of a watched node are its click's")
    func sameIdentityAsClicks() throws {
        let fixture = try Fixture()
        defer { fixture.memory.close() }
        try fixture.send(Self.feed(), #"{"kind": "tap", "target": "row-1"}"#)
        let exposure = try #require(fixture.exposures.first { $0.properties["$element_position"] == "0:1" })
        let click = try #require(fixture.memory.events.first { $0.name == .appClick })
        #expect(exposure.properties["$element_id"] == click.properties["$element_id"])
        #expect(exposure.properties["$element_path"] == click.properties["$element_path"])
    }

    @Test("a minimum duration: the adapter says when to send the tree again, and the exposure is due then")
    func minimumDuration() throws {
        let fixture = try Fixture()
        defer { fixture.memory.close() }
        let tree = Self.feed(rows: 0, banner: #"{"min_duration_ms": 1000, "event": "BannerSeen"}"#)
        let due = try #require(try fixture.send(tree))
        #expect(due.millisecondsSince1970 - fixture.memory.clock.now().millisecondsSince1970 == 1000)
        #expect(fixture.exposures.isEmpty)
        fixture.memory.clock.advance(by: 999)
        #expect(try fixture.send(tree) != nil)
        #expect(fixture.exposures.isEmpty)
        fixture.memory.clock.advance(by: 1)
        #expect(try fixture.send(tree) == nil)
        #expect(fixture.exposures.map(\.name.rawValue) == ["BannerSeen"])
    }

    @Test("the background ends every appearance; a node whose type changed under its tag is a new element")
    func backgroundAndReplacement() throws {
        let fixture = try Fixture()
        defer { fixture.memory.close() }
        let tree = Self.feed(rows: 0)
        try fixture.send(tree)
        try fixture.send(tree, #"{"kind": "background"}"#)
        try fixture.send(tree)
        #expect(fixture.exposures.count == 1, "nothing is recorded in the background")
        try fixture.send(tree, #"{"kind": "foreground"}"#)
        #expect(fixture.exposures.count == 2)
        try fixture.send(Self.feed(rows: 0, bannerType: "RCTVideo"))
        #expect(fixture.exposures.count == 3)
        #expect(fixture.exposures.last?.properties["$element_type"] == "RCTVideo")
    }

    @Test("trees asking for exposure that cannot have it are refused with typed errors", arguments: [
        (#"{"screen": {"type": "S"}, "root": {"type": "V", "exposure": true}}"#,
         HostTreeError.invalid(path: "root.exposure", reason: "a watched node needs a 'tag', which names it from one tree to the next")),
        (#"{"screen": {"type": "S"}, "root": {"type": "V", "tag": "b", "exposure": true}}"#,
         .invalid(path: "window", reason: "the node tagged 'b' asks for exposure, which is measured in the window: name it")),
        (#"{"window": {"type": "W", "frame": [0, 0, 10, 10]}, "screen": {"type": "S"}, "root": {"type": "V", "tag": "b", "exposure": {"min_visible_ratio": 2}}}"#,
         .invalid(path: "root.exposure", reason: "exposure: the visible ratio must be between 0 and 1, found 2.0")),
        (#"{"window": {"type": "W", "frame": [0, 0, 10, 10]}, "screen": {"type": "S"}, "root": {"type": "V", "tag": "b", "exposure": {"after": 1}}}"#,
         .unknownKey(path: "root.exposure.after")),
        (#"{"window": {"type": "W"}, "screen": {"type": "S"}, "root": {"type": "V"}}"#, .missing(path: "window.frame")),
    ])
    func refused(tree: String, expected: HostTreeError) throws {
        let fixture = try Fixture()
        defer { fixture.memory.close() }
        #expect(throws: expected) { try fixture.send(tree) }
        #expect(fixture.exposures.isEmpty)
    }

    @Test("an adapter made from a context alone refuses a tree asking for exposure instead of dropping it")
    func noMonitor() throws {
        let memory = try InMemoryTracker()
        defer { memory.close() }
        let adapter = JSONHostAdapter(context: memory.tracker.makeInteractionContext())
        #expect(throws: HostTreeError.exposureUnavailable(tag: "banner")) {
            try adapter.handle(treeJSON: Array(Self.feed(rows: 0).utf8), interactionJSON: Array(Self.layout.utf8))
        }
    }

    @Test("an invalid event name is reported after the rest of the document was applied, saying the interaction was recorded")
    func invalidEventName() throws {
        let fixture = try Fixture()
        defer { fixture.memory.close() }
        let refused = #expect(throws: HostTreeError.self) {
            try fixture.send(Self.feed(rows: 1, banner: #"{"event": ""}"#), #"{"kind": "tap", "target": "row-0"}"#)
        }
        guard case .exposureRefused(tag: "banner", _)? = refused else {
            Issue.record("expected the banner's exposure to be refused, got \(String(describing: refused))")
            return
        }
        #expect(refused?.description.hasPrefix("the interaction was recorded (do not send it again)") == true)
        #expect(fixture.exposures.map(Self.position) == ["0:0"])
        #expect(fixture.memory.events.filter { $0.name == .appClick }.count == 1)
    }

    @Test("the documentation's example: a banner's exposure")
    func documentationExample() throws {
        let memory = try InMemoryTracker()
        let adapter = JSONHostAdapter(tracker: memory.tracker)
        let tree = """
            {"window": {"type": "UIWindow", "frame": [0, 0, 390, 844]},
             "screen": {"type": "HomeScreen", "screen_name": "home"},
             "root": {"type": "RCTRootView", "frame": [0, 0, 390, 844], "children": [
               {"type": "RCTImage", "role": "image", "tag": "banner", "frame": [0, 0, 390, 120],
                "exposure": {"min_visible_ratio": 0.5, "min_duration_ms": 500, "properties": {"campaign": "spring"}}}]}}
            """
        let layout = Array(#"{"kind": "layout"}"#.utf8)
        // Visible now: due in half a second if nothing changes; send the tree again then.
        let due = try adapter.handle(treeJSON: Array(tree.utf8), interactionJSON: layout)
        #expect(due == Timestamp(millisecondsSince1970: memory.clock.now().millisecondsSince1970 + 500))
        memory.clock.advance(by: 500)
        try adapter.handle(treeJSON: Array(tree.utf8), interactionJSON: layout)
        memory.tracker.waitUntilQueued()
        let exposure = memory.events.last!
        #expect(exposure.name == .appElementExposure)
        #expect(exposure.properties["campaign"] == "spring")
        #expect(exposure.properties["$screen_name"] == "home")
        memory.close()
    }
}
