/// AutoTrackInterception: `HookError`, `HookHandle`, `HookState`, `HookSwitch` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackLocking

/// Installs a wrapper around one method's implementation (capturing the original
/// implementation, as `method_setImplementation`-style hooks do) with the lifecycle
/// every hook needs, on any ``RuntimeOperations`` backend:
///
/// - **idempotent** — a second install, from any number of threads at once, returns the
///   first installation's handle;
/// - **restoring** — uninstall puts the original implementation back when ours is still
///   the one installed;
/// - **coexisting** — when another library stacked a hook on ours afterwards, uninstall
///   leaves ours in the chain as a pass-through (so theirs still reaches the original),
///   and a reinstall turns it back on;
/// - **add-then-wrap** — a class that only inherits the method first gets a method of
///   its own with the inherited implementation, so superclasses and siblings are never
///   touched.
///
/// The wrapper itself calls the original through
/// `Interceptor.intercept(dedupe:capture:original:)`, which makes it transparent: the
/// original runs once with the caller's receiver, selector and arguments, and its result
/// is returned unchanged.
///
/// The registry of installations lives in the runtime (an associated object on its
/// root class), so separate runtimes never share hooks.
public enum MethodWrapper {
    /// A live installation.
    final class Installation<Runtime: RuntimeOperations>: Sendable {
        let method: Runtime.Method
        let original: Runtime.Implementation
        let wrapper: Runtime.Implementation
        let handle: HookHandle
        let hookSwitch: HookSwitch
        /// The context the wrapper reports to, when the installer said (`nil`: not said).
        let context: InteractionContext?

        init(
            method: Runtime.Method, original: Runtime.Implementation, wrapper: Runtime.Implementation, handle: HookHandle, hookSwitch: HookSwitch,
            context: InteractionContext?
        ) {
            self.method = method
            self.original = original
            self.wrapper = wrapper
            self.handle = handle
            self.hookSwitch = hookSwitch
            self.context = context
        }
    }

    final class Registry: Sendable {
        let installations = Locked<[String: any Sendable]>([:])
        let groups = Locked<[String: Group]>([:])
    }

    /// A group installation: one handle over member handles that a reinstall may
    /// replace.
    final class Group: Sendable {
        final class Members: Sendable {
            let handles: Locked<[HookHandle]>
            init(_ handles: [HookHandle]) { self.handles = Locked(handles) }
        }
        let members: Members
        let handle: HookHandle
        /// The context the installation in force reports to (`nil`: not said).
        let context = Locked<InteractionContext?>(nil)

