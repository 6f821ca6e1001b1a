/// AutoTrackInterception: `HookError`, `HookHandle`, `HookedMethod`, `InteractionContext`, `InterceptionHook` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
import AutoTrackRuntime

/// The alert hook (ARCHITECTURE.md, “Alert handler blocks”): `+[UIAlertAction actionWithTitle:style:handler:]` gets a
/// wrapping block in place of the app's handler — records one click, then runs the
/// app's block (if any) once with the same action — and `-[UIAlertController
/// addAction:]` notes the alert's title and message on the action, and
/// `-[UIViewController presentViewController:animated:completion:]` notes each action
/// view's path and id while the alert is on screen — the handler runs after dismissal,
/// when the view has left the window. A `nil` handler still yields one click.
public final class AlertActionBlockHook: InterceptionHook {
    /// `.alertAction`.
    public let point = InterceptionPoint.alertAction
    /// `alert-action/handler-block`.
    public let name = "alert-action/handler-block"
    /// `+[UIAlertAction actionWithTitle:style:handler:]`, `-[UIAlertController addAction:]`
    /// and `-[UIViewController presentViewController:animated:completion:]`.
    public let hookedMethods = [
        HookedMethod("UIAlertAction", "actionWithTitle:style:handler:", isClassMethod: true), HookedMethod("UIAlertController", "addAction:"),
        HookedMethod("UIViewController", "presentViewController:animated:completion:"),
    ]
    static let alertKey = ReferenceHostCapture.AlertNote.key

    /// Creates the hook.
    public init() {}

    /// Wraps the class method and `addAction:`.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let actionClass = host.runtime.lookUpClass("UIAlertAction") else { throw .classNotFound(className: "UIAlertAction") }
        guard let alertClass = host.runtime.lookUpClass("UIAlertController") else { throw .classNotFound(className: "UIAlertController") }
        let name = self.name
        let runtime = host.runtime
        return try MethodWrapper.installGroup(name: name, runtime: runtime, context: context) { () throws(HookError) -> [HookHandle] in
            let factory = try MethodWrapper.install(
                name: name, runtime: runtime, cls: actionClass, selector: "actionWithTitle:style:handler:", isClassMethod: true,
                context: context
            ) { original, hookSwitch in
                let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                // Blocks wrapped now report to the installation current when they run:
                // an action made before an uninstall and reinstall records again.
                let target = ReportingTarget.target(on: actionClass, in: runtime, current: interceptor)
                return Implementation("\(name) +[UIAlertAction actionWithTitle:style:handler:]") { message throws(RuntimeError) in
                    try interceptor.forward(original.call(message), preparing: { message in
                        let arguments = message.arguments
                        guard arguments.count == 3 else { throw ReferenceHostCapture.Failure.unexpectedArguments }
                        let appHandler = try RuntimeBlock?.fromRuntimeValue(arguments[2], selector: message.selector)
                        let wrapped = RuntimeBlock { blockArguments throws(RuntimeError) in
                            let action = blockArguments.first?.object as? AlertActionObject
                            return try target.intercept { current in
                                guard let action else { throw ReferenceHostCapture.Failure.unexpectedArguments }
                                let note = runtime.associatedObject(for: Self.alertKey, on: action) as? ReferenceHostCapture.AlertNote
                                return ReferenceHostCapture.alertClick(action, note: note, interceptor: current)
                            } original: { () throws(RuntimeError) in
                                try appHandler?.invoke(blockArguments) ?? .void
                            }
                        }
                        return message.replacingArguments(MessageArguments(arguments[0], arguments[1], .block(wrapped)))
                    })
                }
            }
            let adding = try MethodWrapper.install(name: name, runtime: runtime, cls: alertClass, selector: "addAction:", context: context) { original, hookSwitch in
                let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                return Implementation("\(name) -[UIAlertController addAction:]") { message throws(RuntimeError) in
                    try interceptor.forward(original.call(message), preparing: { message in
                        if let alert = message.receiver as? ViewControllerObject, let action = message.arguments.first?.object {
                            runtime.setAssociatedObject(ReferenceHostCapture.AlertNote(alert: alert), for: Self.alertKey, on: action)
                        }
                        return message
                    })
                }
            }
            guard let controllerClass = runtime.lookUpClass("UIViewController") else { throw .classNotFound(className: "UIViewController") }
            let presenting = try MethodWrapper.install(
                name: name, runtime: runtime, cls: controllerClass, selector: "presentViewController:animated:completion:",
                context: context
            ) { original, hookSwitch in
                let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                return Implementation("\(name) -[UIViewController presentViewController:animated:completion:]") { message throws(RuntimeError) in
                    try interceptor.forward(original.call(message), then: { result in
                        if hookSwitch.isOn, let alert = message.arguments.first?.object as? ViewControllerObject, alert.kind == .alert {
                            ReferenceHostCapture.AlertNote.noteOnScreen(alert, context: context)
                        }
                        return result
                    })
                }
            }
            return [factory, adding, presenting]
        }
    }
}
