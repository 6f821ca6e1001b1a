/// AutoTrackEvents: `Properties` appears in this file's public API.
public import AutoTrackEvents
/// AutoTrackProperties: `AlertContext`, `Color`, `ElementNode`, `ElementRole` … appear in this file's public API.
public import AutoTrackProperties
/// AutoTrackRuntime: `RuntimeClass` appears in this file's public API.
public import AutoTrackRuntime

/// The Swift-side storage of a view (`UIView` and its subclasses), and its read model
/// for property collectors.
open class ViewObject: ResponderObject, ElementNode, @unchecked Sendable {
    // Safe by confinement to the UI thread, as every reference-host object.

    /// The role collectors see, fixed by the UIKit base class.
    public let role: ElementRole
    /// The frame in the superview's coordinates.
    public var frame: Rect = .zero {
        // HubbleData paths place a paging container's children by their centre.
        didSet { if role == .pageContainer || superviewStorage?.role == .pageContainer { hierarchyVersion.bump() } }
    }
    /// The bounds' origin: a scroll view's content offset, `(0, 0)` otherwise. The
    /// subviews' frames are in the coordinates this origin shifts.
    public var boundsOrigin = Point(x: 0, y: 0)
    /// Whether subviews are cut off at the edges: windows and scroll views do, as in
    /// UIKit.
    public var clipsToBounds: Bool
    /// Whether hidden.
    public var isHidden = false
    /// The opacity.
    public var alpha: Double = 1
    /// The accessibility identifier.
    public var accessibilityIdentifier: String? { didSet { hierarchyVersion.bump() } }
    /// An element id the app assigns for analytics (Sensors' `sensorsdata_viewID`).
    public var customElementID: String?
    /// Properties the app attaches to this view's clicks (`sensorsAnalyticsViewProperties`).
    public var customProperties: Properties = [:]
    /// Whether automatic capture leaves this view alone (`sensorsdata_ignoreView`).
    public var isIgnoredByAutoTrack = false { didSet { hierarchyVersion.bump() } }
    /// Whether automatic capture leaves every view below this one alone.
    public var ignoresDescendants = false { didSet { hierarchyVersion.bump() } }
    /// Whether the text of this view and of every view below it is masked.
    public var masksText = false { didSet { hierarchyVersion.bump() } }
    /// Whether rapid taps are this view's normal use (never a rage click).
    public var allowsRapidTaps = false
    /// Whether a tap on it may rightly do nothing (never a dead click).
    public var tapsMayDoNothing = false
    /// A label's text or a text field's text.
    public var text: String?
    /// An image view's image name.
    public var imageName: String?
    /// Subviews in order, back to front.
    public private(set) var subviews: [ViewObject] = []
    /// The gesture recognizers attached to the view.
    public internal(set) var gestureRecognizers: [GestureRecognizerObject] = [] { didSet { hierarchyVersion.bump() } }
    // Unowned without reference counting; set only while the superview holds this
    // view in `subviews`, cleared on removal and when the superview is released.
    private unowned(unsafe) var superviewStorage: ViewObject?
    /// The view controller whose root view this is; cleared when it is released.
    unowned(unsafe) var owningController: ViewControllerObject? { didSet { hierarchyVersion.bump() } }
    /// This view's cached path and id, checked against the host's
    /// ``ReferenceHost/hierarchyVersion``.
    public private(set) lazy var identityCache: ElementIdentityCache? = ElementIdentityCache(version: hierarchyVersion)
    /// For a window: the application, its next responder.
    weak var applicationForChain: ApplicationObject?

    /// Creates a view of `cls`.
    public init(host: ReferenceHost, class cls: RuntimeClass, role: ElementRole) {
        self.role = role
        clipsToBounds = role.clipsToBoundsByDefault
        super.init(host: host, class: cls)
    }

    deinit {
        for subview in subviews { subview.superviewStorage = nil }
        if !subviews.isEmpty { hierarchyVersion.bump() }
    }

    /// The superview.
    public var superview: ViewObject? { superviewStorage }

    /// The view controller whose root view this is.
    public var viewController: ViewControllerObject? { owningController }

    /// A controller's root view answers to the controller, others to the superview.
    open override var nextResponder: ResponderObject? {
        if let owningController { return owningController }
        if let superviewStorage { return superviewStorage }
        return applicationForChain
    }

    // MARK: Tree changes (Swift side of addSubview:/removeFromSuperview)

    func insertSubviewStorage(_ view: ViewObject, at index: Int) {
        view.removeFromSuperviewStorage()
        subviews.insert(view, at: min(max(index, 0), subviews.count))
        view.superviewStorage = self
        hierarchyVersion.bump()
    }

    func removeFromSuperviewStorage() {
        guard let superview = superviewStorage else { return }
        superview.subviews.removeAll { $0 === self }
        superviewStorage = nil
        hierarchyVersion.bump()
    }

    /// Adds a subview through the `addSubview:` message (hookable).
    public func addSubview(_ view: ViewObject) {
        _ = try? host.runtime.send(self, "addSubview:", MessageArguments(.object(view)))
    }

    /// Removes the view through `removeFromSuperview`.
    public func removeFromSuperview() {
        _ = try? host.runtime.send(self, "removeFromSuperview")
    }

    /// Attaches a gesture recognizer through `addGestureRecognizer:` (hookable).
    public func addGestureRecognizer(_ recognizer: GestureRecognizerObject) {
        _ = try? host.runtime.send(self, "addGestureRecognizer:", MessageArguments(.object(recognizer)))
    }

    /// The subviews, descendants first, that match `predicate` (depth-first).
    public func descendants(where predicate: (ViewObject) -> Bool) -> [ViewObject] {
        var found: [ViewObject] = []
        var stack = Array(subviews.reversed())
        while let view = stack.popLast() {
            if predicate(view) { found.append(view) }
            stack.append(contentsOf: view.subviews.reversed())
        }
        return found
    }

    // MARK: ElementNode

    /// The reported class name (runtime-generated subclasses are hidden).
    public var typeName: String { reportedClassName }
    /// The reported class and its ancestors.
    public var typeHierarchy: [String] { reportedClassHierarchy }
    /// The superview.
    public var parentElement: (any ElementNode)? { superviewStorage }
    /// The subviews.
    open var childElements: [any ElementNode] { subviews }
    /// The text collectors read: overridden by controls for titles.
    open var ownText: String? { text }
    /// Not a switch.
    open var isOn: Bool? { nil }
    /// No value; controls override.
    open var controlValue: Double? { nil }
    /// No title colour.
    open var titleColor: Color? { nil }
    /// The controller whose root view this is.
    public var rootViewScreen: (any ScreenNode)? { owningController }
    /// Overridden by cells.
    open var listPosition: ListPosition? { nil }
    /// Overridden by controls and gesture-bearing views.
    open var actionNames: [String] {
        gestureRecognizers.flatMap { $0.targets.map(\.action.name) }
    }
    /// Overridden by alert action views.
    open var alertContext: AlertContext? { nil }

    /// Scans the subviews directly.
    public func sameTypeIndex(ofChild child: any ElementNode) -> Int? {
        let name = child.typeName
        var index = 0
        for sibling in subviews where sibling.typeName == name {
            if sibling === child { return index }
            index += 1
        }
        return nil
    }
}
