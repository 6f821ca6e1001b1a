/// AutoTrackEvents: `Properties` appears in this file's public API.
public import AutoTrackEvents

/// What kind of element a node is, as far as collectors care. Hosts map their widget
/// classes onto these roles; the type *name* stays the host's own.
public enum ElementRole: Hashable, Sendable {
    /// A plain container or any view without special treatment.
    case view
    /// A top-level window.
    case window
    /// Static text (`UILabel`).
    case label
    /// An image (`UIImageView`).
    case image
    /// A button (`UIButton`).
    case button
    /// An on/off switch (`UISwitch`).
    case toggle
    /// A segmented control.
    case segmentedControl
    /// A slider: its value is its content, recorded when the drag ends.
    case slider
    /// A stepper (`UIStepper`): its value is its content.
    case stepper
    /// A plain text field; its text is never captured.
    case textField
    /// A secure (password) text field; its text is never captured.
    case secureTextField
    /// A search field; its text is captured only when editing ends.
    case searchField
    /// A multi-line text view (`UITextView`); its text is never captured, nor are
    /// clicks on it.
    case textView
    /// An item of a tab bar (`UITabBarButton`): its title is its content, its index
    /// its position.
    case tabBarItem
    /// Any other control.
    case control
    /// A scrolling container.
    case scrollView
    /// A table (`UITableView`).
    case table
    /// A collection (`UICollectionView`).
    case collection
    /// A table cell.
    case tableCell
    /// A collection cell.
    case collectionCell
    /// A cell's content view, counted as its cell in slash-style paths.
    case cellContentView
    /// A navigation bar: controls on it are identified by action, not position.
    case navigationBar
    /// A paging container whose children are identified by page coordinates.
    case pageContainer
    /// The view of one alert action.
    case alertAction

    /// Whether this role is a control that users tap (buttons, switches …).
    public var isControl: Bool {
        switch self {
        case .button, .toggle, .segmentedControl, .slider, .stepper, .tabBarItem, .textField, .secureTextField, .searchField, .control: true
        default: false
        }
    }

    /// Whether this role holds text the user types: its text is never read as
    /// content (search fields give theirs only as `$search_text`).
    public var isTextEntry: Bool {
        switch self {
        case .textField, .secureTextField, .searchField, .textView: true
        default: false
        }
    }

    /// Whether this role is a list cell.
    public var isCell: Bool { self == .tableCell || self == .collectionCell }

    /// Whether elements of this role cut their children off at their edges unless
    /// told otherwise: windows and scrolling containers do.
    public var clipsToBoundsByDefault: Bool {
        switch self {
        case .window, .scrollView, .table, .collection, .pageContainer: true
        default: false
        }
    }
}

/// Where a cell sits in its list.
public struct ListPosition: Hashable, Sendable, CustomStringConvertible {
    /// The section.
    public var section: Int
    /// The row (tables) or item (collections).
    public var index: Int

    /// Creates a position.
    public init(section: Int, index: Int) {
        self.section = section
        self.index = index
    }

    /// `section:index`, the form of `$element_position`.
    public var description: String { "\(section):\(index)" }
}

/// The alert an alert-action element belongs to.
public struct AlertContext: Hashable, Sendable {
    /// The alert controller's type name, e.g. `UIAlertController`.
    public var controllerType: String
    /// The alert's title.
    public var title: String?
    /// The alert's message.
    public var message: String?
    /// The action's title.
    public var actionTitle: String?
    /// The action's style: `default`, `cancel` or `destructive`.
    public var actionStyle: String

    /// Creates an alert context.
    public init(controllerType: String, title: String?, message: String?, actionTitle: String?, actionStyle: String) {
        self.controllerType = controllerType
        self.title = title
        self.message = message
        self.actionTitle = actionTitle
        self.actionStyle = actionStyle
    }
}

