/// AutoTrackProperties: `ScreenNode`, `ScreenTracking` appear in this file's public API.
public import AutoTrackProperties
/// AutoTrackRuntime: `RuntimeObject`, `Selector` appear in this file's public API.
public import AutoTrackRuntime

/// What kind of controller a view controller is, fixed by its UIKit base class.
public enum ControllerKind: Sendable {
    /// An ordinary screen (`UIViewController`).
    case plain
    /// A navigation stack (`UINavigationController`).
    case navigation
    /// Tabs (`UITabBarController`).
    case tabs
    /// Paged children in a paging scroll view (`UIPageViewController`-like).
    case pages
    /// An alert (`UIAlertController`).
    case alert
}

/// A bar button item: a title and a target-action, shown as a button in the
/// navigation bar.
public struct BarButtonItem {
    /// The title.
    public var title: String
    /// The target (weak).
    public weak var target: RuntimeObject?
    /// The action.
    public var action: Selector

    /// Creates an item.
    public init(title: String, target: RuntimeObject?, action: Selector) {
        self.title = title
        self.target = target
        self.action = action
    }
}

/// The Swift-side storage of a view controller, and its read model as a screen.
public final class ViewControllerObject: ResponderObject, ScreenNode, @unchecked Sendable {
    // Safe by confinement to the UI thread.

    /// The kind.
    public let kind: ControllerKind
    /// The title (an alert's title is part of its actions' ids).
    public var title: String? { didSet { hierarchyVersion.bump() } }
    /// The navigation item's title, shown in the navigation bar.
    public var navigationTitle: String?
    /// The navigation item's right bar button items.
    public var rightBarButtonItems: [BarButtonItem] = []
    /// The navigation item's left bar button items.
    public var leftBarButtonItems: [BarButtonItem] = []
    /// The screen's own tracking information (ARCHITECTURE.md, “Screen tracking protocol”).
    public var screenTracking: ScreenTracking? {
        get { declaredScreenTracking ?? hostedContent.flatMap { DeclarativeViewReflection.screenTracking(of: $0.rootView) } }
        set { declaredScreenTracking = newValue }
    }
    private var declaredScreenTracking: ScreenTracking?
    /// What a hosting controller (`UIHostingController`) shows: its SwiftUI root view.
    /// The screen is named after that view (``typeName``), and a screen-tracking
    /// modifier on it gives the screen's tracking information.
    public var hostedContent: (any HostedContent)? {
        didSet {
            (loadedView as? HostingViewObject)?.content = hostedContent
            (loadedView as? HostingViewObject)?.render()
            hierarchyVersion.bump()
        }
    }
    /// An alert's message (part of its actions' ids).
    public var message: String? { didSet { hierarchyVersion.bump() } }
    /// An alert's actions, in order.
    public internal(set) var alertActions: [AlertActionObject] = []
    /// Child controllers (containment, navigation stack, tabs, pages).
    public internal(set) var children: [ViewControllerObject] = []
    /// The parent controller (weak).
    public internal(set) weak var parent: ViewControllerObject?
    /// The controller this one presented.
    public internal(set) var presentedController: ViewControllerObject?
    /// The controller that presented this one (weak).
    public internal(set) weak var presentingController: ViewControllerObject?
    /// How the controller is shown when presented (`modalPresentationStyle`):
    /// full screen by default, an alert for alert controllers. Set before presenting.
    public var modalPresentationStyle: ScreenPresentation = .fullScreen
    /// Whether the controller is being dismissed: set for the length of its
    /// dismissal's appearance callbacks, as UIKit's `isBeingDismissed`.
    public internal(set) var dismissing = false
    /// Tabs: the selected index. Pages: the current page.
    public internal(set) var selectedIndex = 0
    /// Whether the controller's view is on screen (between did-appear and
    /// will-disappear, as UIKit tracks it).
    public internal(set) var isVisible = false
    /// A navigation controller's bar.
    public internal(set) var navigationBar: ViewObject?
    /// A tab bar controller's bar: one `UITabBarButton` per tab.
    public internal(set) var tabBar: ViewObject?
    /// A page container's scroll view.
    public internal(set) var pageScrollView: ViewObject?
    var loadedView: ViewObject?

