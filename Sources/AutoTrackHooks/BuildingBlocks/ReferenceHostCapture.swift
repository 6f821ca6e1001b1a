import AutoTrackEvents
import AutoTrackModelBackend
/// AutoTrackInterception: `HookError`, `HookHandle`, `Interaction`, `InteractionContext`, `InteractionKey`, `Interceptor` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackMethodWrapping
/// AutoTrackProperties: `ScreenNode` appears in this file's public API.
public import AutoTrackProperties
/// AutoTrackReferenceUI: `AlertActionObject`, `IndexPath`, `ListViewObject`, `ViewControllerObject`, `ViewObject` appear in this file's public API.
public import AutoTrackReferenceUI
/// AutoTrackRuntime: `Message`, `RuntimeObject`, `RuntimeValue` appear in this file's public API.
public import AutoTrackRuntime
import AutoTrackLocking

/// The capture logic every hook on the reference host shares, whatever its technique:
/// from the intercepted call to the `Interaction` it reports.
/// Each function is meant to run inside the `capture` closure of
/// `Interceptor.intercept(dedupe:capture:original:)` — before
/// the original — and throws `CaptureSkip` for calls that are
/// not clicks.
public enum ReferenceHostCapture {
    /// Why the arguments of an intercepted call could not be read; counted as a
    /// bookkeeping failure, never thrown to the app.
    public enum Failure: Error, Hashable, Sendable {
        /// The receiver or sender is not of the expected kind.
        case unexpectedReceiver
        /// An argument is missing or of the wrong kind.
        case unexpectedArguments
    }

    // MARK: Screens

    /// The screen a click on `view` belongs to: the screen showing it; when that is an
    /// ignored container (a control in a navigation bar belongs to the navigation
    /// controller's view), the screen the user sees instead — so bar-button clicks are
    /// attributed to the page, not dropped.
    public static func screen(for view: ViewObject, context: InteractionContext) -> (any ScreenNode)? {
        if let owning = view.owningScreen, !context.excludes(screen: owning) { return owning }
        return view.host.visibleController ?? view.owningScreen
    }

    // MARK: Send-action

    /// The parts of an intercepted send-action call that capture needs.
    public struct SendActionCall {
        /// The control that sent the action (`nil` when the arguments are unreadable).
        public let sender: RuntimeObject?
        /// The action selector, as passed.
        public let action: RuntimeValue?
        /// The touch event (`nil` for a programmatic send).
        public let event: AnyObject?

        /// `-[UIControl sendAction:to:forEvent:]`: the receiver is the sender.
        public static func control(_ message: Message) -> SendActionCall {
            let arguments = message.arguments
            return SendActionCall(
                sender: message.receiver, action: arguments.first, event: arguments.count > 2 ? arguments[2].object : nil)
        }

        /// `-[UIControl sendAction:]`, a closure action (`UIAction`): the receiver is the
        /// sender and the touch is the host's current event (the message carries none).
        public static func closure(_ message: Message) -> SendActionCall {
            let sender = message.receiver
            let event = (sender as? ViewObject)?.host.currentTouchEvent
            return SendActionCall(sender: sender, action: nil, event: event)
        }

        /// `-[UIApplication sendAction:to:from:forEvent:]`: the sender is the third argument.
        public static func application(_ message: Message) -> SendActionCall {
            let arguments = message.arguments
            guard arguments.count == 4 else { return SendActionCall(sender: nil, action: nil, event: nil) }
            return SendActionCall(sender: arguments[2].object, action: arguments[0], event: arguments[3].object)
        }

        /// Whether this dispatch comes from the middle of a slider drag (any phase but
        /// ended): a drag is one click, recorded when the finger lifts, with the value
        /// the slider ends at (Sensors' `UITouchPhaseEnded` rule).
        public var isMidDrag: Bool {
            guard let control = sender as? ViewObject, control.role == .slider, let touch = event as? EventObject else { return false }
            return touch.touchPhase != .ended
        }

        /// One click per touch: the first dispatch of this event for this sender; in
        /// the middle of a slider drag, no claim on the touch at all (its end records).
        public func dedupe(receiver: RuntimeObject) -> InterceptionDedupe {
            isMidDrag ? .none : .touch(event: event, element: sender ?? receiver)
        }