/// The read model of one on-screen element: what property collectors may read.
///
/// A host framework conforms its widgets (or adapters over them); tests and hosts
/// without widgets use ``Element``. Collectors only read; they never change a node.
public protocol ElementNode: AnyObject {
    /// The type name the app sees (`UIButton`, `MyTableViewCell`) — never a
    /// runtime-generated subclass name.
    var typeName: String { get }
    /// The type name followed by its ancestors' names (`MyCell`, `UITableViewCell`,
    /// `UIView` …), for ignore lists that cover subclasses.
    var typeHierarchy: [String] { get }
    /// The element's role.
    var role: ElementRole { get }
    /// The parent element, or `nil` at the top.
    var parentElement: (any ElementNode)? { get }
    /// The children in on-screen order (back to front).
    var childElements: [any ElementNode] { get }
    /// Whether the element is hidden.
    var isHidden: Bool { get }
    /// The opacity, 0…1.
    var alpha: Double { get }
    /// The frame in the parent's coordinates.
    var frame: Rect { get }
    /// The origin of the element's bounds: where the visible part of its content
    /// starts, in the coordinates its children's frames use — a scroll view's content
    /// offset (UIKit's `bounds.origin`), `(0, 0)` for other elements.
    var boundsOrigin: Point { get }
    /// Whether the element cuts its children off at its edges (`clipsToBounds`):
    /// windows and scrolling containers do, plain views by default do not.
    var clipsToBounds: Bool { get }
    /// The developer-assigned accessibility identifier.
    var accessibilityIdentifier: String? { get }
    /// The element's own text: a label's text, a button's current title. `nil` when it
    /// has none (containers), so content is gathered from its children.
    var ownText: String? { get }
    /// For a switch, whether it is on.
    var isOn: Bool? { get }
    /// For a slider or stepper, its value.
    var controlValue: Double? { get }
    /// A button's title colour.
    var titleColor: Color? { get }
    /// A button's (background) image name.
    var imageName: String? { get }
    /// For a cell, its position in its list.
    var listPosition: ListPosition? { get }
    /// The selector names of the actions attached to the element.
    var actionNames: [String] { get }
    /// The screen whose root view this element is, if it is one (the screen is its
    /// next responder); path walks in slash style stop there.
    var rootViewScreen: (any ScreenNode)? { get }
    /// For an alert action's view, its alert.
    var alertContext: AlertContext? { get }
    /// An element id the app assigned (Sensors' `sensorsdata_viewID`): used as
    /// `$element_id` instead of the path hash.
    var customElementID: String? { get }
    /// Properties the app attached to this element, added to its clicks. Names that
    /// begin with `$` belong to the SDK (`$screen_name`, `$element_content`, …): such a
    /// key here is left out, and the collected value stands.
    var customProperties: Properties { get }
    /// Whether the app asked automatic capture to leave this very element alone
    /// (`sensorsdata_ignoreView`).
    var isIgnoredByAutoTrack: Bool { get }
    /// Whether the app asked automatic capture to leave every element below this one
    /// alone (its children and theirs). With ``isIgnoredByAutoTrack`` it ignores the
    /// element, its children, or both.
    var ignoresDescendants: Bool { get }
    /// Whether the text of this element and every element below it is masked in
    /// automatic events (see ``ElementTextPolicy``), whatever the capture level.
    var masksText: Bool { get }
    /// Whether taps in quick succession are this element's normal use (a stepper, a
    /// keypad key): its clicks never make a rage click.
    var allowsRapidTaps: Bool { get }
    /// Whether a tap on this element may rightly do nothing (a label a user may tap,
    /// a decorative view): it is never a dead click.
    var tapsMayDoNothing: Bool { get }
    /// The position of `child` among this element's children that share its type
    /// name, or `nil` when `child` is not a child. Hosts may answer faster than the
    /// default, which scans ``childElements``.
    func sameTypeIndex(ofChild child: any ElementNode) -> Int?
    /// The element's identity among its siblings when its UI framework keeps one —
    /// SwiftUI's structural identity (the element's place in its parent's view
    /// builder, the branch of a condition), a `ForEach` element's id, an explicit
    /// `.id(_:)` — written in the path in place of the same-type index, so the path
    /// and the id survive re-rendering, views shown or hidden before it, and
    /// reordering. `nil` (the default) for views that have no such identity.
    var siblingIdentity: String? { get }
    /// Where this element's path and id are kept between clicks, valid while its
    /// hierarchy's version does not change (see ``ElementIdentityCache``), or `nil`
    /// (the default) to work them out at every click.
    var identityCache: ElementIdentityCache? { get }
}

extension ElementNode {
    /// Just the type name.
    public var typeHierarchy: [String] { [typeName] }
    /// None: the id is the path hash.
    public var customElementID: String? { nil }
    /// None.
    public var customProperties: Properties { [:] }
    /// Not ignored.
    public var isIgnoredByAutoTrack: Bool { false }
    /// Its descendants are not ignored.
    public var ignoresDescendants: Bool { false }
    /// Its text is not masked.
    public var masksText: Bool { false }
    /// Rapid taps on it may be rage.
    public var allowsRapidTaps: Bool { false }
    /// A tap on it that does nothing is a dead click.
    public var tapsMayDoNothing: Bool { false }
    /// `(0, 0)`: the element does not scroll.
    public var boundsOrigin: Point { Point(x: 0, y: 0) }
    /// As the role has it: windows and scrolling containers clip.
    public var clipsToBounds: Bool { role.clipsToBoundsByDefault }
    /// No switch state.
    public var isOn: Bool? { nil }
    /// No value.
    public var controlValue: Double? { nil }
    /// No title colour.
    public var titleColor: Color? { nil }
    /// No image.
    public var imageName: String? { nil }
    /// Not a cell.
    public var listPosition: ListPosition? { nil }
    /// No actions.
    public var actionNames: [String] { [] }
    /// Not a screen's root view.
    public var rootViewScreen: (any ScreenNode)? { nil }
    /// Not an alert action.
    public var alertContext: AlertContext? { nil }
    /// No cache: paths and ids are worked out at every click.
    public var identityCache: ElementIdentityCache? { nil }
    /// No accessibility identifier.
    public var accessibilityIdentifier: String? { nil }
    /// No identity kept by a UI framework: the path indexes the element among its
    /// same-type siblings.
    public var siblingIdentity: String? { nil }
    /// No own text.
    public var ownText: String? { nil }
    /// Visible.
    public var isHidden: Bool { false }
    /// Opaque.
    public var alpha: Double { 1 }
    /// A zero frame.
    public var frame: Rect { .zero }

