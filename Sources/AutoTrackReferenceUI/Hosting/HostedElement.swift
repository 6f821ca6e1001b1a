/// AutoTrackEvents: `Properties` appears in this file's public API.
public import AutoTrackEvents
/// AutoTrackProperties: `ElementNode`, `ElementRole`, `ListPosition`, `Rect` appear in this file's public API.
public import AutoTrackProperties

/// One element a hosting view draws from its declarative content: SwiftUI's rendered
/// view tree as an SDK sees it through the hosting view — no `UIView` of its own, a
/// frame, a label, what a tap on it does, and the identity SwiftUI keeps for it.
///
/// Elements are made afresh at every render; what stays is their
/// ``siblingIdentity`` (structural position, `ForEach` id, explicit `.id(_:)`), so an
/// element's path and `$element_id` survive re-rendering.
public final class HostedElement: ElementNode {
    /// What a tap on an element does.
    public enum TapResponse: Hashable, Sendable {
        /// A `Button`: runs its action.
        case button
        /// A `NavigationLink`: shows its destination.
        case link
        /// A `Toggle`: flips its value.
        case toggle
        /// A view with `onTapGesture`: runs the gesture's action.
        case tapGesture
    }

    /// The view's type name as SwiftUI declares it (`Button`, `VStack`, `ProductRow`).
    public let typeName: String
    /// The role collectors see.
    public let role: ElementRole
    /// SwiftUI's identity of the element among its siblings (`0`, `1,else`,
    /// `0,id:42`), written in its path.
    public let siblingIdentity: String?
    /// What a tap does, `nil` for views a tap passes through (text, stacks).
    public let tapResponse: TapResponse?
    /// The frame in the parent's coordinates (the hosting view's for the top elements).
    public internal(set) var frame: Rect
    /// The label's text (a button's, a toggle's, a text's).
    public let ownText: String?
    /// A toggle's value when it was drawn.
    public let isOn: Bool?
    /// An image's name.
    public let imageName: String?
    /// The row of the list the element is in (it or a view above it is a row).
    public let listPosition: ListPosition?
    /// The accessibility identifier (`.accessibilityIdentifier(_:)`).
    public let accessibilityIdentifier: String?
    /// An element id the app assigned for analytics.
    public let customElementID: String?
    /// Properties the app attached to the element's clicks.
    public let customProperties: Properties
    /// Whether automatic capture leaves the element alone.
    public let isIgnoredByAutoTrack: Bool
    /// Whether automatic capture leaves every element below this one alone.
    public let ignoresDescendants: Bool
    /// The children, back to front.
    public private(set) var children: [HostedElement] = []
    /// What the tap response runs: the button's action, the link's navigation, the
    /// toggle's flip.
    let perform: (() -> Void)?
    private weak var parentStorage: HostedElement?
    private weak var hostingViewStorage: HostingViewObject?

    /// Creates an element; the content a hosting view shows makes them.
    public init(
        typeName: String, role: ElementRole, siblingIdentity: String?, frame: Rect = .zero, tapResponse: TapResponse? = nil,
        ownText: String? = nil, isOn: Bool? = nil, imageName: String? = nil, listPosition: ListPosition? = nil,
        accessibilityIdentifier: String? = nil, customElementID: String? = nil, customProperties: Properties = [:],
        isIgnoredByAutoTrack: Bool = false, ignoresDescendants: Bool = false, perform: (() -> Void)? = nil
    ) {
        self.typeName = typeName
        self.role = role
        self.siblingIdentity = siblingIdentity
        self.frame = frame
        self.tapResponse = tapResponse
        self.ownText = ownText
        self.isOn = isOn
        self.imageName = imageName
        self.listPosition = listPosition
        self.accessibilityIdentifier = accessibilityIdentifier
        self.customElementID = customElementID
        self.customProperties = customProperties
        self.isIgnoredByAutoTrack = isIgnoredByAutoTrack
        self.ignoresDescendants = ignoresDescendants
        self.perform = perform
    }

    /// Appends `child` below this element.
    public func append(_ child: HostedElement) {
        child.parentStorage = self
        children.append(child)
    }

    /// The hosting view the element is drawn in.
    public var hostingView: HostingViewObject? {
        var current: HostedElement? = self
        while let element = current {
            if let view = element.hostingViewStorage { return view }
            current = element.parentStorage
        }
        return nil
    }

    func attach(to view: HostingViewObject) { hostingViewStorage = view }

    /// The element as a tap leaves it, in the same place: a toggle with its value
    /// flipped — what its click reports, as a switch's value-changed action does —
    /// and any other element itself.
    public func asTapLeavesIt() -> HostedElement {
        guard tapResponse == .toggle, let isOn else { return self }
        let flipped = HostedElement(
            typeName: typeName, role: role, siblingIdentity: siblingIdentity, frame: frame, tapResponse: tapResponse,
            ownText: ownText, isOn: !isOn, imageName: imageName, listPosition: listPosition,
            accessibilityIdentifier: accessibilityIdentifier, customElementID: customElementID, customProperties: customProperties,
            isIgnoredByAutoTrack: isIgnoredByAutoTrack, ignoresDescendants: ignoresDescendants, perform: nil)
        flipped.parentStorage = parentStorage
        flipped.hostingViewStorage = hostingViewStorage
        return flipped
    }

    /// The element and every element below it, depth first.
    public var subtree: [HostedElement] { [self] + children.flatMap(\.subtree) }

    /// The frame in the hosting view's coordinates.
    public var frameInHostingView: Rect {
        var origin = frame.origin
        var current = parentStorage
        while let element = current {
            origin.x += element.frame.origin.x
            origin.y += element.frame.origin.y
            current = element.parentStorage
        }
        return Rect(x: origin.x, y: origin.y, width: frame.width, height: frame.height)
    }

    // MARK: ElementNode

    /// The element above, or the hosting view for a top element.
    public var parentElement: (any ElementNode)? { parentStorage ?? hostingViewStorage }
    /// The children.
    public var childElements: [any ElementNode] { children }
    /// The action a tap runs, named after its response (`button`, `link` …), as
    /// dead-click and navigation-bar rules read actions.
    public var actionNames: [String] { tapResponse.map { ["\($0)"] } ?? [] }
}
