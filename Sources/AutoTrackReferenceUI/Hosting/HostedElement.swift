/// AutoTrackEvents: `Properties` appears in this file's public API.
public import AutoTrackEvents
/// AutoTrackProperties: `ElementNode`, `ElementRole`, `ListPosition`, `Rect` appear in this file's public API.
public import AutoTrackProperties

/// One element a hosting view draws from its declarative content: SwiftUI's rendered
/// view tree as an SDK sees it through the hosting view — no `UIView` of its own, a
/// frame, a label, what a tap on it does, and the identity SwiftUI keeps for it.
///
/// Every render evaluates the views again; an element whose identity — its type and
/// ``siblingIdentity`` (structural position, `ForEach` id, explicit `.id(_:)`; siblings
/// that would share one are told apart by order) under the same parent — is drawn
/// again is the same object, updated, as SwiftUI keeps a view's state while its
/// identity lasts. So an element's path and `$element_id` survive re-rendering, and
/// so does an exposure's appearance. An element no longer drawn is detached.
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
    public private(set) var role: ElementRole
    /// SwiftUI's identity of the element among its siblings (`0`, `1,else`,
    /// `0,id:42`), written in its path.
    public let siblingIdentity: String?
    /// What a tap does, `nil` for views a tap passes through (text, stacks).
    public private(set) var tapResponse: TapResponse?
    /// The frame in the parent's coordinates (the hosting view's for the top elements).
    public internal(set) var frame: Rect
    /// The label's text (a button's, a toggle's, a text's).
    public private(set) var ownText: String?
    /// A toggle's value when it was drawn.
    public private(set) var isOn: Bool?
    /// An image's name.
    public private(set) var imageName: String?
    /// The row of the list the element is in (it or a view above it is a row).
    public private(set) var listPosition: ListPosition?
    /// The accessibility identifier (`.accessibilityIdentifier(_:)`).
    public private(set) var accessibilityIdentifier: String?
    /// An element id the app assigned for analytics.
    public private(set) var customElementID: String?
    /// Properties the app attached to the element's clicks.
    public private(set) var customProperties: Properties
    /// Whether automatic capture leaves the element alone.
    public private(set) var isIgnoredByAutoTrack: Bool
    /// Whether automatic capture leaves every element below this one alone.
    public private(set) var ignoresDescendants: Bool
    /// What the app asked for when the element is seen (`.autoTrackExposure(…)`), or
    /// `nil`: the element is not watched.
    public internal(set) var exposureRequest: HostedExposureRequest?
    /// The children, back to front.
    public private(set) var children: [HostedElement] = []
    /// What the tap response runs: the button's action, the link's navigation, the
    /// toggle's flip.
    private(set) var perform: (() -> Void)?
    private weak var parentStorage: HostedElement?
    private weak var hostingViewStorage: HostingViewObject?

    /// Creates an element; the content a hosting view shows makes them.
    public init(
        typeName: String, role: ElementRole, siblingIdentity: String?, frame: Rect = .zero, tapResponse: TapResponse? = nil,
        ownText: String? = nil, isOn: Bool? = nil, imageName: String? = nil, listPosition: ListPosition? = nil,
        accessibilityIdentifier: String? = nil, customElementID: String? = nil, customProperties: Properties = [:],
        isIgnoredByAutoTrack: Bool = false, ignoresDescendants: Bool = false, exposureRequest: HostedExposureRequest? = nil,
        perform: (() -> Void)? = nil
    ) {
        self.exposureRequest = exposureRequest
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

    /// This element, kept for `drawn` — the same view drawn again — with `drawn`'s
    /// content, and its children kept the same way where their identities match.
    func keep(drawnAs drawn: HostedElement) -> HostedElement {
        frame = drawn.frame
        role = drawn.role
        tapResponse = drawn.tapResponse
        ownText = drawn.ownText
        isOn = drawn.isOn
        imageName = drawn.imageName
        listPosition = drawn.listPosition
        accessibilityIdentifier = drawn.accessibilityIdentifier
        customElementID = drawn.customElementID
        customProperties = drawn.customProperties
        isIgnoredByAutoTrack = drawn.isIgnoredByAutoTrack
        ignoresDescendants = drawn.ignoresDescendants
        exposureRequest = drawn.exposureRequest
        perform = drawn.perform
        let kept = Self.reconcile(drawn.children, with: children)
        for child in kept { child.parentStorage = self }
        children = kept
        return self
    }

    /// `drawn`, each element replaced by the element of `previous` with its type and
    /// sibling identity, kept (``keep(drawnAs:)``).
    /// Elements of `previous` not drawn again are detached: they no longer report a
    /// parent or a hosting view.
    static func reconcile(_ drawn: [HostedElement], with previous: [HostedElement]) -> [HostedElement] {
        var byIdentity: [String: [HostedElement]] = [:]
        for element in previous { byIdentity["\(element.typeName)|\(element.siblingIdentity ?? "")", default: []].append(element) }
        let kept = drawn.map { element in
            let key = "\(element.typeName)|\(element.siblingIdentity ?? "")"
            guard let candidates = byIdentity[key], let match = candidates.first else { return element }
            byIdentity[key] = Array(candidates.dropFirst())
            return match.keep(drawnAs: element)
        }
        for dropped in byIdentity.values.joined() { dropped.detach() }
        return kept
    }

    /// No longer drawn: the element and those below it leave their parent and
    /// hosting view.
    private func detach() {
        for element in subtree {
            element.parentStorage = nil
            element.hostingViewStorage = nil
        }
    }

    /// The element as a tap leaves it, in the same place: a toggle with its value
    /// flipped — what its click reports, as a switch's value-changed action does —
    /// and any other element itself.
    public func asTapLeavesIt() -> HostedElement {
        guard tapResponse == .toggle, let isOn else { return self }
        let flipped = HostedElement(
            typeName: typeName, role: role, siblingIdentity: siblingIdentity, frame: frame, tapResponse: tapResponse,
            ownText: ownText, isOn: !isOn, imageName: imageName, listPosition: listPosition,
            accessibilityIdentifier: accessibilityIdentifier, customElementID: customElementID, customProperties: customProperties,
            isIgnoredByAutoTrack: isIgnoredByAutoTrack, ignoresDescendants: ignoresDescendants, exposureRequest: exposureRequest, perform: nil)
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
