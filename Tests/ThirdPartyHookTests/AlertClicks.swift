import AutoTrackHooks
import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
import AutoTrackReferenceUI
import AutoTrackRuntime

/// An alert hook from the public API: the handler block wrapped at
/// `+[UIAlertAction actionWithTitle:style:handler:]`, the alert noted at `addAction:`,
/// and the action views' on-screen identities noted once the alert is presented.
final class AlertClicks: InterceptionHook {
    let point = InterceptionPoint.alertAction
    let name = "third-party/alert-block"
    let hookedMethods = [
        HookedMethod("UIAlertAction", "actionWithTitle:style:handler:", isClassMethod: true), HookedMethod("UIAlertController", "addAction:"),
        HookedMethod("UIViewController", "presentViewController:animated:completion:"),
    ]
    /// Where the building blocks look for an action's note.
    static let noteKey = ReferenceHostCapture.AlertNote.key

    func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        let runtime = host.runtime
        let name = self.name
        return try MethodWrapper.installGroup(name: name, runtime: runtime, context: context) { () throws(HookError) -> [HookHandle] in
            try hookedMethods.map { (method: HookedMethod) throws(HookError) -> HookHandle in
                guard let cls = runtime.lookUpClass(method.className) else { throw .classNotFound(className: method.className) }
                return try MethodWrapper.install(
                    name: name, runtime: runtime, cls: cls, selector: method.selector, isClassMethod: method.isClassMethod,
                    context: context
                ) { original, hookSwitch in
                    let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                    // Blocks report to the installation current when they run (an action
                    // made before a reinstall records again).
                    let target = ReportingTarget.target(on: cls, in: runtime, current: interceptor)
                    if method.selector == "presentViewController:animated:completion:" {
                        return Implementation("\(name) \(method)") { message throws(RuntimeError) in
                            try interceptor.forward(original.call(message), then: { result in
                                if let alert = message.arguments.first?.object as? ViewControllerObject, alert.kind == .alert {
                                    ReferenceHostCapture.AlertNote.noteOnScreen(alert, context: context)
                                }
                                return result
                            })
                        }
                    }
                    return Implementation("\(name) \(method)") { message throws(RuntimeError) in
                        try interceptor.forward(original.call(message), preparing: { message in
                            let arguments = message.arguments
                            if let alert = message.receiver as? ViewControllerObject, let action = arguments.first?.object {
                                runtime.setAssociatedObject(ReferenceHostCapture.AlertNote(alert: alert), for: Self.noteKey, on: action)
                                return message
                            }
                            guard arguments.count == 3 else { return message }
                            let handler = try RuntimeBlock?.fromRuntimeValue(arguments[2], selector: message.selector)
                            return message.replacingArguments(MessageArguments(arguments[0], arguments[1], .block(RuntimeBlock { blockArguments throws(RuntimeError) in
                                try target.intercept { current in
                                    guard let action = blockArguments.first?.object as? AlertActionObject else { return nil }
                                    let note = runtime.associatedObject(for: Self.noteKey, on: action) as? ReferenceHostCapture.AlertNote
                                    return ReferenceHostCapture.alertClick(action, note: note, interceptor: current)
                                } original: { () throws(RuntimeError) in
                                    try handler?.invoke(blockArguments) ?? .void
                                }
                            })))
                        })
                    }
                }
            }
        }
    }
}
