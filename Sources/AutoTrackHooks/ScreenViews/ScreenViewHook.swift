/// AutoTrackInterception: `HookError`, `HookHandle`, `HookedMethod`, `InteractionContext`, `InterceptionHook` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackModelBackend
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
import AutoTrackRuntime
import Synchronization

/// Screen views at `-[UIViewController viewDidAppear:]`, recorded before the original
/// runs, once per appearance, under the rules of
/// ``ReferenceHostCapture/appearance(of:animated:interceptor:)``:
///
/// - system containers and ignored screens (and their subclasses) are skipped (seed
///   002's blacklist, `TrackingExclusions`);
/// - a child contained in an ordinary screen is not a screen of its own (its parent is);
///   children of navigation, tab and page containers are;
/// - a controller that appears again without having disappeared — the top of a
///   navigation stack after a cancelled swipe back — is not recorded twice:
///   `viewDidDisappear:` is wrapped too, to know;
/// - returning from the background records the visible screen again (seed 002's open
///   problem), since UIKit sends no `viewDidAppear:` then.
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
        return try MethodWrapper.installGroup(name: name, runtime: runtime) { () throws(HookError) -> [HookHandle] in
            let overrides = Overrides(base: base, name: name, context: context)
            let appear = try MethodWrapper.install(name: name, runtime: runtime, cls: base, selector: "viewDidAppear:") { original, hookSwitch in
                let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                ScreenViewTracking.recordOnForeground(of: host, interceptor: interceptor)
                return ScreenViewTracking.appearance(original, name: "\(name) -[UIViewController viewDidAppear:]", interceptor: interceptor)
            }
            let disappear = try MethodWrapper.install(name: name, runtime: runtime, cls: base, selector: "viewDidDisappear:") { original, hookSwitch in
                ScreenViewTracking.disappearance(
                    original, name: "\(name) -[UIViewController viewDidDisappear:]",
                    interceptor: Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name))
            }
            let load = try MethodWrapper.install(name: name, runtime: runtime, cls: base, selector: "viewDidLoad") { original, hookSwitch in
                let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                return Implementation("\(name) -[UIViewController viewDidLoad]") { message throws(RuntimeError) in
                    try interceptor.forward(message) { message in
                        try overrides.wrap(message.receiver.realClass)
                        return message
                    } original: { (message: Message) throws(RuntimeError) in
                        try original.body(message)
                    }
                }
            }
            // Classes that exist already (objc_getClassList): wrap their overrides now, so
            // controllers loaded before the install are recorded first too.
            for className in runtime.classNames {
                guard let candidate = runtime.lookUpClass(className), candidate !== base, candidate.isSubclass(of: base) else { continue }
                try? overrides.wrap(candidate)
            }
            let overridesHandle = HookHandle(name: "\(name)/overrides") { () throws(HookError) -> HookState in
                try overrides.uninstallAll()
            }
            return [appear, disappear, load, overridesHandle]
        }
    }

    /// The wrappers put on app classes that override `viewDidAppear:`.
    final class Overrides: Sendable {
        let handles = Mutex<[String: HookHandle]>([:])
        let base: RuntimeClass
        let name: String
        let context: InteractionContext

        init(base: RuntimeClass, name: String, context: InteractionContext) {
            self.base = base
            self.name = name
            self.context = context
        }

        func wrap(_ real: RuntimeClass) throws(HookError) {
            var current: RuntimeClass? = real
            var steps = 0
            while let cls = current, cls !== base, steps < 64 {
                steps += 1
                current = cls.superclass
                guard cls.runtime.ownMethods(of: cls).contains(where: { $0.selector == "viewDidAppear:" }) else { continue }
                if let existing = handles.withLock({ $0[cls.name] }), existing.state == .installed { continue }
                let name = name
                let context = context
                let handle = try MethodWrapper.install(
                    name: "\(name)/override", runtime: cls.runtime, cls: cls, selector: "viewDidAppear:"
                ) { original, hookSwitch in
                    ScreenViewTracking.appearance(
                        original, name: "\(name) -[\(cls.name) viewDidAppear:]",
                        interceptor: Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name))
                }
                handles.withLock { $0[cls.name] = handle }
            }
        }

        func uninstallAll() throws(HookError) -> HookState {
            var state = HookState.uninstalled
            for (_, handle) in handles.withLock({ $0 }) {
                try handle.uninstall()
                if handle.state == .passThrough { state = .passThrough }
            }
            handles.withLock { $0.removeAll() }
            return state
        }
    }
}
