/// AutoTrackEvents: `Properties` appears in this file's public API.
public import AutoTrackEvents
/// A hand-built element for tests and for hosts without their own widget objects:
/// every read-model property is stored and settable.
///
/// ```swift
/// let cell = Element("MyTableViewCell", role: .tableCell, listPosition: ListPosition(section: 0, index: 5))
/// cell.addChild(Element("UILabel", role: .label, text: "CELL"))
/// table.addChild(cell)
/// ```
///
/// Children are held strongly and parents weakly, as views hold their subviews and
/// superviews: keep the top of a tree (or its ``Screen``) alive while you use it.
/// Not thread-safe: build and read a tree on one thread (or guard it yourself).
///
/// Paths and ids are cached per element (``identityCache``) and every change that can
/// move them — adding, removing or moving a child, a new list position, screen link,
/// accessibility identifier, actions, alert or parent override, a frame under a paging
/// container — bumps ``hierarchyVersion``, so the next click sees the new ones.
public final class Element: ElementNode {
    /// The version every element and screen of this kind bumps when it changes.
    public static let hierarchyVersion = HierarchyVersion()

    /// The type name. Constant, like a class: path walks read it for every sibling.
    public let typeName: String
    /// Superclass names after the type name, for ignore lists.
    public var superTypeNames: [String]
    /// This element's cached path and id, checked against ``hierarchyVersion``.
    public private(set) lazy var identityCache: ElementIdentityCache? = ElementIdentityCache(version: Self.hierarchyVersion)
    /// The role.
    public let role: ElementRole
    /// The parent; set by ``addChild(_:)``, cleared by ``removeFromParent()`` and when
    /// the parent is released. Not retained, as a superview is not.
    public var parent: Element? { parentStorage }
    // Unowned without reference counting (a weak load costs a side-table round trip
    // per level of every path walk). Safe because the link is only set while the
    // parent holds this element in `children`, and the parent clears it in `deinit`.
    private unowned(unsafe) var parentStorage: Element?
    /// The children in on-screen order.
    public private(set) var children: [Element] = []
    /// Whether hidden.
    public var isHidden: Bool
    /// The opacity.
    public var alpha: Double
    /// The frame in the parent's coordinates.
    public var frame: Rect {
        // HubbleData paths place a paging container's children by their centre.
        didSet { if role == .pageContainer || parentStorage?.role == .pageContainer { Self.hierarchyVersion.bump() } }
    }
    /// Where the visible part of the content starts (a scroll offset); `(0, 0)` by
    /// default.
    public var boundsOrigin = Point(x: 0, y: 0)
    /// Whether children are cut off at the edges; by default as the role has it
    /// (windows and scrolling containers clip).
    public var clipsToBounds: Bool
    /// The accessibility identifier.
    public var accessibilityIdentifier: String? { didSet { Self.hierarchyVersion.bump() } }
    /// The element's own text.
    public var ownText: String?
    /// A switch's state.
    public var isOn: Bool?
    /// A slider's or stepper's value.
    public var controlValue: Double?
    /// A button's title colour.
    public var titleColor: Color?
    /// A button's image name.
    public var imageName: String?
    /// A cell's list position.
    public var listPosition: ListPosition? { didSet { Self.hierarchyVersion.bump() } }
    /// Attached action selector names.
    public var actionNames: [String] { didSet { Self.hierarchyVersion.bump() } }
    /// The screen whose root view this is (held weakly; the screen owns its view).
    public weak var screen: Screen? { didSet { Self.hierarchyVersion.bump() } }
    /// An alert action's alert.
    public var alertContext: AlertContext? { didSet { Self.hierarchyVersion.bump() } }
    /// An element id the app assigned, used as `$element_id`.
    public var customElementID: String?
    /// Properties the app attached to this element's clicks.
    public var customProperties: Properties = [:]
    /// Whether automatic capture leaves this element alone.
    public var isIgnoredByAutoTrack = false { didSet { Self.hierarchyVersion.bump() } }
    /// Whether automatic capture leaves every element below this one alone.
    public var ignoresDescendants = false { didSet { Self.hierarchyVersion.bump() } }
    /// Whether the text of this element and of every element below it is masked.
    public var masksText = false { didSet { Self.hierarchyVersion.bump() } }
    /// Whether rapid taps are this element's normal use (never a rage click).
    public var allowsRapidTaps = false
    /// Whether a tap on it may rightly do nothing (never a dead click).
    public var tapsMayDoNothing = false
    /// A parent pointer that bypasses the tree, for modelling a custom host whose
    /// parent links can form a cycle. When set, it is reported as the parent.
    public weak var parentOverride: Element? { didSet { Self.hierarchyVersion.bump() } }

