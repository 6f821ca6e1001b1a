/// AutoTrackInterception: `HookError`, `HookHandle`, `HookedMethod`, `InteractionContext`, `InterceptionHook` … appear in this file's public API.
public import AutoTrackInterception
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI

/// A hook under test: how to install it on a reference host, and the framework methods
/// it declares it wraps.
///
/// The declaration is checked, not trusted: on every run the kit compares it with the
/// methods that installing actually changed (``ScenarioRun/install()``), and scenarios
/// that stack other libraries' hooks stack them on exactly these methods — so a wrong
/// list is a violation, never a silently weaker test.
public struct ConformanceSubject: Sendable, CustomStringConvertible {
    /// The hook's name, e.g. `delegate-selection/proxy`.
    public let name: String
    /// Its interception point.
    public let point: InterceptionPoint
    /// The framework methods it declares it wraps.
    public let hookedMethods: [HookedMethod]
    let installer: @Sendable (ReferenceHost, InteractionContext) throws(HookError) -> HookHandle

    /// A subject from an install function and its declaration (for hooks that are not
    /// an `InterceptionHook`, such as the kit's mutants).
    public init(
        name: String, point: InterceptionPoint, hookedMethods: [HookedMethod],
        install: @escaping @Sendable (ReferenceHost, InteractionContext) throws(HookError) -> HookHandle
    ) {
        self.name = name
        self.point = point
        self.hookedMethods = hookedMethods
        installer = install
    }

    /// A subject from a hook on the reference host, with the methods it declares.
    public init(_ hook: some InterceptionHook<ReferenceHost>) {
        self.init(name: hook.name, point: hook.point, hookedMethods: hook.hookedMethods) { host, context throws(HookError) in
            try hook.install(on: host, context: context)
        }
    }

    /// A subject from a type-erased hook on the reference host.
    public init(any hook: any InterceptionHook<ReferenceHost>) {
        self.init(name: hook.name, point: hook.point, hookedMethods: hook.hookedMethods) { host, context throws(HookError) in
            try hook.install(on: host, context: context)
        }
    }

    /// Installs the hook.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        try installer(host, context)
    }

    /// The name.
    public var description: String { name }
}
