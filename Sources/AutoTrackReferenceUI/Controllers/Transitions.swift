/// AutoTrackRuntime: `RuntimeError` appears in this file's public API.
public import AutoTrackRuntime
import AutoTrackProperties

/// Drives view-controller appearance callbacks in UIKit's order. Containers forward
/// appearance to the children they show (the top of a navigation stack, the selected
/// tab, the current page, contained children), parent first.
///
/// UIKit's orders, reproduced:
/// - push: old `viewWillDisappear:`, new `viewWillAppear:`, old `viewDidDisappear:`,
///   new `viewDidAppear:`; pop the mirror image;
/// - a swipe-back cancelled half-way: top `viewWillDisappear:`, below
///   `viewWillAppear:`, then below `viewWillDisappear:` and `viewDidDisappear:`, top
///   `viewWillAppear:` and `viewDidAppear:` again;
/// - full-screen present: presenting will-disappear, presented will-appear, presenting
///   did-disappear, presented did-appear; an alert leaves the presenting controller
///   on screen; dismiss the mirror image;
/// - tab and page switches: old will-disappear, new will-appear, old did-disappear, new
///   did-appear;
/// - going to the background and returning send no appearance callbacks at all, only
///   application notifications.
public struct Transitions {
    unowned let host: ReferenceHost

    // MARK: Appearance forwarding

    func willAppear(_ controller: ViewControllerObject, animated: Bool) throws(RuntimeError) {
        _ = controller.view
        try placeShownChild(of: controller)
        try host.runtime.call(controller, "viewWillAppear:", animated)
        for child in controller.appearanceChildren { try willAppear(child, animated: animated) }
    }

    func didAppear(_ controller: ViewControllerObject, animated: Bool) throws(RuntimeError) {
        try host.runtime.call(controller, "viewDidAppear:", animated)
        controller.isVisible = true
        for child in controller.appearanceChildren { try didAppear(child, animated: animated) }
    }

    func willDisappear(_ controller: ViewControllerObject, animated: Bool) throws(RuntimeError) {
        try host.runtime.call(controller, "viewWillDisappear:", animated)
        for child in controller.appearanceChildren { try willDisappear(child, animated: animated) }
    }

    func didDisappear(_ controller: ViewControllerObject, animated: Bool) throws(RuntimeError) {
        try host.runtime.call(controller, "viewDidDisappear:", animated)
        controller.isVisible = false
        for child in controller.appearanceChildren { try didDisappear(child, animated: animated) }
    }

    /// Puts the view of the child a container shows where it belongs, the first time.
    func placeShownChild(of container: ViewControllerObject) throws(RuntimeError) {
        switch container.kind {
        case .navigation:
            if let top = container.children.last, top.view.superview == nil { try showTop(top, in: container) }
        case .tabs:
            try layOutTabBar(of: container)
            if let shown = container.appearanceChildren.first, shown.view.superview == nil { container.view.addSubview(shown.view) }
        case .pages:
            if let shown = container.appearanceChildren.first, let scroll = container.pageScrollView, shown.view.superview == nil {
                shown.view.frame = Rect(
                    x: Double(container.selectedIndex) * scroll.frame.width, y: 0, width: scroll.frame.width, height: scroll.frame.height)
                scroll.addSubview(shown.view)
                scroll.boundsOrigin = Point(x: shown.view.frame.origin.x, y: 0)
            }
        case .plain, .alert:
            break
        }
    }

    // MARK: Window

    /// Puts `controller` in the key window and makes it appear.
    public func setRoot(_ controller: ViewControllerObject) throws(RuntimeError) {
        let window: ViewObject = host.window
        if let previous = host.rootViewController {
            try willDisappear(previous, animated: false)
            previous.view.removeFromSuperview()
            try didDisappear(previous, animated: false)
        }
        host.rootViewController = controller
        try willAppear(controller, animated: false)
        window.addSubview(controller.view)
        try didAppear(controller, animated: false)
    }

    // MARK: Navigation

    func wrapperView(of navigation: ViewControllerObject) -> ViewObject? {
        navigation.view.descendants { $0.realClass.name == "UIViewControllerWrapperView" }.first
    }

