import AutoTrackHooks
import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
import AutoTrackReferenceUI
import AutoTrackRuntime

/// A screen-view hook from the public API: `viewDidAppear:` of `UIViewController` and
/// of every app class overriding it (so the view is recorded before the override's
/// code; classes registered later are wrapped at `viewDidLoad`), `viewDidDisappear:`
/// to know a controller left, and the foreground.
final class ScreenViews: InterceptionHook {
    let point = InterceptionPoint.screenView
    let name = "third-party/screen-views"
    let hookedMethods = ["viewDidAppear:", "viewDidDisappear:", "viewDidLoad"].map { HookedMethod("UIViewController", $0) }

    func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let base = host.runtime.lookUpClass("UIViewController") else { throw .classNotFound(className: "UIViewController") }
        let name = self.name
        let runtime = host.runtime
        return try MethodWrapper.installGroup(name: name, runtime: runtime, context: context) { () throws(HookError) -> [HookHandle] in
            let overrides = ScreenViewTracking.AppearanceOverrides(base: base, name: name, context: context)
            let appear = try MethodWrapper.install(name: name, runtime: runtime, cls: base, selector: "viewDidAppear:", context: context) { original, hookSwitch in
                let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                ScreenViewTracking.recordOnForeground(of: host, interceptor: interceptor)
                return ScreenViewTracking.appearance(original, name: name, interceptor: interceptor)
            }
            let disappear = try MethodWrapper.install(name: name, runtime: runtime, cls: base, selector: "viewDidDisappear:", context: context) { original, hookSwitch in
                ScreenViewTracking.disappearance(original, name: name, interceptor: Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name))
            }
            let load = try MethodWrapper.install(name: name, runtime: runtime, cls: base, selector: "viewDidLoad", context: context) { original, hookSwitch in
                overrides.wrappingOnLoad(original, interceptor: Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name))
            }
            overrides.wrapExisting()
            return [appear, disappear, load, overrides.handle]
        }
    }
}