        init(name: String, members initial: [HookHandle]) {
            let members = Members(initial)
            self.members = members
            handle = HookHandle(name: name, members: {
                let states = members.handles.withLock { $0 }.map(\.state)
                return states.allSatisfy { $0 == .uninstalled } ? .uninstalled : .passThrough
            }) { () throws(HookError) -> HookState in
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

    private static let registryKey = "AutoTrackInterception.methodWrappers"
    private static let registryCreation = Locked<Void>(())

    static func registry<Runtime: RuntimeOperations>(of runtime: Runtime) -> Registry {
        registryCreation.withLock { _ in
            if let existing = runtime.associatedObject(for: registryKey, onClass: runtime.rootClass) as? Registry { return existing }
            let created = Registry()
            runtime.setAssociatedObject(created, for: registryKey, onClass: runtime.rootClass)
            return created
        }
    }

    /// Wraps `selector` of `cls` (of its metaclass when `isClassMethod`) under the
    /// installation name `name`.
    ///
    /// - Parameters:
    ///   - name: the installation's name; installs of the same name, class and
    ///     selector are one installation.
    ///   - runtime: the runtime backend.
    ///   - cls: the class whose method to wrap.
    ///   - selector: the method's selector.
    ///   - isClassMethod: whether to wrap the class method (on the metaclass).
    ///   - context: the context the wrapper reports to. While an installation of this
    ///     name is in the chain (installed, or left as a pass-through), installing it
    ///     for another context throws `HookError.installedForAnotherContext(hookName:)`.
    ///   - makeWrapper: builds the wrapper from the original implementation — to be
    ///     bound to each call and handed to the combinator, which runs it exactly once —
    ///     and the installation's switch. Called once per effective installation.
    /// - Returns: the installation's handle (the existing one on a second install).
    /// - Throws: `HookError.methodNotFound(className:selector:isClassMethod:)` when
    ///   the class neither has nor inherits the method.
    public static func install<Runtime: RuntimeOperations>(
        name: String, runtime: Runtime, cls: Runtime.Class, selector: String, isClassMethod: Bool = false, context: InteractionContext? = nil,
        makeWrapper: (_ original: OriginalImplementation<Runtime.Implementation>, _ hookSwitch: HookSwitch) -> Runtime.Implementation
    ) throws(HookError) -> HookHandle {
        let registry = registry(of: runtime)
        let target = isClassMethod ? runtime.metaclass(of: cls) : cls
        let className = runtime.name(of: cls)
        let key = "\(name)|\(isClassMethod ? "+" : "-")\(className)|\(selector)"
        return try registry.installations.withLock { (installations: inout [String: any Sendable]) throws(HookError) -> HookHandle in
            if let existing = installations[key] as? Installation<Runtime> {
                // The wrapper in the chain reports to the context it was made for: another
                // context would never receive anything from it.
                if existing.handle.state != .uninstalled, let context, let owner = existing.context, owner !== context {
                    throw .installedForAnotherContext(hookName: name)
                }
                switch existing.handle.state {
                case .installed:
                    return existing.handle
                case .passThrough:
                    existing.hookSwitch.set(true)
                    existing.handle.markInstalled()
                    return existing.handle
                case .uninstalled:
                    installations[key] = nil
                }
            }
            guard let found = runtime.method(named: selector, in: target) else {
                throw .methodNotFound(className: className, selector: selector, isClassMethod: isClassMethod)
            }
            if runtime.ownMethod(named: selector, in: target) == nil {
                runtime.addMethod(to: target, selector: selector, implementation: runtime.implementation(of: found), types: runtime.typeEncoding(of: found))
            }
            guard let method = runtime.ownMethod(named: selector, in: target) else {
                throw .methodNotAdded(className: className, selector: selector)
            }
            let hookSwitch = HookSwitch()
            let original = runtime.implementation(of: method)
            let wrapper = makeWrapper(OriginalImplementation(original), hookSwitch)
            runtime.setImplementation(of: method, to: wrapper)
            let handle = HookHandle(name: name) { () throws(HookError) -> HookState in
                // Whatever else holds the switch (trackers, proxies, subclasses) stops too.
                hookSwitch.set(false)
                guard runtime.isSame(runtime.implementation(of: method), wrapper) else { return .passThrough }
                runtime.setImplementation(of: method, to: original)
                unwindPassThroughs(on: method, runtime: runtime, registry: registry)
                return .uninstalled
            }
            installations[key] = Installation<Runtime>(
                method: method, original: original, wrapper: wrapper, handle: handle, hookSwitch: hookSwitch, context: context)
            return handle
        }
    }

    /// After a wrapper of ours was taken out: when what is now installed is the wrapper
    /// of another installation of ours that was left as a pass-through (it was under
    /// this one), take that out too, down to the first wrapper that is not ours or
    /// still installed — so two hooks of ours on one method, uninstalled in any order,
    /// leave the original.
    static func unwindPassThroughs<Runtime: RuntimeOperations>(on method: Runtime.Method, runtime: Runtime, registry: Registry) {
        for _ in 0..<16 {
            let current = runtime.implementation(of: method)
            let under = registry.installations.withLock { installations in
                installations.values.compactMap { $0 as? Installation<Runtime> }.first {
                    $0.method === method && runtime.isSame($0.wrapper, current) && $0.handle.state == .passThrough
                }
            }
            guard let under else { return }
            runtime.setImplementation(of: method, to: under.original)
            under.handle.markUninstalled()
        }
    }

    /// Installs a group of wrappers as one hook with one handle: a second install of
    /// the same group name returns the same handle (re-enabling it if it had become a
    /// pass-through); uninstalling it removes every member, in reverse order.
    ///
    /// - Parameters:
    ///   - name: the group's name; installs of the same name are one installation.
    ///   - runtime: the runtime backend.
    ///   - context: the context the installation reports to. A second install for
    ///     another context while the first is in the chain (installed, or left as a
    ///     pass-through) throws `HookError.installedForAnotherContext(hookName:)` rather
    ///     than hand back an installation whose interactions the caller would never
    ///     receive.
    ///   - install: installs the members, on a first install or a re-enable.
    public static func installGroup<Runtime: RuntimeOperations>(
        name: String, runtime: Runtime, context: InteractionContext? = nil, install: () throws(HookError) -> [HookHandle]
    ) throws(HookError) -> HookHandle {
        let registry = registry(of: runtime)
        return try registry.groups.withLock { (groups: inout [String: Group]) throws(HookError) -> HookHandle in
            if let existing = groups[name], existing.handle.state != .uninstalled {
                if let context, let owner = existing.context.withLock({ $0 }), owner !== context {
                    throw .installedForAnotherContext(hookName: name)
                }
                if existing.handle.state == .passThrough {
                    let members = try install()
                    existing.members.handles.withLock { $0 = members }
                    existing.handle.markInstalled()
                }
                return existing.handle
            }
            let group = Group(name: name, members: try install())
            group.context.withLock { $0 = context }
            groups[name] = group
            return group.handle
        }
    }
}
