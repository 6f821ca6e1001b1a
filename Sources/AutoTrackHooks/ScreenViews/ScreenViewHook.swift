/// AutoTrackInterception: `HookError`, `HookHandle`, `HookedMethod`, `InteractionContext`, `InterceptionHook` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
import AutoTrackRuntime

/// Screen views at `-[UIViewController viewDidAppear:]`, recorded before the original
/// runs, once per appearance, under the rules of
/// ``ReferenceHostCapture/appearance(of:animated:interceptor:)``:
///
/// - system containers and ignored screens (and their subclasses) are skipped
///   (ARCHITECTURE.md, “Screen ignore list”; `TrackingExclusions`);
/// - a child contained in an ordinary screen is not a screen of its own (its parent is);
///   children of navigation, tab and page containers are;
/// - a controller that appears again without having disappeared — the top of a
///   navigation stack after a cancelled swipe back — is not recorded twice:
///   `viewDidDisappear:` is wrapped too, to know;
/// - returning from the background records the visible screen again (a problem the
///   tutorials leave open), since UIKit sends no `viewDidAppear:` then.
public final class ScreenViewAppearHook: InterceptionHook {
    /// `.screenView`.
    public let point = InterceptionPoint.screenView
    /// `screen-view/view-did-appear`.
    public let name = "screen-view/view-did-appear"
    /// `viewDidAppear:`, `viewDidDisappear:` and `viewDidLoad` of `UIViewController`.
    public let hookedMethods = ["viewDidAppear:", "viewDidDisappear:", "viewDidLoad"].map { HookedMethod("UIViewController", $0) }

    /// Creates the hook.
    public init() {}

    /// Wraps `viewDidAppear:`, `viewDidDisappear:` and `viewDidLoad` of
    /// `UIViewController`, and `viewDidAppear:` of every app controller class that
    /// overrides it — those that exist at install time, and later ones at their first
    /// `viewDidLoad` — so the screen view is recorded before the override's own code;
    /// observes foregrounding.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let base = host.runtime.lookUpClass("UIViewController") else { throw .classNotFound(className: "UIViewController") }
        let name = self.name
        let runtime = host.runtime
        return try MethodWrapper.installGroup(name: name, runtime: runtime, context: context) { () throws(HookError) -> [HookHandle] in
            let overrides = ScreenViewTracking.AppearanceOverrides(base: base, name: name, context: context)
            let appear = try MethodWrapper.install(name: name, runtime: runtime, cls: base, selector: "viewDidAppear:", context: context) { original, hookSwitch in
                let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                ScreenViewTracking.recordOnForeground(of: host, interceptor: interceptor)
                return ScreenViewTracking.appearance(original, name: "\(name) -[UIViewController viewDidAppear:]", interceptor: interceptor)
            }
            let disappear = try MethodWrapper.install(name: name, runtime: runtime, cls: base, selector: "viewDidDisappear:", context: context) { original, hookSwitch in
                ScreenViewTracking.disappearance(
                    original, name: "\(name) -[UIViewController viewDidDisappear:]",
                    interceptor: Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name))
            }
            let load = try MethodWrapper.install(name: name, runtime: runtime, cls: base, selector: "viewDidLoad", context: context) { original, hookSwitch in
                overrides.wrappingOnLoad(original, interceptor: Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name))
            }
            overrides.wrapExisting()
            return [appear, disappear, load, overrides.handle]
        }
    }
}