    /// Scans ``childElements`` for `child` among those of its type name.
    public func sameTypeIndex(ofChild child: any ElementNode) -> Int? {
        var index = 0
        for sibling in childElements where sibling.typeName == child.typeName {
            if sibling === child { return index }
            index += 1
        }
        return nil
    }

    /// The screen that shows this element: the nearest ancestor (or self) that is a
    /// screen's root view. The walk is bounded like path walks, and kept in the
    /// element's ``identityCache`` while the hierarchy does not change.
    public var owningScreen: (any ScreenNode)? {
        ElementPlacement.of(self, for: .screen).owningScreen
    }
}

/// The read model of one screen (view controller).
public protocol ScreenNode: AnyObject {
    /// The screen's type name as the app declares it (`ViewController`), never a
    /// runtime-generated subclass name.
    var typeName: String { get }
    /// The type name followed by its ancestors' names, for ignore lists that cover
    /// subclasses.
    var typeHierarchy: [String] { get }
    /// The screen's own title.
    var title: String? { get }
    /// The title shown in the navigation bar, if different.
    var navigationTitle: String? { get }
    /// The containing screen (navigation, tab or page container), if any.
    var parentScreen: (any ScreenNode)? { get }
    /// Child screens.
    var childScreens: [any ScreenNode] { get }
    /// The screen's own tracking information, if it provides any (ARCHITECTURE.md,
    /// “Screen tracking protocol”).
    var screenTracking: ScreenTracking? { get }
    /// How the screen is shown: the presentation style of the presented screen it
    /// belongs to, or ``ScreenPresentation/fullScreen``.
    var presentation: ScreenPresentation { get }
    /// The presented screen this one belongs to — itself or the container above it
    /// that was presented — or `nil` when it is in no presentation (or the host does
    /// not say): what tells a screen pushed inside a sheet from a new sheet over it.
    var presentationRoot: (any ScreenNode)? { get }
    /// Whether the presentation the screen belongs to is being dismissed now (UIKit's
    /// `isBeingDismissed` of the presented controller): read as it disappears, it
    /// says the screen under the presentation is seen again.
    var isBeingDismissed: Bool { get }
    /// The three answers above at once, for a host that finds them in one walk up its
    /// containers (a snapshot reads all three).
    var presentationState: ScreenPresentationState { get }
}

extension ScreenNode {
    /// Just the type name.
    public var typeHierarchy: [String] { [typeName] }
    /// No navigation title.
    public var navigationTitle: String? { nil }
    /// No parent screen.
    public var parentScreen: (any ScreenNode)? { nil }
    /// No children.
    public var childScreens: [any ScreenNode] { [] }
    /// No custom tracking.
    public var screenTracking: ScreenTracking? { nil }
    /// Full screen.
    public var presentation: ScreenPresentation { .fullScreen }
    /// In no presentation the host knows of.
    public var presentationRoot: (any ScreenNode)? { nil }
    /// Not being dismissed.
    public var isBeingDismissed: Bool { false }
    /// ``presentation``, ``presentationRoot`` and ``isBeingDismissed``, each read.
    public var presentationState: ScreenPresentationState {
        ScreenPresentationState(presentation: presentation, root: presentationRoot, isBeingDismissed: isBeingDismissed)
    }
}

/// What a screen says about itself for tracking: a page name and a title to use
/// instead of its own, extra properties for its screen views, and its URL.
public struct ScreenTracking: Hashable, Sendable {
    /// Replaces `$screen_name` (the page name, normally the type name) in the screen's
    /// views and in clicks on it (a page name, as in ARCHITECTURE.md, “Screen tracking protocol”).
    public var screenName: String?
    /// Replaces `$title`.
    public var customTitle: String?
    /// Added to the screen's `$AppViewScreen` events, in order.
    public var extraProperties: Properties
    /// The screen's URL (`$url`), used as the next screen's `$referrer`.
    public var url: String?

    /// Creates tracking information.
    public init(screenName: String? = nil, customTitle: String? = nil, extraProperties: Properties = [:], url: String? = nil) {
        self.screenName = screenName
        self.customTitle = customTitle
        self.extraProperties = extraProperties
        self.url = url
    }
}
