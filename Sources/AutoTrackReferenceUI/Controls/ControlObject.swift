/// AutoTrackProperties: `Color` appears in this file's public API.
public import AutoTrackProperties
/// AutoTrackRuntime: `RuntimeBlock`, `RuntimeError`, `RuntimeObject`, `Selector` appear in this file's public API.
public import AutoTrackRuntime

/// One target-action pair registered on a control or a gesture recognizer. The target
/// is held weakly, as UIKit holds it.
public struct TargetAction {
    /// The target; `nil` means "the first responder that implements the action".
    public private(set) weak var target: RuntimeObject?
    /// Whether a target was given at all (a nil target walks the responder chain).
    public let hasTarget: Bool
    /// The action selector.
    public let action: Selector
    /// The events it fires on (controls only).
    public let events: ControlEvents

    /// Creates a pair.
    public init(target: RuntimeObject?, action: Selector, events: ControlEvents = []) {
        self.target = target
        hasTarget = target != nil
        self.action = action
        self.events = events
    }
}

/// A closure-based action (`UIAction`): a handler block, no target-action.
public final class ActionObject: RuntimeObject, @unchecked Sendable {
    // Safe by confinement to the UI thread.

    /// The action's title.
    public let title: String
    /// The handler, given the action's sender.
    public let handler: RuntimeBlock

    init(host: ReferenceHost, class cls: RuntimeClass, title: String, handler: RuntimeBlock) {
        self.title = title
        self.handler = handler
        super.init(instanceOf: cls)
    }
}

/// The Swift-side storage of a control (`UIControl` and subclasses).
open class ControlObject: ViewObject, @unchecked Sendable {
    // Safe by confinement to the UI thread.

    /// Registered target-action pairs, in registration order.
    public internal(set) var targetActions: [TargetAction] = [] { didSet { hierarchyVersion.bump() } }
    /// Registered closure actions with their events.
    public internal(set) var closureActions: [(action: ActionObject, events: ControlEvents)] = []
    /// A button's title.
    public var title: String?
    /// A button's title colour.
    public var buttonTitleColor: Color?
    /// Whether a switch is on.
    public var switchIsOn = false
    /// A segmented control's selected segment.
    public var selectedSegmentIndex = 0
    /// A segmented control's segment titles.
    public var segmentTitles: [String] = []
    /// A slider's or stepper's value.
    public var value: Double = 0
    /// What one tap on a stepper adds or takes away.
    public var stepValue: Double = 1
    /// A tab bar button's index in its bar.
    public internal(set) var tabIndex: Int? { didSet { hierarchyVersion.bump() } }
    /// Whether a text field hides its text.
    public var isSecureTextEntry = false

    /// A button's title, a segmented control's selected title, a switch's state.
    open override var ownText: String? {
        switch role {
        case .button, .tabBarItem: title
        case .segmentedControl: segmentTitles.indices.contains(selectedSegmentIndex) ? segmentTitles[selectedSegmentIndex] : nil
        default: text
        }
    }

    /// A switch's state.
    open override var isOn: Bool? { role == .toggle ? switchIsOn : nil }
    /// A tab bar button's place: section 0, its index.
    open override var listPosition: ListPosition? { tabIndex.map { ListPosition(section: 0, index: $0) } }
    /// A slider's or stepper's value.
    open override var controlValue: Double? { role == .slider || role == .stepper ? value : nil }
    /// A button's title colour.
    open override var titleColor: Color? { buttonTitleColor }
    /// The registered action selectors.
    open override var actionNames: [String] { targetActions.map(\.action.name) + super.actionNames }

    /// The pairs registered for any of `events`, in order.
    public func targetActions(for events: ControlEvents) -> [TargetAction] {
        targetActions.filter { !$0.events.isDisjoint(with: events) }
    }

    /// Registers a target-action pair through `addTarget:action:forControlEvents:`.
    public func addTarget(_ target: RuntimeObject?, action: Selector, for events: ControlEvents) throws(RuntimeError) {
        try host.runtime.send(
            self, "addTarget:action:forControlEvents:",
            MessageArguments(.object(target), .selector(action), .int(events.rawValue)))
    }

    /// Registers a closure action through `addAction:forControlEvents:`.
    @discardableResult
    public func addAction(
        title: String = "", for events: ControlEvents, _ handler: @escaping @Sendable (RuntimeObject?) -> Void
    ) throws(RuntimeError) -> ActionObject {
        guard let cls = host.runtime.lookUpClass("UIAction") else { throw .classNotFound("UIAction") }
        let action = ActionObject(host: host, class: cls, title: title, handler: RuntimeBlock { arguments in
            handler(arguments.first?.object)
            return .void
        })
        try host.runtime.send(self, "addAction:forControlEvents:", MessageArguments(.object(action), .int(events.rawValue)))
        return action
    }
}
