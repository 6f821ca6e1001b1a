import AutoTrackProperties
import Testing

/// `ElementVisibility`: the visible part of an element in its window, through every
/// clipping and scrolled ancestor.
@Suite struct VisibilityTests {
    /// A 390×844 window with a list (a clipping scroll view) at y 100, 390×400, holding
    /// a 390×100 cell at content y 0, and a banner outside the list.
    final class Tree {
        let window = Element("UIWindow", role: .window, frame: Rect(x: 0, y: 0, width: 390, height: 844))
        let root = Element("UIView")
        let list = Element("UITableView", role: .table, frame: Rect(x: 0, y: 100, width: 390, height: 400))
        let cell = Element("UITableViewCell", role: .tableCell, frame: Rect(x: 0, y: 0, width: 390, height: 100))
        let banner = Element("UIImageView", role: .image, frame: Rect(x: 0, y: 0, width: 390, height: 100))

        init() {
            window.addChild(root)
            root.addChild(list)
            root.addChild(banner)
            list.addChild(cell)
        }
    }

    @Test func fullyVisible() {
        let tree = Tree()
        #expect(ElementVisibility.visibleRatio(of: tree.cell) == 1)
        #expect(ElementVisibility.visibleRect(of: tree.cell) == Rect(x: 0, y: 100, width: 390, height: 100))
        #expect(ElementVisibility.visibleRatio(of: tree.banner) == 1)
    }

    /// Scrolling the list moves its content; the list clips what leaves it.
    @Test(arguments: [(0.0, 1.0), (25, 0.75), (50, 0.5), (99, 0.01), (100, 0), (400, 0), (-350, 0.5), (-400, 0)])
    func scrolledList(offset: Double, expected: Double) {
        let tree = Tree()
        tree.list.boundsOrigin = Point(x: 0, y: offset)
        #expect(abs(ElementVisibility.visibleRatio(of: tree.cell) - expected) < 1e-9)
    }

    /// The window clips too: an element half below the screen's edge is half visible.
    @Test func clippedByWindow() {
        let tree = Tree()
        tree.banner.frame = Rect(x: 0, y: 794, width: 390, height: 100)
        #expect(ElementVisibility.visibleRatio(of: tree.banner) == 0.5)
        tree.banner.frame = Rect(x: -195, y: 0, width: 390, height: 100)
        #expect(ElementVisibility.visibleRatio(of: tree.banner) == 0.5)
    }

    /// A plain view does not clip unless told to.
    @Test func plainViewsClipOnlyWhenTold() {
        let tree = Tree()
        let box = Element("UIView", frame: Rect(x: 0, y: 600, width: 100, height: 50))
        tree.root.addChild(box)
        let child = Element("UIButton", role: .button, frame: Rect(x: 50, y: 0, width: 100, height: 50))
        box.addChild(child)
        #expect(ElementVisibility.visibleRatio(of: child) == 1)
        box.clipsToBounds = true
        #expect(ElementVisibility.visibleRatio(of: child) == 0.5)
    }

    /// Hidden or transparent — the element or any ancestor — is not visible; alpha is
    /// compared with UIKit's 0.01 threshold.
    @Test func hiddenAndTransparent() {
        let tree = Tree()
        tree.cell.isHidden = true
        #expect(ElementVisibility.visibleRatio(of: tree.cell) == 0)
        tree.cell.isHidden = false
        tree.list.isHidden = true
        #expect(ElementVisibility.visibleRatio(of: tree.cell) == 0)
        tree.list.isHidden = false
        tree.root.alpha = 0.01
        #expect(ElementVisibility.visibleRatio(of: tree.cell) == 0)
        tree.root.alpha = 0.02
        #expect(ElementVisibility.visibleRatio(of: tree.cell) == 1)
    }

    /// Not in a window (removed, or never added) and no area: nothing visible.
    @Test func offScreenAndEmpty() {
        let tree = Tree()
        tree.list.removeFromParent()
        #expect(ElementVisibility.visibleRatio(of: tree.cell) == 0)
        #expect(ElementVisibility.visibleRect(of: tree.cell) == nil)
        tree.root.addChild(tree.list)
        tree.cell.frame = Rect(x: 0, y: 0, width: 390, height: 0)
        #expect(ElementVisibility.visibleRatio(of: tree.cell) == 0)
    }

    /// Re-parented into another container, an element is measured where it is now.
    @Test func reparented() {
        let tree = Tree()
        let lower = Element("UIScrollView", role: .scrollView, frame: Rect(x: 0, y: 700, width: 390, height: 50))
        tree.root.addChild(lower)
        lower.addChild(tree.banner)
        #expect(ElementVisibility.visibleRatio(of: tree.banner) == 0.5)
    }

    /// A parent cycle is cut by the walk's bound: not visible, no hang.
    @Test func parentCycle() {
        let first = Element("UIView", frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let second = Element("UIView", frame: Rect(x: 0, y: 0, width: 10, height: 10))
        first.parentOverride = second
        second.parentOverride = first
        #expect(ElementVisibility.visibleRatio(of: first) == 0)
    }
}