    /// Shows `controller`'s view in the navigation's wrapper and its bar items, laid
    /// out as a navigation bar does: left items from the leading edge, right items from
    /// the trailing edge, 8 points apart, each at least 44 points wide (the touch
    /// target) and as tall as the bar.
    func showTop(_ controller: ViewControllerObject, in navigation: ViewControllerObject) throws(RuntimeError) {
        wrapperView(of: navigation)?.addSubview(controller.view)
        guard let bar = navigation.navigationBar else { return }
        for item in bar.subviews { item.removeFromSuperview() }
        let margin = 8.0
        func width(of item: BarButtonItem) -> Double { max(44, Double(item.title.count) * 9 + 16) }
        var leading = margin
        var frames: [Rect] = []
        for item in controller.leftBarButtonItems {
            frames.append(Rect(x: leading, y: 0, width: width(of: item), height: bar.frame.height))
            leading += width(of: item) + margin
        }
        var trailing = bar.frame.width - margin
        var rightFrames: [Rect] = []
        for item in controller.rightBarButtonItems.reversed() {
            trailing -= width(of: item)
            rightFrames.insert(Rect(x: trailing, y: 0, width: width(of: item), height: bar.frame.height), at: 0)
            trailing -= margin
        }
        frames += rightFrames
        for (item, frame) in zip(controller.leftBarButtonItems + controller.rightBarButtonItems, frames) {
            let button = try host.makeControl("UIButton", frame: frame)
            button.title = item.title
            try button.addTarget(item.target, action: item.action, for: .touchUpInside)
            bar.addSubview(button)
        }
    }

    func push(_ pushed: ViewControllerObject, on navigation: ViewControllerObject, animated: Bool) throws(RuntimeError) {
        let previous = navigation.children.last
        _ = pushed.view // UIKit loads the pushed view before any appearance callback
        try host.runtime.call(navigation, "addChildViewController:", pushed)
        guard navigation.isVisible, let previous else {
            try showTop(pushed, in: navigation)
            return
        }
        try willDisappear(previous, animated: animated)
        try willAppear(pushed, animated: animated)
        previous.view.removeFromSuperview()
        try showTop(pushed, in: navigation)
        try didDisappear(previous, animated: animated)
        try didAppear(pushed, animated: animated)
    }

    func pop(from navigation: ViewControllerObject, animated: Bool) throws(RuntimeError) -> ViewControllerObject? {
        guard navigation.children.count > 1, let top = navigation.children.last else { return nil }
        let below = navigation.children[navigation.children.count - 2]
        if navigation.isVisible {
            try willDisappear(top, animated: animated)
            try willAppear(below, animated: animated)
        }
        top.view.removeFromSuperview()
        try host.runtime.call(top, "removeFromParentViewController")
        try showTop(below, in: navigation)
        if navigation.isVisible {
            try didDisappear(top, animated: animated)
            try didAppear(below, animated: animated)
        }
        return top
    }

    /// An interactive swipe back that the user abandons half-way.
    public func cancelledSwipeBack(in navigation: ViewControllerObject) throws(RuntimeError) {
        guard navigation.children.count > 1, let top = navigation.children.last else { return }
        let below = navigation.children[navigation.children.count - 2]
        try willDisappear(top, animated: true)
        try willAppear(below, animated: true)
        try willDisappear(below, animated: true)
        try didDisappear(below, animated: true)
        try willAppear(top, animated: true)
        try didAppear(top, animated: true)
    }

    // MARK: Presentation

    func present(_ presented: ViewControllerObject, from presenting: ViewControllerObject, animated: Bool) throws(RuntimeError) {
        _ = presented.view
        presenting.presentedController = presented
        presented.presentingController = presenting
        // UIKit calls the presenter's appearance methods for full-screen presentations
        // only: not for sheets (iOS 13 and later), over-full-screen, popovers or alerts.
        let coversPresenter = presented.modalPresentationStyle.presenterDisappears
        if coversPresenter { try willDisappear(presenting, animated: animated) }
        try willAppear(presented, animated: animated)
        if presented.kind == .alert { buildAlertView(presented) }
        host.window.addSubview(presented.view)
        if coversPresenter { try didDisappear(presenting, animated: animated) }
        try didAppear(presented, animated: animated)
    }

