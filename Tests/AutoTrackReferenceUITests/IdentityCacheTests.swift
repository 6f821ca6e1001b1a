import AutoTrackEvents
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import Testing

/// The reference host's views cache their paths and ids; every change the host can
/// make to what a path or an id reads gives the new ones at the next click.
@Suite("Reference-host views: cached paths and ids follow every change")
struct ReferenceHostIdentityCacheTests {
    /// The collectors' answer (through the cache) against a fresh walk, for both styles.
    static func expectFresh(_ view: ViewObject, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        for style in ViewPathStyle.allCases {
            let collected = ElementProperties(pathStyle: style).collect(for: view)
            let fresh = ElementIdentity(of: view, style: style)
            #expect(collected["$element_path"] == .string(fresh.path.text), comment, sourceLocation: sourceLocation)
            #expect(collected["$element_id"] == .string(fresh.elementID), comment, sourceLocation: sourceLocation)
        }
    }

    /// `change` gives `view` a new path or id, and the cache follows at once.
    static func expectMoves(_ view: ViewObject, _ name: String, sourceLocation: SourceLocation = #_sourceLocation, _ change: () throws -> Void) rethrows {
        expectFresh(view, "\(name), before", sourceLocation: sourceLocation)
        let before = ElementIdentity.cached(of: view, style: .slash)
        try change()
        expectFresh(view, "\(name), after", sourceLocation: sourceLocation)
        #expect(ElementIdentity.cached(of: view, style: .slash) != before, "\(name): the path or id moved", sourceLocation: sourceLocation)
    }

    @Test("moved, re-parented and reordered views, a removed sibling, an identifier, actions")
    func viewChanges() throws {
        let app = try SampleApp()
        try app.launch()
        let root = app.listScreen.view
        let card = try app.host.makeView("UIView")
        root.addSubview(card)
        let first = try app.host.makeControl("UIButton", title: "Like")
        let button = try app.host.makeControl("UIButton", title: "Buy")
        card.addSubview(first)
        card.addSubview(button)
        Self.expectMoves(button, "its sibling brought to the front, before it") { card.addSubview(first) }
        Self.expectMoves(button, "itself brought to the front") { card.addSubview(button) }
        Self.expectMoves(button, "an earlier same-type sibling removed") { first.removeFromSuperview() }
        let other = try app.host.makeView("UIView")
        root.addSubview(other)
        Self.expectMoves(button, "re-parented") { other.addSubview(button) }
        Self.expectMoves(button, "its parent re-parented") { card.addSubview(other) }
        button.removeFromSuperview()
        Self.expectMoves(button, "a detached view added to a parent") { root.addSubview(button) }
        Self.expectMoves(button, "an accessibility identifier") { button.accessibilityIdentifier = "buy" }
        Self.expectMoves(button, "moved to another screen") { app.settingsScreen.view.addSubview(button) }
        withExtendedLifetime(app) {}
    }

    /// A launched sample app with a button inside a new `containerClass` view on the
    /// list screen.
    static func buttonInContainer(_ containerClass: String, title: String) throws -> (app: SampleApp, container: ViewObject, button: ControlObject) {
        let app = try SampleApp()
        try app.launch()
        let container = try app.host.makeView(containerClass)
        app.listScreen.view.addSubview(container)
        let button = try app.host.makeControl("UIButton", title: title)
        container.addSubview(button)
        return (app, container, button)
    }

    @Test("a navigation-bar control's actions are part of its id")
    func navigationBarActions() throws {
        let (app, _, edit) = try Self.buttonInContainer("UINavigationBar", title: "Edit")
        try Self.expectMoves(edit, "an action added") { try edit.addTarget(nil, action: "edit:", for: .touchUpInside) }
        withExtendedLifetime(app) {}
    }

    @Test("a cell reused for another row gives its new row at once")
    func cellReuse() throws {
        let app = try SampleApp()
        try app.launch()
        var content = try #require(app.table.content)
        content.rowsPerSection = [100]
        app.table.content = content
        app.table.reloadData()
        let cell = try #require(app.table.cell(at: IndexPath(row: 0, section: 0)))
        let button = cell.contentView.subviews[1]
        Self.expectFresh(button, "on screen")
        let before = ElementProperties().collect(for: button)["$element_path"]
        // A reload hands the rows cells from the end of the reuse pool: this cell
        // shows the last row now.
        app.table.reloadData()
        #expect(app.table.indexPath(for: cell) == IndexPath(row: 99, section: 0))
        Self.expectFresh(button, "after the reload")
        #expect(ElementProperties().collect(for: button)["$element_path"] != before)
        withExtendedLifetime(app) {}
    }

