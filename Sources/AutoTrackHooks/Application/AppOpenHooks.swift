/// AutoTrackInterception: `HookError`, `HookHandle`, `HookedMethod`, `InteractionContext`, `InterceptionHook` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
package import AutoTrackRuntime

/// Links the app is opened with, at the app delegate's
/// `application:openURL:options:` (a scene-based app's `scene:openURLContexts:`, a
/// link in the launch options and universal links through
/// `application:continueUserActivity:restorationHandler:` are other methods, not
/// modelled here): `-[UIApplication setDelegate:]` is wrapped, and so
/// is the delegate's own method (on the class that implements it) — for the delegate
/// set before the install too. Each call is one open-url interaction with the link,
/// recorded before the app's method runs; the app's answer is returned unchanged. A
/// delegate that does not implement the method gets none.
public final class OpenURLDelegateHook: InterceptionHook {
    /// `.openURL`.
    public let point = InterceptionPoint.openURL
    /// `open-url/app-delegate`.
    public let name = "open-url/app-delegate"
    /// `-[UIApplication setDelegate:]` (and the delegates' own methods).
    public let hookedMethods = [HookedMethod("UIApplication", "setDelegate:")]

    /// Creates the hook.
    public init() {}

    /// Wraps the setter and the current delegate's method.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        try AppOpenDelegation.install(
            name: name, setterClass: "UIApplication", delegate: { host.application.delegate }, selector: "application:openURL:options:",
            host: host, context: context, capture: Self.capture(opening:interceptor:))
    }

    /// The open-url interaction `message` (`application:openURL:options:`) is. Native
    /// hooks at the delegate's method use it too.
    package static func capture(opening message: Message, interceptor: Interceptor) throws -> Interaction {
        guard message.arguments.count == 3, let url = message.arguments[1].object as? URLObject else {
            throw ReferenceHostCapture.Failure.unexpectedArguments
        }
        return Interaction(
            point: .openURL, element: nil, screen: nil, details: InteractionDetails(openedURL: url.absoluteString),
            capturedBy: interceptor.capturedBy)
    }
}

/// Notifications the user opens, at the notification center delegate's
/// `userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:`:
/// `-[UNUserNotificationCenter setDelegate:]` is wrapped, and so is the delegate's own
/// method. Each response is one notification-response interaction with the title,
/// body and sending service, recorded before the app's method runs — except a
/// dismissal (`UNNotificationDismissActionIdentifier`), which opens nothing; the completion
/// handler is the app's to call — passed on untouched, never called by the hook.
public final class NotificationResponseDelegateHook: InterceptionHook {
    /// `.notificationResponse`.
    public let point = InterceptionPoint.notificationResponse
    /// `notification-response/center-delegate`.
    public let name = "notification-response/center-delegate"
    /// `-[UNUserNotificationCenter setDelegate:]` (and the delegates' own methods).
    public let hookedMethods = [HookedMethod("UNUserNotificationCenter", "setDelegate:")]

    /// Creates the hook.
    public init() {}

    /// Wraps the setter and the current delegate's method.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        try AppOpenDelegation.install(
            name: name, setterClass: "UNUserNotificationCenter", delegate: { host.notificationCenter.delegate },
            selector: "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:", host: host, context: context,
            capture: Self.capture(responding:interceptor:))
    }

    /// The notification-response interaction `message`
    /// (`userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:`)
    /// is; a dismissal is filtered. Native hooks at the delegate's method use it too.
    package static func capture(responding message: Message, interceptor: Interceptor) throws -> Interaction {
        guard message.arguments.count == 3, let response = message.arguments[1].object as? NotificationResponseObject else {
            throw ReferenceHostCapture.Failure.unexpectedArguments
        }
        // Dismissing a notification does not open the app.
        if response.actionIdentifier == NotificationResponseObject.dismissActionIdentifier { throw CaptureSkip.filtered }
        let content = InteractionDetails.NotificationContent(
            title: response.title, body: response.body, service: response.userInfo["service"])
        return Interaction(
            point: .notificationResponse, element: nil, screen: nil, details: InteractionDetails(notification: content),
            capturedBy: interceptor.capturedBy)
    }
}

/// What both app-open hooks do: wrap a `setDelegate:` and the delegates' method, and
/// record each call of it once (a delegate's override calling super is the same
/// call).
package enum AppOpenDelegation {
    /// One record per call of the delegate's method for the hook `hook`, however many
    /// classes of the delegate's chain run it (an override calling super).
    package static func dedupe(_ message: Message, hook: String) -> InterceptionDedupe {
        let argument = message.arguments.count > 1 ? message.arguments[1].object : nil
        return .reentrancy(InteractionKey(hook, objects: [message.receiver] + (argument.map { [$0] } ?? [])))
    }

    static func install(
        name: String, setterClass: String, delegate: @escaping () -> RuntimeObject?, selector: Selector, host: ReferenceHost,
        context: InteractionContext, capture: @escaping @Sendable (Message, Interceptor) throws -> Interaction
    ) throws(HookError) -> HookHandle {
        guard let cls = host.runtime.lookUpClass(setterClass) else { throw .classNotFound(className: setterClass) }
        let runtime = host.runtime
        return try MethodWrapper.installGroup(name: name, runtime: runtime, context: context) { () throws(HookError) -> [HookHandle] in
            let wrappers = DelegateMethodWrappers.shared(of: selector, name: name, in: runtime, context: context) { original, implementor, interceptor in
                Implementation("\(name) -[\(implementor.name) \(selector)]") { message throws(RuntimeError) in
                    try interceptor.intercept(dedupe: dedupe(message, hook: name), capture: {
                        try capture(message, interceptor)
                    }, original: original.call(message))
                }
            }
            let setter = try MethodWrapper.install(name: name, runtime: runtime, cls: cls, selector: "setDelegate:", context: context) { original, hookSwitch in
                wrappers.wrappingSetter(
                    original, name: "\(name) -[\(setterClass) setDelegate:]",
                    interceptor: Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name))
            }
            // The delegate set before the install.
            if let current = delegate() { try wrappers.wrap(classOf: current) }
            return [setter, wrappers.handle]
        }
    }
}