    /// Creates an element.
    public init(
        _ typeName: String,
        role: ElementRole = .view,
        superTypeNames: [String] = [],
        frame: Rect = .zero,
        text: String? = nil,
        isHidden: Bool = false,
        alpha: Double = 1,
        accessibilityIdentifier: String? = nil,
        isOn: Bool? = nil,
        titleColor: Color? = nil,
        imageName: String? = nil,
        listPosition: ListPosition? = nil,
        actionNames: [String] = [],
        alertContext: AlertContext? = nil
    ) {
        self.typeName = typeName
        self.role = role
        self.superTypeNames = superTypeNames
        self.frame = frame
        self.ownText = text
        self.isHidden = isHidden
        self.alpha = alpha
        self.accessibilityIdentifier = accessibilityIdentifier
        self.isOn = isOn
        self.titleColor = titleColor
        self.imageName = imageName
        self.listPosition = listPosition
        self.actionNames = actionNames
        self.alertContext = alertContext
        clipsToBounds = role.clipsToBoundsByDefault
    }

    /// Appends `child` (removing it from a previous parent) and returns it.
    @discardableResult
    public func addChild(_ child: Element) -> Element {
        insertChild(child, at: children.count)
    }

    /// Inserts `child` at `index` among the children and returns it.
    @discardableResult
    public func insertChild(_ child: Element, at index: Int) -> Element {
        child.removeFromParent()
        children.insert(child, at: min(max(index, 0), children.count))
        child.parentStorage = self
        Self.hierarchyVersion.bump()
        return child
    }

    /// Removes this element from its parent.
    public func removeFromParent() {
        guard let parent = parentStorage else { return }
        parent.children.removeAll { $0 === self }
        parentStorage = nil
        Self.hierarchyVersion.bump()
    }

    deinit {
        for child in children { child.parentStorage = nil }
        if !children.isEmpty { Self.hierarchyVersion.bump() }
    }

    /// Moves the child at `from` to position `to`.
    public func moveChild(from: Int, to: Int) {
        let child = children.remove(at: from)
        children.insert(child, at: min(max(to, 0), children.count))
        Self.hierarchyVersion.bump()
    }

    // MARK: ElementNode

    /// The type name, then ``superTypeNames``.
    public var typeHierarchy: [String] { [typeName] + superTypeNames }
    /// The parent (or the override).
    public var parentElement: (any ElementNode)? { parentOverride ?? parentStorage }
    /// The children.
    public var childElements: [any ElementNode] { children }
    /// The screen, if this is its root view.
    public var rootViewScreen: (any ScreenNode)? { screen }

    /// Scans the children directly, without building an array of existentials.
    public func sameTypeIndex(ofChild child: any ElementNode) -> Int? {
        let name = child.typeName
        var index = 0
        for sibling in children where sibling.typeName == name {
            if sibling === child { return index }
            index += 1
        }
        return nil
    }
}

/// A hand-built screen for tests and hosts without their own controllers.
public final class Screen: ScreenNode {
    /// The type name.
    public var typeName: String { didSet { Element.hierarchyVersion.bump() } }
    /// Superclass names after the type name.
    public var superTypeNames: [String]
    /// The screen's title.
    public var title: String?
    /// The navigation title.
    public var navigationTitle: String?
    /// The containing screen.
    public weak var parent: Screen?
    /// Child screens.
    public var children: [Screen] = []
    /// Custom tracking information.
    public var screenTracking: ScreenTracking?
    /// The root view, whose `screen` is set to this screen.
    public let rootView: Element

    /// Creates a screen and its root view (a `UIView` unless given).
    public init(
        _ typeName: String, superTypeNames: [String] = [], title: String? = nil, navigationTitle: String? = nil,
        screenTracking: ScreenTracking? = nil, rootView: Element = Element("UIView")
    ) {
        self.typeName = typeName
        self.superTypeNames = superTypeNames
        self.title = title
        self.navigationTitle = navigationTitle
        self.screenTracking = screenTracking
        self.rootView = rootView
        rootView.screen = self
    }

    deinit {
        // The root view's weak link to this screen is cleared without its `didSet`.
        Element.hierarchyVersion.bump()
    }

    /// Adds a child screen.
    public func addChild(_ child: Screen) {
        children.append(child)
        child.parent = self
    }

    // MARK: ScreenNode

    /// The type name, then ``superTypeNames``.
    public var typeHierarchy: [String] { [typeName] + superTypeNames }
    /// The parent screen.
    public var parentScreen: (any ScreenNode)? { parent }
    /// The child screens.
    public var childScreens: [any ScreenNode] { children }
}
