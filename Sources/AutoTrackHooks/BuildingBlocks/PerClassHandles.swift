import AutoTrackInterception
import AutoTrackLocking

/// The wrappers a hook installs class by class as it meets them — overrides of a
/// method, the classes of delegates — kept by class name, and one handle that
/// uninstalls them all (a pass-through when another library stacked on one).
final class PerClassHandles: Sendable {
    private let handles = Locked<[String: HookHandle]>([:])

    /// Whether the class named `className` has a wrapper installed now.
    func isInstalled(_ className: String) -> Bool {
        handles.withLock { $0[className] }?.state == .installed
    }

    /// Keeps the wrapper of the class named `className`.
    func keep(_ handle: HookHandle, for className: String) {
        handles.withLock { $0[className] = handle }
    }

    /// A handle named `name` that uninstalls every wrapper kept, and forgets them.
    func handle(named name: String) -> HookHandle {
        HookHandle(name: name) { () throws(HookError) -> HookState in
            var state = HookState.uninstalled
            for (_, handle) in self.handles.withLock({ $0 }) {
                try handle.uninstall()
                if handle.state == .passThrough { state = .passThrough }
            }
            self.handles.withLock { $0.removeAll() }
            return state
        }
    }
}