        /// The click (see ``ReferenceHostCapture/click(sender:action:interceptor:)``); a
        /// closure action's click has no action name; `nil` — nothing recorded, nothing
        /// counted — in the middle of a slider drag.
        public func click(interceptor: Interceptor) throws -> Interaction? {
            if isMidDrag { return nil }
            guard let sender else { throw Failure.unexpectedArguments }
            guard action != nil else { return try ReferenceHostCapture.closureClick(sender: sender, interceptor: interceptor) }
            return try ReferenceHostCapture.click(sender: sender, action: action, interceptor: interceptor)
        }
    }

    /// A click on `sender` for `action`: plain and secure text fields never record; a
    /// search field records only `_searchFieldEndEditing`, with its text.
    public static func click(sender: RuntimeObject, action: RuntimeValue?, interceptor: Interceptor) throws -> Interaction {
        guard let control = sender as? ViewObject else { throw Failure.unexpectedReceiver }
        guard case .selector(let selector)? = action else { throw Failure.unexpectedArguments }
        if control.role.isTextEntry, control.role != .searchField { throw CaptureSkip.filtered }
        if control.role == .searchField, selector.name != ControlAttributes.searchEndEditingAction { throw CaptureSkip.filtered }
        let context = interceptor.context
        let searchText = control.role == .searchField ? control.text : nil
        return Interaction(
            point: .sendAction,
            element: context.snapshot(of: control, action: selector.name, searchText: searchText),
            screen: screen(for: control, context: context).map(context.snapshot(of:)),
            details: InteractionDetails(actionName: selector.name),
            capturedBy: interceptor.capturedBy)
    }

    /// A click on `sender` by a closure action (`UIAction`), under the same rules as a
    /// target-action: text fields never record, nor does a search field.
    public static func closureClick(sender: RuntimeObject, interceptor: Interceptor) throws -> Interaction {
        guard let control = sender as? ViewObject else { throw Failure.unexpectedReceiver }
        if control.role.isTextEntry { throw CaptureSkip.filtered }
        let context = interceptor.context
        return Interaction(
            point: .sendAction,
            element: context.snapshot(of: control),
            screen: screen(for: control, context: context).map(context.snapshot(of:)),
            details: InteractionDetails(), capturedBy: interceptor.capturedBy)
    }

    /// Wraps `-[UIControl sendAction:]`, through which closure actions run: one click per
    /// touch, shared with the target-actions of the same touch (the same event).
    public static func wrapClosureSend(name: String, host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let cls = host.runtime.lookUpClass("UIControl") else { throw .classNotFound(className: "UIControl") }
        return try MethodWrapper.install(name: name, runtime: host.runtime, cls: cls, selector: "sendAction:", context: context) { original, hookSwitch in
            let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
            return Implementation("\(name) -[UIControl sendAction:]") { message throws(RuntimeError) in
                let call = SendActionCall.closure(message)
                return try interceptor.intercept(
                    dedupe: call.dedupe(receiver: message.receiver), capture: { try call.click(interceptor: interceptor) },
                    original: original.call(message))
            }
        }
    }

    // MARK: Delegate selection

    /// The list and index path of a `didSelect…` message, or `nil` when its arguments
    /// are not a list and an index path.
    public static func selection(in message: Message) -> (list: ListViewObject, indexPath: IndexPath)? {
        guard message.arguments.count == 2, let list = message.arguments[0].object as? ListViewObject,
              case .value(let value) = message.arguments[1], let indexPath = value as? IndexPath
        else { return nil }
        return (list, indexPath)
    }

    /// The dedupe key of one selection: the same list and index path selected again on
    /// this thread inside the same selection (a delegate subclass calling `super`,
    /// stacked hooks, a proxy forwarding to a hooked delegate) is one click.
    public static func selectionKey(list: ListViewObject, indexPath: IndexPath) -> InteractionKey {
        InteractionKey("delegate-selection", objects: [list], numbers: [indexPath.section, indexPath.item])
    }

    /// The dedupe key of the `didSelect…` `message` (a fixed key when its arguments are
    /// unreadable, so the capture's failure is still counted once).
    public static func selectionKey(for message: Message) -> InteractionKey {
        guard let (list, indexPath) = selection(in: message) else { return InteractionKey("delegate-selection", objects: []) }
        return selectionKey(list: list, indexPath: indexPath)
    }

