import AutoTrackEvents
import AutoTrackProperties
import Testing

/// Cached paths and ids never outlive the change that moves them: after every change,
/// the collectors (which read the cache) give what a fresh walk gives.
@Suite("Cached paths and ids follow every change at once")
struct IdentityCacheTests {
    /// A screen with a list, a navigation bar and a paging container, and the views a
    /// change can target.
    struct Tree {
        let screen: Screen
        let otherScreen: Screen
        let table: Element
        let cell: Element
        let button: Element
        let navigationBar: Element
        let barButton: Element
        let pager: Element
        let page: Element
        let alertAction: Element
        var all: [Element] { [screen.rootView, otherScreen.rootView, table, cell, button, navigationBar, barButton, pager, page, alertAction] }
    }

    static func makeTree() -> Tree {
        let screen = Screen("ProductViewController")
        let otherScreen = Screen("CartViewController")
        let root = screen.rootView
        let navigationBar = root.addChild(Element("UINavigationBar", role: .navigationBar))
        let barButton = navigationBar.addChild(Element("UIButton", role: .button, text: "Edit", actionNames: ["edit:"]))
        let table = root.addChild(Element("UITableView", role: .table))
        table.addChild(Element("MyCell", role: .tableCell, listPosition: ListPosition(section: 0, index: 0)))
        let cell = table.addChild(Element("MyCell", role: .tableCell, listPosition: ListPosition(section: 0, index: 1)))
        let content = cell.addChild(Element("UITableViewCellContentView", role: .cellContentView))
        content.addChild(Element("UIButton", role: .button, text: "Like"))
        let button = content.addChild(Element("UIButton", role: .button, text: "Buy"))
        let pager = root.addChild(Element("UIScrollView", role: .pageContainer, frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        pager.addChild(Element("UIView", frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        let page = pager.addChild(Element("UIView", frame: Rect(x: 100, y: 0, width: 100, height: 100)))
        let alertAction = root.addChild(Element("UIAlertControllerActionView", role: .alertAction, alertContext: AlertContext(
            controllerType: "UIAlertController", title: "Delete?", message: "Gone for good", actionTitle: "OK", actionStyle: "default")))
        return Tree(screen: screen, otherScreen: otherScreen, table: table, cell: cell, button: button, navigationBar: navigationBar,
                    barButton: barButton, pager: pager, page: page, alertAction: alertAction)
    }

    /// What the collectors give for `element`, and what a walk without any cache gives.
    static func compare(_ element: Element, style: ViewPathStyle, _ comment: Comment) {
        let collected = ClickProperties(device: DeviceInfo.current(appVersion: "1"), elements: ElementProperties(pathStyle: style))
            .collect(for: element)
        let fresh = ElementIdentity(of: element, style: style)
        #expect(collected["$element_path"] == .string(fresh.path.text), comment)
        #expect(collected["$element_id"] == .string(fresh.elementID), comment)
        let screenName = ElementPlacementProbe.owningScreenName(element)
        #expect(collected["$screen_name"] == screenName.map { .string($0) }, comment)
    }

    /// One named change to a fresh tree, the element it concerns, and the path styles
    /// in which it moves that element's path or id.
    typealias Change = (name: String, target: @Sendable (Tree) -> Element, apply: @Sendable (Tree) -> Void, moves: Set<ViewPathStyle>)

    static let both = Set(ViewPathStyle.allCases)

    static let changes: [Change] = [
        ("a same-type sibling inserted before the button", { $0.button }, { $0.button.parent!.insertChild(Element("UIButton", role: .button), at: 0) }, both),
        ("the button's earlier sibling removed", { $0.button }, { $0.button.parent!.children[0].removeFromParent() }, both),
        ("the button reordered before its sibling", { $0.button }, { $0.button.parent!.moveChild(from: 1, to: 0) }, both),
        ("the cell moved to another list", { $0.button }, { tree in
            let other = tree.screen.rootView.addChild(Element("UITableView", role: .table))
            other.addChild(tree.cell)
        }, both),
        ("the button re-parented to the root", { $0.button }, { $0.screen.rootView.addChild($0.button) }, both),
        ("the button moved to another screen", { $0.button }, { $0.otherScreen.rootView.addChild($0.button) }, both),
        ("the cell reused for another row", { $0.button }, { $0.cell.listPosition = ListPosition(section: 2, index: 40) }, both),
        ("the button's accessibility identifier set", { $0.button }, { $0.button.accessibilityIdentifier = "buy" }, both),
        ("a bar button's action changed", { $0.barButton }, { $0.barButton.actionNames = ["save:"] }, both),
        ("the bar button taken off the navigation bar", { $0.barButton }, { $0.screen.rootView.addChild($0.barButton) }, both),
        ("an alert's message changed", { $0.alertAction }, { $0.alertAction.alertContext?.message = "Really?" }, both),
        ("a page scrolled into another place", { $0.page }, { $0.page.frame = Rect(x: 200, y: 100, width: 100, height: 100) }, [.hubble]),
        ("the paging container resized", { $0.page }, { $0.pager.frame = Rect(x: 0, y: 0, width: 50, height: 50) }, [.hubble]),
        ("the screen renamed", { $0.button }, { $0.screen.typeName = "NewProductViewController" }, both),
        ("the root view given to another screen", { $0.button }, { $0.otherScreen.rootView.screen = nil; $0.screen.rootView.screen = $0.otherScreen }, both),
        ("a parent override set", { $0.button }, { $0.button.parentOverride = $0.pager }, both),
    ]

    @Test("each change gives the new path, id and screen at the next click", arguments: ViewPathStyle.allCases)
    func namedChanges(style: ViewPathStyle) {
        for change in Self.changes {
            let tree = Self.makeTree()
            let target = change.target(tree)
            Self.compare(target, style: style, "\(change.name), before")
            let before = ElementIdentity.cached(of: target, style: style)
            change.apply(tree)
            Self.compare(target, style: style, "\(change.name), after")
            let after = ElementIdentity.cached(of: target, style: style)
            #expect((after != before) == change.moves.contains(style), "\(change.name): moves the path or id in \(style) style")
            withExtendedLifetime(tree) {}
        }
    }

    @Test("a hidden view loses its content at once and keeps its path and id")
    func hidden() {
        let tree = Self.makeTree()
        let collector = ElementProperties()
        let before = collector.collect(for: tree.cell)
        #expect(before["$element_content"] == "Like-Buy")
        tree.button.isHidden = true
        let after = collector.collect(for: tree.cell)
        #expect(after["$element_content"] == "Like")
        #expect(after["$element_path"] == before["$element_path"])
        #expect(after["$element_id"] == before["$element_id"])
    }

    @Test("a released screen is not reported from the cache")
    func releasedScreen() {
        let root = Element("UIView")
        let button = root.addChild(Element("UIButton", role: .button, text: "Go"))
        var screen: Screen? = Screen("TemporaryViewController", rootView: root)
        #expect(button.owningScreen?.typeName == "TemporaryViewController")
        #expect(ElementProperties().collect(for: button)["$element_path"] == "TemporaryViewController[0]/UIView[0]/UIButton[0]")
        screen = nil
        #expect(button.owningScreen == nil)
        #expect(ElementProperties().collect(for: button)["$element_path"] == "UIView[0]/UIButton[0]")
        withExtendedLifetime(screen) {}
    }

    @Test("2 000 seeded random changes: the cached identity always equals a fresh walk", arguments: ViewPathStyle.allCases)
    func randomChanges(style: ViewPathStyle) {
        let tree = Self.makeTree()
        var random = SplitMix64(seed: style == .slash ? 17 : 18)
        var extra: [Element] = []
        let types = ["UIView", "UIButton", "MyCell", "UILabel"]
        for step in 0..<2000 {
            let nodes = tree.all + extra
            let node = nodes.randomElement(using: &random)!
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                let child = Element(types.randomElement(using: &random)!, role: .view)
                node.insertChild(child, at: Int.random(in: 0...node.children.count, using: &random))
                extra.append(child)
            case 1:
                if !extra.isEmpty { extra.remove(at: Int.random(in: 0..<extra.count, using: &random)).removeFromParent() }
            case 2:
                if node.children.count > 1 {
                    node.moveChild(from: Int.random(in: 0..<node.children.count, using: &random), to: Int.random(in: 0..<node.children.count, using: &random))
                }
            case 3:
                // Re-parent a non-root node under a node that is not below it.
                let mover = nodes.randomElement(using: &random)!
                if mover !== tree.screen.rootView, mover !== tree.otherScreen.rootView, !Self.isAncestor(mover, of: node), mover !== node {
                    node.addChild(mover)
                }
            case 4: tree.cell.listPosition = ListPosition(section: 0, index: Int.random(in: 0..<5, using: &random))
            case 5: node.accessibilityIdentifier = Bool.random(using: &random) ? nil : "id\(step % 3)"
            case 6: node.isHidden.toggle()
            default: tree.page.frame.origin.x = Double(Int.random(in: 0..<3, using: &random) * 100)
            }
            for target in [tree.button, tree.barButton, tree.page, tree.cell] {
                let fresh = ElementIdentity(of: target, style: style)
                let cached = ElementIdentity.cached(of: target, style: style)
                if cached != fresh {
                    Issue.record("step \(step): cached \(cached.path.text) / fresh \(fresh.path.text)")
                    return
                }
            }
        }
    }

    static func isAncestor(_ candidate: Element, of node: Element) -> Bool {
        var current: Element? = node
        var steps = 0
        while let element = current, steps < 300 {
            if element === candidate { return true }
            current = element.parent
            steps += 1
        }
        return false
    }
}

/// The owning screen's name by a walk of its own, for comparing with the cached one.
enum ElementPlacementProbe {
    static func owningScreenName(_ element: Element) -> String? {
        var current: Element? = element
        var steps = 0
        while let node = current, steps < 300 {
            if let screen = node.screen { return screen.typeName }
            current = node.parentOverride ?? node.parent
            steps += 1
        }
        return nil
    }
}
