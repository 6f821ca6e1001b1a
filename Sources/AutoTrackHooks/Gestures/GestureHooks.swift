/// AutoTrackInterception: `HookError`, `HookHandle`, `HookedMethod`, `InteractionContext`, `InterceptionHook` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
import AutoTrackRuntime

/// The first point of attack (ARCHITECTURE.md, “Gesture target-actions”): `initWithTarget:action:` and `addTarget:action:` of
/// `UIGestureRecognizer`. After the original registers the app's pair (with the app's
/// exact arguments), a tracking target is put first in the recognizer's list
/// (``GestureTracking``). Recognizers made with plain `init` (storyboards) are covered
/// at their first `addTarget:action:`.
public final class GestureTargetHook: InterceptionHook {
    /// `.gesture`.
    public let point = InterceptionPoint.gesture
    /// `gesture/target-action`.
    public let name = "gesture/target-action"
    /// `-[UIGestureRecognizer initWithTarget:action:]` and `-[UIGestureRecognizer addTarget:action:]`.
    public let hookedMethods = [
        HookedMethod("UIGestureRecognizer", "initWithTarget:action:"), HookedMethod("UIGestureRecognizer", "addTarget:action:"),
    ]

    /// Creates the hook.
    public init() {}

    /// Wraps `initWithTarget:action:` and `addTarget:action:`.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let cls = host.runtime.lookUpClass("UIGestureRecognizer") else { throw .classNotFound(className: "UIGestureRecognizer") }
        let name = self.name
        let runtime = host.runtime
        return try MethodWrapper.installGroup(name: name, runtime: runtime, context: context) { () throws(HookError) -> [HookHandle] in
            let handles = try hookedMethods.map { (hooked: HookedMethod) throws(HookError) -> HookHandle in
                try MethodWrapper.install(name: name, runtime: runtime, cls: cls, selector: hooked.selector, context: context) { original, hookSwitch in
                    let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                    GestureTracking.revive(in: runtime, interceptor: interceptor)
                    return GestureTracking.attachingAfter(
                        original, name: "\(name) -[UIGestureRecognizer \(hooked.selector)]", interceptor: interceptor
                    ) { $0.receiver as? GestureRecognizerObject }
                }
            }
            return handles
        }
    }
}

/// The second point of attack (ARCHITECTURE.md, “Gesture target-actions”): `-[UIView addGestureRecognizer:]`. When a tap or
/// long-press recognizer is attached to a view, a tracking target is put first in its
/// list (``GestureTracking``).
public final class AddGestureRecognizerHook: InterceptionHook {
    /// `.gesture`.
    public let point = InterceptionPoint.gesture
    /// `gesture/add-recognizer`.
    public let name = "gesture/add-recognizer"
    /// `-[UIView addGestureRecognizer:]`.
    public let hookedMethods = [HookedMethod("UIView", "addGestureRecognizer:")]

    /// Creates the hook.
    public init() {}

    /// Wraps `UIView addGestureRecognizer:`.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let cls = host.runtime.lookUpClass("UIView") else { throw .classNotFound(className: "UIView") }
        let name = self.name
        let runtime = host.runtime
        return try MethodWrapper.install(name: name, runtime: runtime, cls: cls, selector: "addGestureRecognizer:", context: context) { original, hookSwitch in
            let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
            GestureTracking.revive(in: runtime, interceptor: interceptor)
            return GestureTracking.attachingAfter(original, name: "\(name) -[UIView addGestureRecognizer:]", interceptor: interceptor) {
                $0.arguments.first?.object as? GestureRecognizerObject
            }
        }
    }
}