    /// The selection click of a `didSelect…` message: the selected cell (the list when
    /// the cell is not visible), snapshotted now — the original may reload the list.
    public static func selectionClick(_ message: Message, interceptor: Interceptor) throws -> Interaction {
        guard let (list, indexPath) = selection(in: message) else { throw Failure.unexpectedArguments }
        return selectionClick(list: list, indexPath: indexPath, interceptor: interceptor)
    }

    /// The selection click of the row or item at `indexPath` of `list`.
    public static func selectionClick(list: ListViewObject, indexPath: IndexPath, interceptor: Interceptor) -> Interaction {
        let context = interceptor.context
        let element: any ElementNode = list.cell(at: indexPath) ?? list
        return Interaction(
            point: .delegateSelection,
            element: context.snapshot(of: element),
            screen: screen(for: list, context: context).map(context.snapshot(of:)),
            details: InteractionDetails(listPosition: ListPosition(section: indexPath.section, index: indexPath.item)),
            capturedBy: interceptor.capturedBy)
    }

    // MARK: Gestures

    /// The click of `recognizer`, recognised on `view`, whose app target runs `action`:
    /// a tap into a text view or field is typing, never a click.
    public static func gestureClick(
        on view: ViewObject, recognizer: GestureRecognizerObject, action: String?, interceptor: Interceptor
    ) throws -> Interaction {
        if view.role.isTextEntry { throw CaptureSkip.filtered }
        let context = interceptor.context
        return Interaction(
            point: .gesture,
            element: context.snapshot(of: view),
            screen: screen(for: view, context: context).map(context.snapshot(of:)),
            details: InteractionDetails(actionName: action, gestureKind: InteractionDetails.GestureKind(recognizer.kind.rawValue)),
            capturedBy: interceptor.capturedBy)
    }

    // MARK: Alert actions

    /// What a hook learnt about an alert action's alert (at `addAction:`), to be kept
    /// with the action until it is tapped.
    public final class AlertNote: Sendable {
        /// The alert controller's reported class.
        public let controllerType: String
        /// The alert's title.
        public let title: String?
        /// The alert's message.
        public let message: String?

        /// The action's `$element_path` and `$element_id` while its alert was on screen
        /// (see ``noteOnScreen(_:context:)``).
        private let onScreen = Locked<(path: PropertyValue, id: PropertyValue)?>(nil)

        /// Notes `alert`'s class, title and message.
        public init(alert: ViewControllerObject) {
            controllerType = alert.reportedClassName
            title = alert.title
            message = alert.message
        }

        /// Notes, for each action of a just-presented `alert` that has a note, the path
        /// and id of its view as a person sees and picks it (from the window down). The
        /// handler runs after the alert is dismissed, when the view has left the window
        /// and its path would lose its root (ARCHITECTURE.md, “HubbleData paths”: the
        /// uploaded path must equal the picked one).
        public static func noteOnScreen(_ alert: ViewControllerObject, context: InteractionContext) {
            let runtime = alert.host.runtime
            for view in alert.view.descendants(where: { $0 is AlertActionViewObject }) {
                guard let action = (view as? AlertActionViewObject)?.action,
                      let note = runtime.associatedObject(for: AlertNote.key, on: action) as? AlertNote else { continue }
                let properties = context.snapshot(of: view).properties
                guard let path = properties["$element_path"], let id = properties["$element_id"] else { continue }
                note.onScreen.withLock { $0 = (path, id) }
            }
        }

        /// The on-screen path and id, if noted.
        var onScreenIdentity: (path: PropertyValue, id: PropertyValue)? { onScreen.withLock { $0 } }

        /// Where a hook keeps an action's note (an associated object on the action).
        public static let key = AssociationKey("AutoTrackHooks.alertContext")
    }

