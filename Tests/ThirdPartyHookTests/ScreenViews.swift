import AutoTrackHooks
import AutoTrackInterception
import AutoTrackModelBackend
import AutoTrackReferenceUI
import AutoTrackRuntime

/// A screen-view hook from the public API: `viewDidAppear:` of `UIViewController` and
/// of every app class overriding it (so the view is recorded before the override's
/// code), `viewDidDisappear:` to know a controller left, and the foreground.
final class ScreenViews: InterceptionHook {
    let point = InterceptionPoint.screenView
    let name = "third-party/screen-views"
    let hookedMethods = ["viewDidAppear:", "viewDidDisappear:"].map { HookedMethod("UIViewController", $0) }

    func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let base = host.runtime.lookUpClass("UIViewController") else { throw .classNotFound(className: "UIViewController") }
        let name = self.name
        let runtime = host.runtime
        let overriding = runtime.classNames.compactMap { runtime.lookUpClass($0) }.filter { (cls: RuntimeClass) -> Bool in
            cls.isSubclass(of: base) && !host.frameworkClassNames.contains(cls.name)
                && runtime.ownMethods(of: cls).contains { $0.selector == "viewDidAppear:" }
        }
        return try MethodWrapper.installGroup(name: name, runtime: runtime) { () throws(HookError) -> [HookHandle] in
            let appear = try ([base] + overriding).map { (cls: RuntimeClass) throws(HookError) -> HookHandle in
                try MethodWrapper.install(name: name, runtime: runtime, cls: cls, selector: "viewDidAppear:") { original, hookSwitch in
                    let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                    if cls === base { ScreenViewTracking.recordOnForeground(of: host, interceptor: interceptor) }
                    return ScreenViewTracking.appearance(original, name: "\(name) -[\(cls.name) viewDidAppear:]", interceptor: interceptor)
                }
            }
            let disappear = try MethodWrapper.install(name: name, runtime: runtime, cls: base, selector: "viewDidDisappear:") { original, hookSwitch in
                ScreenViewTracking.disappearance(original, name: name, interceptor: Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name))
            }
            return appear + [disappear]
        }
    }
}
