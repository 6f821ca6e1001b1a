/// AutoTrackInterception: `InterceptionPoint`, `InteractionContext`, `HookHandle`, `HookError` appear in this file's public API.
public import AutoTrackInterception
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI

/// The built-in hook strategies for the reference host.
public enum BuiltInHooks {
    /// One strategy per interception point: the default set for a tracker.
    public static func standard() -> [any InterceptionHookInstaller] {
        [ControlSendActionHook(), GestureTargetHook(), AlertActionBlockHook(), ProxyDelegateHook(), ScreenViewAppearHook()]
    }

    /// Every built-in strategy, grouped as the conformance catalog runs them.
    public static func all() -> [any InterceptionHookInstaller] {
        [
            ControlSendActionHook(), ApplicationSendActionHook(), GestureTargetHook(), AddGestureRecognizerHook(),
            AlertActionBlockHook(), ExchangeDelegateHook(), SubclassDelegateHook(), ProxyDelegateHook(), ScreenViewAppearHook(),
        ]
    }
}

/// A hook that installs on the reference host: the type-erased form of
/// ``AutoTrackInterception/InterceptionHook`` with `Host == ReferenceHost`.
public protocol InterceptionHookInstaller: AnyObject, Sendable {
    /// The interception point.
    var point: InterceptionPoint { get }
    /// The strategy's name.
    var name: String { get }
    /// Installs on `host`.
    func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle
}

extension ControlSendActionHook: InterceptionHookInstaller {}
extension ApplicationSendActionHook: InterceptionHookInstaller {}
extension GestureTargetHook: InterceptionHookInstaller {}
extension AddGestureRecognizerHook: InterceptionHookInstaller {}
extension AlertActionBlockHook: InterceptionHookInstaller {}
extension ExchangeDelegateHook: InterceptionHookInstaller {}
extension SubclassDelegateHook: InterceptionHookInstaller {}
extension ProxyDelegateHook: InterceptionHookInstaller {}
extension ScreenViewAppearHook: InterceptionHookInstaller {}