    @Test("a class change of an ancestor (object_setClass) renames its path component at once")
    func classChange() throws {
        let (app, card, button) = try Self.buttonInContainer("UIView", title: "Buy")
        let renamed = try app.host.runtime.allocateClassPair(superclass: app.host.lookUpClass("UIView"), name: "MyCardView")
        try app.host.runtime.registerClassPair(renamed)
        Self.expectMoves(button, "the card's class set to MyCardView") { _ = app.host.runtime.setClass(of: card, to: renamed) }
        withExtendedLifetime(app) {}
    }

    @Test("a view's reported class name, and the paths below it, follow a -class override added later")
    func reportedClassOverride() throws {
        let (app, card, button) = try Self.buttonInContainer("UIView", title: "Buy")
        let runtime = app.host.runtime
        let cardClass = try runtime.allocateClassPair(superclass: app.host.lookUpClass("UIView"), name: "CardView")
        try runtime.registerClassPair(cardClass)
        _ = runtime.setClass(of: card, to: cardClass)
        #expect(card.reportedClassName == "CardView")
        let shown = try app.host.lookUpClass("UIScrollView")
        Self.expectMoves(button, "a -class override reporting UIScrollView") {
            runtime.addMethod(to: cardClass, "class", Implementation("-[CardView class]") { _ in .object(shown) }, types: "#@:")
        }
        #expect(card.reportedClassName == "UIScrollView")
        #expect(card.reportedClassHierarchy.first == "UIScrollView")
        withExtendedLifetime(app) {}
    }

    @Test("a hidden view loses its content at once; its path and id stay")
    func hidden() throws {
        let app = try SampleApp()
        try app.launch()
        let cell = try #require(app.table.cell(at: IndexPath(row: 0, section: 0)))
        let before = ElementProperties().collect(for: cell)
        cell.contentView.subviews[0].isHidden = true
        let after = ElementProperties().collect(for: cell)
        #expect(after["$element_content"] != before["$element_content"])
        #expect(after["$element_path"] == before["$element_path"])
        #expect(after["$element_id"] == before["$element_id"])
        withExtendedLifetime(app) {}
    }

    @Test("500 seeded random moves, removals and reorders: cached always equals fresh")
    func randomChanges() throws {
        let app = try SampleApp()
        try app.launch()
        let root = app.listScreen.view
        var views = [root]
        var random = SplitMix64(seed: 99)
        let targets = try (0..<4).map { _ in try app.host.makeControl("UIButton", title: "B") }
        for target in targets { root.addSubview(target) }
        views += targets
        for step in 0..<500 {
            let parent = views.randomElement(using: &random)!
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let view = try app.host.makeView(["UIView", "UIButton", "UILabel"].randomElement(using: &random)!)
                parent.addSubview(view)
                views.append(view)
            case 1:
                let view = views.randomElement(using: &random)!
                if view !== root, !targets.contains(where: { $0 === view }) { view.removeFromSuperview() }
            case 2:
                // Bring a subview to the front (addSubview of a subview reorders).
                if let child = parent.subviews.randomElement(using: &random) { parent.addSubview(child) }
            default:
                let mover = targets.randomElement(using: &random)!
                if !Self.isAncestor(mover, of: parent) { parent.addSubview(mover) }
            }
            for target in targets {
                let fresh = ElementIdentity(of: target, style: .slash)
                let cached = ElementIdentity.cached(of: target, style: .slash)
                if cached != fresh {
                    Issue.record("step \(step): cached \(cached.path.text) / fresh \(fresh.path.text)")
                    return
                }
            }
        }
        withExtendedLifetime(app) {}
    }

    static func isAncestor(_ candidate: ViewObject, of view: ViewObject) -> Bool {
        var current: ViewObject? = view
        while let node = current {
            if node === candidate { return true }
            current = node.superview
        }
        return false
    }
}
