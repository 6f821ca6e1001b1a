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
                    if cls === base {
                        host.addObserver(for: .willEnterForeground) { [weak host] _ in
                            guard let visible = host?.visibleController else { return }
                            interceptor.intercept {
                                ReferenceHostCapture.screenView(of: visible, animated: nil, reason: "foreground", interceptor: interceptor)
                            } original: {}
                        }
                    }
                    return Implementation("\(name) -[\(cls.name) viewDidAppear:]") { message throws(RuntimeError) in
                        try interceptor.intercept(dedupe: .reentrancy(ReferenceHostCapture.appearanceKey(message.receiver))) {
                            guard let controller = message.receiver as? ViewControllerObject else { return nil }
                            return try ReferenceHostCapture.appearance(of: controller, animated: nil, interceptor: interceptor)
                        } original: { () throws(RuntimeError) in
                            try original.body(message)
                        }
                    }
                }
            }
            let disappear = try MethodWrapper.install(name: name, runtime: runtime, cls: base, selector: "viewDidDisappear:") { original, hookSwitch in
                let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                return Implementation("\(name) -[UIViewController viewDidDisappear:]") { message throws(RuntimeError) in
                    try interceptor.forward(message) { message in
                        ReferenceHostCapture.noteDisappeared(message.receiver)
                        return message
                    } original: { (message: Message) throws(RuntimeError) in
                        try original.body(message)
                    }
                }
            }
            return appear + [disappear]
        }
    }
}
