import AutoTrackEvents
import AutoTrackProperties
import Testing

/// The example of the "Caching paths and ids in a host" article, compiled and run.
final class HostView: ElementNode {
    /// Every view of this host shares one version.
    static let hierarchy = HierarchyVersion()

    let typeName: String
    let role: ElementRole
    private(set) weak var parent: HostView?
    private(set) var children: [HostView] = []
    var accessibilityIdentifier: String? { didSet { Self.hierarchy.bump() } }
    var ownText: String?

    /// This view's cached path, id and screen.
    let identityCache: ElementIdentityCache? = ElementIdentityCache(version: HostView.hierarchy)

    init(_ typeName: String, role: ElementRole = .view) {
        self.typeName = typeName
        self.role = role
    }

    func add(_ child: HostView) {
        child.removeFromParent()
        children.append(child)
        child.parent = self
        Self.hierarchy.bump()
    }

    func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        self.parent = nil
        Self.hierarchy.bump()
    }

    deinit {
        // The children's weak links to this view clear without a `didSet`.
        if !children.isEmpty { Self.hierarchy.bump() }
    }

    var parentElement: (any ElementNode)? { parent }
    var childElements: [any ElementNode] { children }
}

@Suite("The caching article's example")
struct CachingArticleExampleTests {
    @Test("a host view caches its path and follows a removed sibling at once")
    func example() {
        let root = HostView("UIView")
        let button = HostView("UIButton", role: .button)
        button.ownText = "Buy"
        root.add(HostView("UIButton", role: .button))
        root.add(button)

        let collector = ElementProperties()
        let first = collector.collect(for: button)     // walks and hashes, then caches
        let second = collector.collect(for: button)    // from the cache
        root.children[0].removeFromParent()            // bumps: the next click walks again
        let third = collector.collect(for: button)     // `UIView[0]/UIButton[0]`

        #expect(first["$element_path"] == "UIView[0]/UIButton[1]")
        #expect(second == first)
        #expect(third["$element_path"] == "UIView[0]/UIButton[0]")
        #expect(third["$element_content"] == "Buy")
        button.accessibilityIdentifier = "buy"
        #expect(collector.collect(for: button)["$element_id"] == .string(ElementIdentity(of: button, style: .slash).elementID))
        #expect(collector.collect(for: button)["$element_id"] != third["$element_id"])
    }
}
