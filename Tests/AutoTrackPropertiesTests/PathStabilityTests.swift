import AutoTrackEvents
import AutoTrackProperties
import Testing

@Suite("Paths and ids are stable against other-type siblings and bounded on malformed trees")
struct PathStabilityTests {
    static let otherTypes = ["UILabel", "UIImageView", "UISwitch", "MyBadgeView", "UIStackView"]

    /// A screen whose target button sits four levels down, with same-type siblings at
    /// every level.
    static func makeTree() -> (screen: Screen, target: Element, levels: [Element]) {
        let screen = Screen("ProductViewController")
        let scroll = screen.rootView.addChild(Element("UIScrollView", role: .scrollView))
        scroll.addChild(Element("UIView"))
        let card = scroll.addChild(Element("UIView"))
        card.addChild(Element("UIButton", role: .button))
        let target = card.addChild(Element("UIButton", role: .button, text: "Buy"))
        return (screen, target, [screen.rootView, scroll, card])
    }

    @Test("1 000 seeded trials of inserting, removing and reordering other-type siblings never change path or id", arguments: ViewPathStyle.allCases)
    func otherTypeSiblings(style: ViewPathStyle) {
        let (screen, target, levels) = Self.makeTree()
        let original = ElementIdentity(of: target, style: style)
        var random = SplitMix64(seed: style == .slash ? 1 : 2)
        var inserted: [Element] = []
        var changed = 0
        for _ in 0..<1000 {
            let parent = levels.randomElement(using: &random)!
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let sibling = Element(Self.otherTypes.randomElement(using: &random)!)
                parent.insertChild(sibling, at: Int.random(in: 0...parent.children.count, using: &random))
                inserted.append(sibling)
            case 1:
                if !inserted.isEmpty { inserted.remove(at: Int.random(in: 0..<inserted.count, using: &random)).removeFromParent() }
            default:
                // Move one other-type sibling to a random position.
                let movable = parent.children.indices.filter { Self.otherTypes.contains(parent.children[$0].typeName) }
                if let from = movable.randomElement(using: &random) {
                    parent.moveChild(from: from, to: Int.random(in: 0..<parent.children.count, using: &random))
                }
            }
            let now = ElementIdentity(of: target, style: style)
            if now.path != original.path || now.elementID != original.elementID { changed += 1 }
        }
        #expect(changed == 0)
        #expect(inserted.count + levels.count > 3, "the trials did change the tree")
        _ = screen
    }

    @Test("reordering siblings of the same type changes the path and id (documented)", arguments: ViewPathStyle.allCases)
    func sameTypeReorder(style: ViewPathStyle) {
        let (_, target, levels) = Self.makeTree()
        let before = ElementIdentity(of: target, style: style)
        levels[2].moveChild(from: 1, to: 0)
        let after = ElementIdentity(of: target, style: style)
        #expect(before.path.text != after.path.text)
        #expect(before.elementID != after.elementID)
    }

    @Test("a 10 000-deep chain gives a bounded path with a diagnostic, no stack overflow", arguments: ViewPathStyle.allCases)
    func deepChain(style: ViewPathStyle) {
        var chain = [Element("UIWindow", role: .window)]
        for _ in 1..<10_000 { chain.append(chain.last!.addChild(Element("UIView"))) }
        let deepest = chain.last!
        let path = ViewPathBuilder(style: style).path(for: deepest)
        #expect(path.diagnostics == [.depthLimitReached(limit: 256)])
        #expect(path.text.split(separator: style == .slash ? "/" : "_").count == 256)
        #expect(ElementIdentity(of: deepest, style: style).elementID.count == 64)
        #expect(ElementContentExtractor().content(of: chain[0]) == nil)
        #expect(deepest.owningScreen == nil)
        // Tear down from the bottom so releasing the chain does not recurse 10 000 deep.
        for element in chain.reversed() { element.removeFromParent() }
    }

    @Test("a custom host whose parent links form a cycle gives a path and a diagnostic", arguments: ViewPathStyle.allCases)
    func parentCycle(style: ViewPathStyle) {
        let a = Element("HostView")
        let b = a.addChild(Element("HostView"))
        let c = b.addChild(Element("HostLabel", role: .label, text: "x"))
        a.parentOverride = c // a custom host with a broken parent link
        let path = ViewPathBuilder(style: style).path(for: c)
        #expect(path.diagnostics == [.parentCycle(afterLevels: 3)])
        #expect(!path.text.isEmpty)
        #expect(c.owningScreen == nil)
        #expect(ClickProperties(device: Fixtures.device).collect(for: c)["$element_path"] != nil)
    }

    @Test("content extraction is bounded in depth and length")
    func contentLimits() {
        let root = Element("UIView")
        var node = root
        for level in 0..<100 {
            node = node.addChild(Element("UIView"))
            node.addChild(Element("UILabel", role: .label, text: "L\(level)"))
        }
        // Label k sits k + 2 levels below the root; levels 1…10 are read.
        let content = ElementContentExtractor(maximumDepth: 10).content(of: root) ?? ""
        #expect(content == (0...8).map { "L\($0)" }.joined(separator: "-"), "labels deeper than the limit are not read")
        let wide = Element("UIView")
        for index in 0..<2000 { wide.addChild(Element("UILabel", role: .label, text: "label number \(index)")) }
        #expect((ElementContentExtractor(maximumLength: 100).content(of: wide) ?? "").count == 100)
        for element in root.children { element.removeFromParent() }
    }
}