    func dismiss(_ controller: ViewControllerObject, animated: Bool) throws(RuntimeError) {
        // Dismissing a presenter dismisses what it presented.
        let presented = controller.presentedController ?? controller
        guard let presenting = presented.presentingController else { return }
        let coversPresenter = presented.modalPresentationStyle.presenterDisappears
        // As UIKit: the presented controller is still presented, and being dismissed,
        // while its disappearance callbacks run.
        presented.dismissing = true
        defer {
            presented.dismissing = false
            presented.presentingController = nil
        }
        try willDisappear(presented, animated: animated)
        if coversPresenter { try willAppear(presenting, animated: animated) }
        presented.view.removeFromSuperview()
        presenting.presentedController = nil
        try didDisappear(presented, animated: animated)
        presented.presentingController = nil
        presented.dismissing = false
        if coversPresenter { try didAppear(presenting, animated: animated) }
    }

    /// The alert's view tree, in the shape UIKit builds (window-level alert view,
    /// a collection of cells, one action view per action).
    func buildAlertView(_ alert: ViewControllerObject) {
        let root = alert.view
        for subview in root.subviews { subview.removeFromSuperview() }
        var container = root
        for _ in 0..<3 {
            let next = host.frameworkObject("UIView", as: ViewObject.self)
            container.addSubview(next)
            container = next
        }
        let collection = host.frameworkObject("UICollectionView", as: ListViewObject.self)
        container.addSubview(collection)
        for (index, action) in alert.alertActions.enumerated() {
            let cell = host.frameworkObject("_UIAlertControllerCollectionViewCell", as: CellObject.self)
            collection.placeCell(cell, at: IndexPath(item: index, section: 0))
            let actionView = host.make(named: "_UIAlertControllerActionView", as: AlertActionViewObject.self)
            actionView?.action = action
            if let actionView { cell.contentView.addSubview(actionView) }
        }
    }

    // MARK: Tabs and pages

    /// Gives a tab bar controller its bar, at the bottom of the screen, with one
    /// `UITabBarButton` per child (titled with the child's title, sharing the width),
    /// each sending `_tabBarItemClicked:` to the controller on touch-up-inside.
    func layOutTabBar(of tabs: ViewControllerObject) throws(RuntimeError) {
        let bounds = host.screenBounds
        let bar: ViewObject
        if let existing = tabs.tabBar {
            bar = existing
        } else {
            bar = try host.makeView("UITabBar", frame: Rect(x: 0, y: bounds.height - 83, width: bounds.width, height: 83))
            tabs.tabBar = bar
            tabs.view.addSubview(bar)
        }
        guard bar.subviews.count != tabs.children.count else { return }
        for button in bar.subviews { button.removeFromSuperview() }
        let width = bounds.width / Double(max(1, tabs.children.count))
        for (index, child) in tabs.children.enumerated() {
            let button = try host.makeControl(
                "UITabBarButton", title: child.title ?? "Tab \(index)", frame: Rect(x: width * Double(index), y: 0, width: width, height: 49))
            button.tabIndex = index
            try button.addTarget(tabs, action: "_tabBarItemClicked:", for: .touchUpInside)
            bar.addSubview(button)
        }
    }

    func select(_ index: Int, in container: ViewControllerObject) throws(RuntimeError) {
        if container.kind == .tabs { try layOutTabBar(of: container) }
        guard container.children.indices.contains(index), index != container.selectedIndex || !container.children[index].isViewLoaded
        else { return }
        let old = container.children.indices.contains(container.selectedIndex) ? container.children[container.selectedIndex] : nil
        let new = container.children[index]
        _ = new.view
        let visible = container.isVisible
        if visible, let old { try willDisappear(old, animated: true) }
        if visible { try willAppear(new, animated: true) }
        container.selectedIndex = index
        if container.kind == .pages, let scroll = container.pageScrollView {
            if new.view.superview !== scroll {
                new.view.frame = Rect(x: Double(index) * scroll.frame.width, y: 0, width: scroll.frame.width, height: scroll.frame.height)
                scroll.addSubview(new.view)
            }
            // Scrolled to the page: the others are beside it, out of view.
            scroll.boundsOrigin = Point(x: Double(index) * scroll.frame.width, y: 0)
        } else {
            old?.view.removeFromSuperview()
            container.view.addSubview(new.view)
        }
        if visible, let old { try didDisappear(old, animated: true) }
        if visible { try didAppear(new, animated: true) }
    }
}
