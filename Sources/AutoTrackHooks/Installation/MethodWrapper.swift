/// AutoTrackInterception: `HookError`, `HookHandle` appear in this file's public API.
public import AutoTrackInterception
/// AutoTrackRuntime: `Implementation`, `Runtime`, `RuntimeClass`, `Selector` appear in this file's public API.
public import AutoTrackRuntime
import Synchronization

/// Installs a wrapper around one method's implementation (capturing the original
/// implementation, as `method_setImplementation`-style hooks do) with the lifecycle
/// every built-in hook needs:
///
/// - **idempotent** — a second install, from any number of threads at once, returns the
///   first installation's handle;
/// - **restoring** — uninstall puts the original implementation back when ours is still
///   the one installed;
/// - **coexisting** — when another library stacked a hook on ours afterwards, uninstall
///   leaves ours in the chain as a pass-through (so theirs still reaches the original),
///   and a reinstall turns it back on;
/// - **transparent** — the original runs with the caller's receiver, selector and
///   arguments, and its result is returned unchanged.
///
/// The registry of installations lives in the runtime (an associated object on its
/// root class), so separate runtimes never share hooks.
public enum MethodWrapper {
    /// A live installation.
    final class Installation: Sendable {
        let method: RuntimeMethod
        let original: Implementation
        let wrapper: Implementation
        let handle: HookHandle
        let flag: EnabledFlag

        init(method: RuntimeMethod, original: Implementation, wrapper: Implementation, handle: HookHandle, flag: EnabledFlag) {
            self.method = method
            self.original = original
            self.wrapper = wrapper
            self.handle = handle
            self.flag = flag
        }
    }

    final class Registry: Sendable {
        let installations = Mutex<[String: Installation]>([:])
        let groups = Mutex<[String: Group]>([:])
    }

    /// A group installation: one handle over member handles that a reinstall may
    /// replace.
    final class Group: Sendable {
        final class Members: Sendable {
            let handles: Mutex<[HookHandle]>
            init(_ handles: [HookHandle]) { self.handles = Mutex(handles) }
        }
        let members: Members
        let handle: HookHandle

        init(name: String, members initial: [HookHandle]) {
            let members = Members(initial)
            self.members = members
            handle = HookHandle(name: name) { () throws(HookError) -> HookState in
                let current = members.handles.withLock { $0 }
                var passThrough = false
                for member in current.reversed() {
                    try member.uninstall()
                    if member.state == .passThrough { passThrough = true }
                }
                return passThrough ? .passThrough : .uninstalled
            }
        }
    }

    /// A boolean shared between an installation and its wrapper closure.
    public final class EnabledFlag: Sendable {
        let value = Atomic<Bool>(true)

        /// Whether the wrapper intercepts (`false`: pass straight through).
        public var isOn: Bool { value.load(ordering: .acquiring) }
    }

    private static let registryKey = AssociationKey("AutoTrackHooks.methodWrappers")
    private static let registryCreation = Mutex<Void>(())

    static func registry(of runtime: Runtime) -> Registry {
        registryCreation.withLock { _ in
            if let existing = runtime.associatedObject(for: registryKey, on: runtime.rootClass) as? Registry { return existing }
            let created = Registry()
            runtime.setAssociatedObject(created, for: registryKey, on: runtime.rootClass)
            return created
        }
    }

    /// Wraps `selector` of `cls` under the installation name `name`.
    ///
    /// When `cls` only inherits the method, a method of its own with the inherited
    /// implementation is added first (add-then-wrap), so superclasses and sibling
    /// classes are never touched.
    /// - Parameter makeWrapper: builds the wrapper from the original implementation and
    ///   the flag saying whether to intercept.
    public static func install(
        name: String, runtime: Runtime, cls: RuntimeClass, selector: Selector,
        makeWrapper: (_ original: Implementation, _ flag: EnabledFlag) -> Implementation
    ) throws(HookError) -> HookHandle {
        let registry = registry(of: runtime)
        let key = "\(name)|\(cls.name)|\(selector)"
        return try registry.installations.withLock { (installations: inout [String: Installation]) throws(HookError) -> HookHandle in
            if let existing = installations[key] {
                switch existing.handle.state {
                case .installed:
                    return existing.handle
                case .passThrough:
                    existing.flag.value.store(true, ordering: .releasing)
                    existing.handle.markInstalled()
                    return existing.handle
                case .uninstalled:
                    installations[key] = nil
                }
            }
            guard let found = runtime.method(selector, in: cls) else { throw .missingTarget("\(cls.name) \(selector)") }
            if found.owner !== cls {
                runtime.addMethod(to: cls, selector, found.implementation, types: found.typeEncoding)
            }
            guard let method = runtime.method(selector, in: cls), method.owner === cls else {
                throw .runtimeRefused("adding \(selector) to \(cls.name)")
            }
            let flag = EnabledFlag()
            let original = method.implementation
            let wrapper = makeWrapper(original, flag)
            runtime.setImplementation(of: method, to: wrapper)
            let handle = HookHandle(name: name) { () throws(HookError) -> HookState in
                // Whatever else holds the flag (trackers, proxies, subclasses) stops too.
                flag.value.store(false, ordering: .releasing)
                if method.implementation === wrapper {
                    runtime.setImplementation(of: method, to: original)
                    return .uninstalled
                }
                return .passThrough
            }
            installations[key] = Installation(method: method, original: original, wrapper: wrapper, handle: handle, flag: flag)
            return handle
        }
    }

    /// Installs a group of wrappers as one hook with one handle: a second install of
    /// the same group name returns the same handle (re-enabling it if it had become a
    /// pass-through); uninstalling it removes every member, in reverse order.
    public static func installGroup(
        name: String, runtime: Runtime, install: () throws(HookError) -> [HookHandle]
    ) throws(HookError) -> HookHandle {
        let registry = registry(of: runtime)
        return try registry.groups.withLock { (groups: inout [String: Group]) throws(HookError) -> HookHandle in
            if let existing = groups[name], existing.handle.state != .uninstalled {
                if existing.handle.state == .passThrough {
                    let members = try install()
                    existing.members.handles.withLock { $0 = members }
                    existing.handle.markInstalled()
                }
                return existing.handle
            }
            let group = Group(name: name, members: try install())
            groups[name] = group
            return group.handle
        }
    }
}
