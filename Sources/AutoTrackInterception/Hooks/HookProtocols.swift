import Synchronization

/// Why a hook could not be installed or removed.
public enum HookError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The host lacks a class or method the hook needs.
    case missingTarget(String)
    /// The runtime refused a change; the message says which.
    case runtimeRefused(String)

    /// What went wrong.
    public var description: String {
        switch self {
        case .missingTarget(let what): "the host has no \(what) to hook"
        case .runtimeRefused(let what): "the runtime refused: \(what)"
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
    private let stateStorage = Mutex(HookState.installed)
    private let remover: @Sendable () throws(HookError) -> HookState

    /// Creates a handle; `remover` undoes the installation and says how far it could.
    public init(name: String, remover: @escaping @Sendable () throws(HookError) -> HookState) {
        self.name = name
        self.remover = remover
    }

    /// The current state.
    public var state: HookState { stateStorage.withLock { $0 } }

    /// Removes the hook; a second call does nothing.
    public func uninstall() throws(HookError) {
        let shouldRemove = stateStorage.withLock { $0 == .installed }
        guard shouldRemove else { return }
        let result = try remover()
        stateStorage.withLock { $0 = result }
    }

    /// Marks the handle installed again (a reinstall that re-enabled it).
    public func markInstalled() { stateStorage.withLock { $0 = .installed } }
}

/// A hook strategy for one interception point on one kind of host.
///
/// Installing twice (from any number of threads at once) takes effect once; every
/// installation returns a handle; uninstalling restores the original behaviour, or —
/// when another library's hook was stacked on ours later — leaves ours in place as a
/// pass-through so theirs keeps working.
public protocol InterceptionHook: AnyObject, Sendable {
    /// The host type the hook works on.
    associatedtype Host
    /// The interception point.
    var point: InterceptionPoint { get }
    /// The strategy's name, e.g. `send-action/exchange`.
    var name: String { get }
    /// Installs the hook on `host`, reporting to `context`.
    func install(on host: Host, context: InteractionContext) throws(HookError) -> HookHandle
}

/// A hook at the send-action point.
public protocol SendActionHook: InterceptionHook {}
/// A hook at the gesture point.
public protocol GestureHook: InterceptionHook {}
/// A hook at the alert-action point.
public protocol AlertActionHook: InterceptionHook {}
/// A hook at the delegate-selection point.
public protocol DelegateSelectionHook: InterceptionHook {}
/// A hook at the screen-view point.
public protocol ScreenViewHook: InterceptionHook {}

extension SendActionHook {
    /// `.sendAction`.
    public var point: InterceptionPoint { .sendAction }
}

extension GestureHook {
    /// `.gesture`.
    public var point: InterceptionPoint { .gesture }
}

extension AlertActionHook {
    /// `.alertAction`.
    public var point: InterceptionPoint { .alertAction }
}

extension DelegateSelectionHook {
    /// `.delegateSelection`.
    public var point: InterceptionPoint { .delegateSelection }
}

extension ScreenViewHook {
    /// `.screenView`.
    public var point: InterceptionPoint { .screenView }
}
