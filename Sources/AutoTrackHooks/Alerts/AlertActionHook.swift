import AutoTrackEvents
/// AutoTrackInterception: `AlertActionHook`, `HookError`, `HookHandle`, `InteractionContext` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackProperties
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
import AutoTrackRuntime

/// Seed 003's alert hook: `+[UIAlertAction actionWithTitle:style:handler:]` gets a
/// wrapping block in place of the app's handler — records one click, then runs the
/// app's block (if any) once with the same action — and `-[UIAlertController
/// addAction:]` notes the alert's title and message on the action. A `nil` handler
/// still yields one click.
public final class AlertActionBlockHook: AlertActionHook {
    /// `alert-action/handler-block`.
    public let name = "alert-action/handler-block"
    static let alertKey = AssociationKey("AutoTrackHooks.alertContext")

    /// Creates the hook.
    public init() {}

    /// Holds what `addAction:` learnt about an action's alert.
    final class AlertNote: Sendable {
        let controllerType: String
        let title: String?
        let message: String?
        init(controllerType: String, title: String?, message: String?) {
            self.controllerType = controllerType
            self.title = title
            self.message = message
        }
    }

    /// Wraps the class method and `addAction:`.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let actionClass = host.runtime.lookUpClass("UIAlertAction"),
              let alertClass = host.runtime.lookUpClass("UIAlertController") else { throw .missingTarget("UIAlertAction") }
        let name = self.name
        let runtime = host.runtime
        return try MethodWrapper.installGroup(name: name, runtime: runtime) { () throws(HookError) -> [HookHandle] in
            let factory = try MethodWrapper.install(
                name: name, runtime: runtime, cls: actionClass.metaclass, selector: "actionWithTitle:style:handler:"
            ) { original, flag in
                Implementation("\(name) +[UIAlertAction actionWithTitle:style:handler:]") { message throws(RuntimeError) in
                    guard flag.isOn, message.arguments.count == 3 else { return try original.body(message) }
                    let appHandler = try RuntimeBlock?.fromRuntimeValue(message.arguments[2], selector: message.selector)
                    let wrapped = RuntimeBlock { arguments throws(RuntimeError) in
                        if flag.isOn, let action = arguments.first?.object as? AlertActionObject {
                            Self.record(action, context: context, capturedBy: name)
                        }
                        return try appHandler?.invoke(arguments) ?? .void
                    }
                    return try original.body(Message(
                        receiver: message.receiver, selector: message.selector,
                        arguments: MessageArguments(message.arguments[0], message.arguments[1], .block(wrapped)),
                        runtime: message.runtime))
                }
            }
            let adding = try MethodWrapper.install(name: name, runtime: runtime, cls: alertClass, selector: "addAction:") { original, flag in
                Implementation("\(name) -[UIAlertController addAction:]") { message throws(RuntimeError) in
                    if flag.isOn, let alert = message.receiver as? ViewControllerObject, let action = message.arguments.first?.object {
                        let note = AlertNote(controllerType: alert.reportedClassName, title: alert.title, message: alert.message)
                        message.runtime.setAssociatedObject(note, for: Self.alertKey, on: action)
                    }
                    return try original.body(message)
                }
            }
            return [factory, adding]
        }
    }

    static func record(_ action: AlertActionObject, context: InteractionContext, capturedBy: String) {
        let interaction: Interaction? = context.failOpen { () throws -> Interaction? in
            let host = ReferenceHost.host(of: action.realClass.runtime)
            let note = host?.runtime.associatedObject(for: alertKey, on: action) as? AlertNote
            let alertContext = AlertContext(
                controllerType: note?.controllerType ?? "UIAlertController", title: note?.title, message: note?.message,
                actionTitle: action.title, actionStyle: action.style.description)
            // The action's own view, if the alert built one, gives the path and id.
            let actionView = action.alertController?.view.descendants {
                ($0 as? AlertActionViewObject)?.action === action
            }.first
            var element = actionView.map { context.snapshot(of: $0) }
            if element == nil {
                var properties = ControlAttributes.collect(
                    for: Element("_UIAlertControllerActionView", role: .alertAction, alertContext: alertContext))
                properties.updateValue(.string("_UIAlertControllerActionView"), forKey: "$element_type")
                element = ElementSnapshot(
                    typeName: "_UIAlertControllerActionView", typeHierarchy: ["_UIAlertControllerActionView"],
                    role: .alertAction, accessibilityIdentifier: nil, properties: properties)
            }
            if let title = action.title { element?.properties.updateValue(.string(title), forKey: "$element_content") }
            return Interaction(
                point: .alertAction, element: element,
                screen: (action.alertController?.presentingController ?? host?.visibleController).map(context.snapshot(of:)),
                details: InteractionDetails(alert: alertContext), capturedBy: capturedBy)
        }
        if let interaction { context.emit(interaction) }
    }
}
