/// AutoTrackHooks: `AddGestureRecognizerHook`, `AlertActionBlockHook`, `ApplicationSendActionHook`, `ControlSendActionHook` … appear in this file's public API.
public import AutoTrackHooks
/// AutoTrackInterception: `HookError`, `HookHandle`, `InteractionContext`, `InterceptionPoint` appear in this file's public API.
public import AutoTrackInterception
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI

/// A hook under test: how to install it on a reference host, and which methods it
/// hooks (so scenarios can stack other libraries' hooks on the same methods).
public struct ConformanceSubject: Sendable, CustomStringConvertible {
    /// A method a hook intercepts.
    public struct HookedMethod: Sendable, Hashable {
        /// The class name.
        public var className: String
        /// The selector name.
        public var selector: String
        /// Whether it is a class method.
        public var isClassMethod: Bool

        /// Creates a description.
        public init(_ className: String, _ selector: String, isClassMethod: Bool = false) {
            self.className = className
            self.selector = selector
            self.isClassMethod = isClassMethod
        }
    }

    /// The hook's name, e.g. `delegate-selection/proxy`.
    public let name: String
    /// Its interception point.
    public let point: InterceptionPoint
    /// The methods it wraps.
    public let hookedMethods: [HookedMethod]
    let installer: @Sendable (ReferenceHost, InteractionContext) throws(HookError) -> HookHandle

    /// A subject from an install function.
    public init(
        name: String, point: InterceptionPoint, hookedMethods: [HookedMethod],
        install: @escaping @Sendable (ReferenceHost, InteractionContext) throws(HookError) -> HookHandle
    ) {
        self.name = name
        self.point = point
        self.hookedMethods = hookedMethods
        installer = install
    }

    /// A subject from a hook.
    public init(_ hook: some InterceptionHookInstaller, hookedMethods: [HookedMethod]) {
        self.init(name: hook.name, point: hook.point, hookedMethods: hookedMethods) { host, context throws(HookError) in
            try hook.install(on: host, context: context)
        }
    }

    /// Installs the hook.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        try installer(host, context)
    }

    /// The name.
    public var description: String { name }

    /// Every built-in hook, with the methods it wraps.
    public static let builtIn: [ConformanceSubject] = [
        ConformanceSubject(ControlSendActionHook(), hookedMethods: [.init("UIControl", "sendAction:to:forEvent:")]),
        ConformanceSubject(ApplicationSendActionHook(), hookedMethods: [.init("UIApplication", "sendAction:to:from:forEvent:")]),
        ConformanceSubject(GestureTargetHook(), hookedMethods: [
            .init("UIGestureRecognizer", "initWithTarget:action:"), .init("UIGestureRecognizer", "addTarget:action:"),
        ]),
        ConformanceSubject(AddGestureRecognizerHook(), hookedMethods: [.init("UIView", "addGestureRecognizer:")]),
        ConformanceSubject(AlertActionBlockHook(), hookedMethods: [
            .init("UIAlertAction", "actionWithTitle:style:handler:", isClassMethod: true), .init("UIAlertController", "addAction:"),
        ]),
        ConformanceSubject(ExchangeDelegateHook(), hookedMethods: [.init("UITableView", "setDelegate:")]),
        ConformanceSubject(SubclassDelegateHook(), hookedMethods: [.init("UITableView", "setDelegate:")]),
        ConformanceSubject(ProxyDelegateHook(), hookedMethods: [.init("UITableView", "setDelegate:")]),
        ConformanceSubject(ScreenViewAppearHook(), hookedMethods: [.init("UIViewController", "viewDidAppear:")]),
    ]
}
