import AutoTrackHooks
import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
import AutoTrackReferenceUI
import AutoTrackRuntime

/// A gesture hook from the public API: a tracking target attached at
/// `-[UIView addGestureRecognizer:]`, revived for recognizers of an earlier install.
final class RecognizerClicks: InterceptionHook {
    let point = InterceptionPoint.gesture
    let name = "third-party/add-recognizer"
    let hookedMethods = [HookedMethod("UIView", "addGestureRecognizer:")]

    func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let view = host.runtime.lookUpClass("UIView") else { throw .classNotFound(className: "UIView") }
        let name = self.name
        let runtime = host.runtime
        return try MethodWrapper.install(name: name, runtime: runtime, cls: view, selector: "addGestureRecognizer:", context: context) { original, hookSwitch in
            let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
            GestureTracking.revive(in: runtime, interceptor: interceptor)
            // Reuse the shared wrapper: original first, then the tracking target.
            return GestureTracking.attachingAfter(original, name: name, interceptor: interceptor) {
                $0.arguments.first?.object as? GestureRecognizerObject
            }
        }
    }
}
