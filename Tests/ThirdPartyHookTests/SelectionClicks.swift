import AutoTrackHooks
import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
import AutoTrackReferenceUI
import AutoTrackRuntime
import AutoTrackLocking

/// A delegate-selection hook from the public API: at `setDelegate:`, the `didSelect…`
/// of the class that really implements it (below any KVO class) is wrapped in place
/// (add-then-wrap).
final class SelectionClicks: InterceptionHook {
    let point = InterceptionPoint.delegateSelection
    let name = "third-party/delegate-wrap"
    let hookedMethods = DelegateInterposition.setDelegateMethods

    func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        let name = self.name
        let runtime = host.runtime
        // Per runtime, not per call: a reinstall that re-enables a pass-through runs the
        // wrappers of the first installation, which must find what this one uninstalls.
        let wrapped = PerRuntimeState.object("third-party/delegate-wrap.wrapped", in: runtime) { WrappedHandles() }
        let group = try MethodWrapper.installGroup(name: name, runtime: runtime, context: context) { () throws(HookError) -> [HookHandle] in
            let delegates = HookHandle(name: "\(name)/delegates") { () throws(HookError) -> HookState in
                let handles = wrapped.handles.withLock { handles in
                    defer { handles = [] }
                    return handles
                }
                for handle in handles { try handle.uninstall() }
                return handles.contains { $0.state == .passThrough } ? .passThrough : .uninstalled
            }
            let setters = try DelegateInterposition.wrapSetDelegate(name: name, host: host, context: context) { _, delegate, _ in
                guard let delegate else { return nil }
                for selector in DelegateInterposition.selectors {
                    guard let implementor = DelegateInterposition.implementor(of: selector, for: delegate, runtime: runtime) else { continue }
                    let handle = try MethodWrapper.install(
                        name: "\(name)/didSelect", runtime: runtime,
                        cls: DelegateInterposition.wrappableClass(of: implementor, runtime: runtime), selector: selector.name,
                        context: context
                    ) { original, hookSwitch in
                        let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                        return Implementation("\(name) \(selector)") { message throws(RuntimeError) in
                            try interceptor.intercept(dedupe: .reentrancy(ReferenceHostCapture.selectionKey(for: message)), capture: {
                                try ReferenceHostCapture.selectionClick(message, interceptor: interceptor)
                            }, original: original.call(message))
                        }
                    }
                    wrapped.handles.withLock { handles in if !handles.contains(where: { $0 === handle }) { handles.append(handle) } }
                }
                return delegate
            }
            return [delegates] + setters
        }
        DelegateInterposition.rehook(in: runtime, name: name)
        return group
    }
}

/// The `didSelect…` wrappers a delegate-selection hook installed on a runtime.
final class WrappedHandles: Sendable {
    let handles = Locked<[HookHandle]>([])
}
