import AutoTrackHooks
import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
import AutoTrackReferenceUI
import AutoTrackRuntime

/// A send-action hook as another SDK would write it from the public API: clicks at
/// `-[UIApplication sendAction:to:from:forEvent:]`, the `BOOL` passed back — and the
/// closure actions (`UIAction`) that never pass there, through the shared wrapper of
/// `-[UIControl sendAction:]`.
final class ApplicationClicks: InterceptionHook {
    let point = InterceptionPoint.sendAction
    let name = "third-party/application-send-action"
    let hookedMethods = [HookedMethod("UIApplication", "sendAction:to:from:forEvent:"), HookedMethod("UIControl", "sendAction:")]

    func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let application = host.runtime.lookUpClass("UIApplication") else { throw .classNotFound(className: "UIApplication") }
        let name = self.name
        return try MethodWrapper.installGroup(name: name, runtime: host.runtime, context: context) { () throws(HookError) -> [HookHandle] in
            let send = try MethodWrapper.install(name: name, runtime: host.runtime, cls: application, selector: hookedMethods[0].selector, context: context) {
                original, hookSwitch in
                let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                return Implementation("\(name) -[UIApplication sendAction:to:from:forEvent:]") { message throws(RuntimeError) in
                    let call = ReferenceHostCapture.SendActionCall.application(message)   // sender, action, event
                    return try interceptor.intercept(dedupe: call.dedupe(receiver: message.receiver), capture: {
                        try call.click(interceptor: interceptor)
                    }, original: original.call(message))
                }
            }
            return [send, try ReferenceHostCapture.wrapClosureSend(name: name, host: host, context: context)]
        }
    }
}
