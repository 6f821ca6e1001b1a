import AutoTrackLocking

/// Why a hook could not be installed or removed.
public enum HookError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The host has no class of this name.
    case classNotFound(className: String)
    /// The class neither has nor inherits a method with this selector.
    case methodNotFound(className: String, selector: String, isClassMethod: Bool)
    /// The runtime did not add the method to the class (`class_addMethod` answered no
    /// and the class still has no method of its own).
    case methodNotAdded(className: String, selector: String)
    /// The runtime did not create or register a class the hook needs.
    case classNotCreated(className: String, reason: String)
    /// The hook is already installed on this host for another context (another
    /// tracker): one installation reports to one context. Uninstall it first.
    case installedForAnotherContext(hookName: String)

    /// What went wrong.
    public var description: String {
        switch self {
        case .classNotFound(let className): "the host has no class \(className) to hook"
        case .methodNotFound(let className, let selector, let isClassMethod):
            "\(className) has no method \(isClassMethod ? "+" : "-")\(selector) to hook"
        case .methodNotAdded(let className, let selector): "the runtime did not add \(selector) to \(className)"
        case .classNotCreated(let className, let reason): "the runtime did not create \(className): \(reason)"
        case .installedForAnotherContext(let hookName):
            "\(hookName) is installed on this host for another context; uninstall it before installing it for this one"
        }
    }
}

/// The state of an installation.
public enum HookState: Hashable, Sendable {
    /// Intercepting.
    case installed
    /// Another hook was stacked on top of ours after we installed, so ours could not be
    /// taken out without breaking it; ours stays in the chain passing calls straight
    /// through, and a reinstall turns it back on.
    case passThrough
    /// Removed; the original behaviour is restored.
    case uninstalled
}

/// The handle of one installation: its state, and the way to remove it. Removing is
/// idempotent and safe from any thread.
public final class HookHandle: Sendable {
    /// The hook's name.
    public let name: String
    private let stateStorage = Locked(HookState.installed)
    private let remover: @Sendable () throws(HookError) -> HookState

    /// Creates a handle; `remover` undoes the installation and says how far it could.
    public init(name: String, remover: @escaping @Sendable () throws(HookError) -> HookState) {
        self.name = name
        self.remover = remover
        membersState = nil
    }

    /// Creates a group handle whose pass-through state follows its members'.
    package init(name: String, members: @escaping @Sendable () -> HookState, remover: @escaping @Sendable () throws(HookError) -> HookState) {
        self.name = name
        self.remover = remover
        membersState = members
    }

    /// The current state. A group left as a pass-through reads as uninstalled once
    /// every member it holds is.
    public var state: HookState {
        let stored = stateStorage.withLock { $0 }
        if stored == .passThrough, let members = membersState, members() == .uninstalled { return .uninstalled }
        return stored
    }

    /// The members' combined state, for a group handle.
    private let membersState: (@Sendable () -> HookState)?

    /// Removes the hook; a second call does nothing.
    public func uninstall() throws(HookError) {
        let shouldRemove = stateStorage.withLock { $0 == .installed }
        guard shouldRemove else { return }
        let result = try remover()
        stateStorage.withLock { $0 = result }
    }

    /// Marks the handle installed again (a reinstall that re-enabled it).
    package func markInstalled() { stateStorage.withLock { $0 = .installed } }

    /// Marks a pass-through handle uninstalled (its wrapper was taken out from above).
    package func markUninstalled() { stateStorage.withLock { if $0 == .passThrough { $0 = .uninstalled } } }
}

/// A hook strategy for one interception point on one kind of host — the one protocol
/// every hook, built-in or third-party, conforms to.
///
/// Installing twice (from any number of threads at once) takes effect once; every
/// installation returns a handle; uninstalling restores the original behaviour, or —
/// when another library's hook was stacked on ours later — leaves ours in place as a
/// pass-through so theirs keeps working.
///
/// A hook records through an ``Interceptor`` and calls originals only through
/// `Interceptor.intercept(dedupe:capture:original:)`, which makes the exactly-once
/// contract hold by construction. It declares the framework methods its installation
/// wraps in ``hookedMethods``; the conformance kit checks that declaration against what
/// installing actually changed.
public protocol InterceptionHook<Host>: AnyObject, Sendable {
    /// The host type the hook works on (for example the reference host).
    associatedtype Host
    /// The interception point.
    var point: InterceptionPoint { get }
    /// The strategy's name, e.g. `send-action/exchange`.
    var name: String { get }
    /// The framework methods that installing wraps, replaces or exchanges — not the
    /// app classes the hook may reach later (a delegate's class, a controller's
    /// override).
    var hookedMethods: [HookedMethod] { get }
    /// Installs the hook on `host`, reporting to `context`.
    func install(on host: Host, context: InteractionContext) throws(HookError) -> HookHandle
}

/// One method a hook's installation changes: a class, a selector, and whether it is a
/// class (`+`) method.
public struct HookedMethod: Hashable, Sendable, Comparable, CustomStringConvertible {
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

    /// `-[UIControl sendAction:to:forEvent:]` or `+[UIAlertAction actionWithTitle:…]`.
    public var description: String { "\(isClassMethod ? "+" : "-")[\(className) \(selector)]" }

    /// Orders by class, then selector, instance methods first.
    public static func < (lhs: HookedMethod, rhs: HookedMethod) -> Bool {
        (lhs.className, lhs.selector, lhs.isClassMethod ? 1 : 0) < (rhs.className, rhs.selector, rhs.isClassMethod ? 1 : 0)
    }
}