    /// The click of a tapped alert `action`: the action's view (path and id as on
    /// screen) when the alert built one, with the alert's title and message from `note`.
    public static func alertClick(_ action: AlertActionObject, note: AlertNote?, interceptor: Interceptor) -> Interaction {
        let context = interceptor.context
        let alertContext = AlertContext(
            controllerType: note?.controllerType ?? "UIAlertController", title: note?.title, message: note?.message,
            actionTitle: action.title, actionStyle: action.style.description)
        let actionView = action.alertController?.view.descendants { ($0 as? AlertActionViewObject)?.action === action }.first
        var element = actionView.map { context.snapshot(of: $0) }
        // Dismissed before its handler runs, the view has left the window: report the
        // identity it had on screen, the one a person picks.
        if let actionView, !isInWindow(actionView), let onScreen = note?.onScreenIdentity, actionView.customElementID == nil {
            element?.properties.updateValue(onScreen.path, forKey: "$element_path")
            element?.properties.updateValue(onScreen.id, forKey: "$element_id")
        }
        if element == nil {
            var properties = ControlAttributes.collect(
                for: Element("_UIAlertControllerActionView", role: .alertAction, alertContext: alertContext))
            let type = context.elementTypeConvention == .sensors ? alertContext.controllerType : "_UIAlertControllerActionView"
            properties.updateValue(.string(type), forKey: "$element_type")
            element = ElementSnapshot(
                typeName: "_UIAlertControllerActionView", typeHierarchy: ["_UIAlertControllerActionView"],
                role: .alertAction, accessibilityIdentifier: nil, properties: properties)
        }
        if let title = action.title { element?.properties.updateValue(.string(title), forKey: "$element_content") }
        let host = ReferenceHost.host(of: action.realClass.runtime)
        return Interaction(
            point: .alertAction, element: element,
            screen: (action.alertController?.presentingController ?? host?.visibleController).map(context.snapshot(of:)),
            details: InteractionDetails(alert: alertContext), capturedBy: interceptor.capturedBy)
    }

    /// Whether `view` hangs under a window.
    static func isInWindow(_ view: ViewObject) -> Bool {
        var current: ViewObject? = view
        var steps = 0
        while let node = current, steps < 256 {
            if node.role == .window { return true }
            current = node.superview
            steps += 1
        }
        return false
    }

    // MARK: Screen views

    /// The dedupe key of one appearance of `controller`: several wrapped classes of its
    /// hierarchy (`UIViewController` and an app override) are one screen view.
    public static func appearanceKey(_ controller: RuntimeObject) -> InteractionKey {
        InteractionKey("viewDidAppear", objects: [controller])
    }

    private static let shownKey = AssociationKey("AutoTrackHooks.screenShown")

    /// That a controller is shown, as the installation that recorded it saw it. A
    /// note left by an installation since removed is stale: it never saw the screen
    /// disappear, and its shown state says nothing to a new installation.
    private final class Shown: Sendable {
        let installation: HookSwitch
        init(_ installation: HookSwitch) { self.installation = installation }
    }

    /// Notes that `controller` disappeared (`viewDidDisappear:`), so its next
    /// appearance is a screen view again.
    public static func noteDisappeared(_ controller: RuntimeObject) {
        controller.realClass.runtime.setAssociatedObject(nil, for: shownKey, on: controller)
    }

    /// The screen view of `controller` appearing, under the rules of a screen:
    ///
    /// - a controller that appears again without having disappeared — the top of a
    ///   navigation stack after a cancelled swipe back — is not recorded twice
    ///   (`CaptureSkip.deduplicated`), unless it was shown under an installation since
    ///   removed, which could not see it disappear;
    /// - a child contained in an ordinary screen is not a screen of its own — its parent
    ///   is (`CaptureSkip.filtered`); children of navigation, tab
    ///   and page containers are;
    /// - system containers and ignored screens are dropped by the context's filters.
    public static func appearance(
        of controller: ViewControllerObject, animated: Bool?, interceptor: Interceptor
    ) throws -> Interaction {
        let runtime = controller.host.runtime
        if let shown = runtime.associatedObject(for: shownKey, on: controller) as? Shown, shown.installation === interceptor.hookSwitch {
            throw CaptureSkip.deduplicated
        }
        runtime.setAssociatedObject(Shown(interceptor.hookSwitch), for: shownKey, on: controller)
        if let parent = controller.parent, parent.kind == .plain, !interceptor.context.excludes(screen: parent) {
            throw CaptureSkip.filtered
        }
        return screenView(of: controller, animated: animated, reason: .appear, interceptor: interceptor)
    }

    /// A screen view of `controller` now, for `reason` (`appear`, or `foreground` when
    /// the app returns and UIKit sends no `viewDidAppear:`).
    public static func screenView(
        of controller: ViewControllerObject, animated: Bool?, reason: InteractionDetails.ScreenViewReason, interceptor: Interceptor
    ) -> Interaction {
        Interaction(
            point: .screenView, element: nil, screen: interceptor.context.snapshot(of: controller),
            details: InteractionDetails(animated: animated, screenViewReason: reason), capturedBy: interceptor.capturedBy)
    }
}
