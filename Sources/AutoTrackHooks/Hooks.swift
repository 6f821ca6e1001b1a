/// AutoTrackInterception: `InterceptionHook` appears in this file's public API.
public import AutoTrackInterception
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI

/// The built-in hook strategies for the reference host.
public enum BuiltInHooks {
    /// One strategy per interception point: the default set for a tracker.
    public static func standard() -> [any InterceptionHook<ReferenceHost>] {
        [
            ControlSendActionHook(), GestureTargetHook(), AlertActionBlockHook(), ProxyDelegateHook(), ScreenViewAppearHook(),
            ApplicationSendEventHook(), OpenURLDelegateHook(), NotificationResponseDelegateHook(), SwiftUITapHook(),
        ]
    }

    /// Every built-in strategy, grouped by interception point.
    public static func all() -> [any InterceptionHook<ReferenceHost>] {
        [
            ControlSendActionHook(), ApplicationSendActionHook(), GestureTargetHook(), AddGestureRecognizerHook(),
            AlertActionBlockHook(), ExchangeDelegateHook(), SubclassDelegateHook(), ProxyDelegateHook(), ScreenViewAppearHook(),
            ApplicationSendEventHook(), OpenURLDelegateHook(), NotificationResponseDelegateHook(), SwiftUITapHook(),
        ]
    }
}