    init(host: ReferenceHost, class cls: RuntimeClass, kind: ControllerKind) {
        self.kind = kind
        if kind == .alert { modalPresentationStyle = .alert }
        super.init(host: host, class: cls)
    }

    deinit {
        loadedView?.owningController = nil
        // Alert actions lose their alert without a `didSet`.
        hierarchyVersion.bump()
    }

    /// Whether the view was loaded.
    public var isViewLoaded: Bool { loadedView != nil }

    /// The root view, loading it (`loadView`, then `viewDidLoad`) on first access.
    public var view: ViewObject {
        if let loadedView { return loadedView }
        _ = try? host.runtime.send(self, "loadView")
        if loadedView == nil { installView(host.frameworkObject("UIView", as: ViewObject.self)) }
        _ = try? host.runtime.send(self, "viewDidLoad")
        return loadedView!
    }

    func installView(_ view: ViewObject) {
        loadedView?.owningController = nil
        loadedView = view
        view.owningController = self
        view.frame = host.screenBounds
    }

    /// A controller's view's superview answers, else its parent.
    public override var nextResponder: ResponderObject? {
        loadedView?.superview ?? parent
    }

    /// The navigation stack, bottom first (navigation controllers).
    public var viewControllers: [ViewControllerObject] { children }

    /// The top of a navigation stack.
    public var topViewController: ViewControllerObject? { kind == .navigation ? children.last : nil }

    /// The navigation controller this controller is in.
    public var navigationController: ViewControllerObject? {
        var current = parent
        while let candidate = current {
            if candidate.kind == .navigation { return candidate }
            current = candidate.parent
        }
        return nil
    }

    /// The child controllers whose appearance this one forwards: the top of a
    /// navigation stack, the selected tab, the current page, contained children.
    var appearanceChildren: [ViewControllerObject] {
        switch kind {
        case .navigation: children.last.map { [$0] } ?? []
        case .tabs, .pages: children.indices.contains(selectedIndex) ? [children[selectedIndex]] : []
        case .plain, .alert: children
        }
    }

    // MARK: ScreenNode

    /// The reported class name (hides runtime-generated subclasses); for a hosting
    /// controller, the name of its root view, read by reflection
    /// (`DeclarativeViewReflection`), as the app declares the screen.
    public var typeName: String {
        guard let hostedContent else { return reportedClassName }
        return DeclarativeViewReflection.screenName(of: hostedContent.rootView)
    }
    /// The reported class and its ancestors, after the root view's name for a hosting
    /// controller.
    public var typeHierarchy: [String] {
        hostedContent == nil ? reportedClassHierarchy : [typeName] + reportedClassHierarchy
    }
    /// The parent, else the presenting controller.
    public var parentScreen: (any ScreenNode)? { parent ?? presentingController }
    /// The children.
    public var childScreens: [any ScreenNode] { children }
    /// The presentation style of the presented controller this one is in (itself or
    /// a container above it), or full screen when none was presented.
    public var presentation: ScreenPresentation { presentedAncestor?.modalPresentationStyle ?? .fullScreen }
    /// The presented controller this one is in: itself or a container above it.
    public var presentationRoot: (any ScreenNode)? { presentedAncestor }
    /// Whether the presented controller this one is in is being dismissed.
    public var isBeingDismissed: Bool { presentedAncestor?.dismissing ?? false }
    /// The three above from one walk up the containers.
    public var presentationState: ScreenPresentationState {
        let ancestor = presentedAncestor
        return ScreenPresentationState(
            presentation: ancestor?.modalPresentationStyle ?? .fullScreen, root: ancestor, isBeingDismissed: ancestor?.dismissing ?? false)
    }

    /// Itself or the nearest container above it that was presented.
    var presentedAncestor: ViewControllerObject? {
        var current: ViewControllerObject? = self
        var steps = 0
        while let controller = current, steps < 64 {
            if controller.presentingController != nil { return controller }
            current = controller.parent
            steps += 1
        }
        return nil
    }
}
