/// AutoTrackInterception: `HookError`, `HookHandle`, `HookedMethod`, `InteractionContext`, `InterceptionHook` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
import AutoTrackRuntime

/// Records one click per touch at `-[UIControl sendAction:to:forEvent:]`, the method
/// UIKit calls once per target-action pair, then runs the original with the caller's
/// exact arguments.
///
/// The first pair of a touch records; the others of the same `UIEvent` are
/// deduplicated. Programmatic sends (no event) are not touches and record nothing.
/// Plain and secure text fields never record; a search field records only
/// `_searchFieldEndEditing`, with its text. Closure actions (`UIAction`), which UIKit
/// runs through `-[UIControl sendAction:]`, are wrapped too: one click per touch with
/// the target-actions of the same touch.
public final class ControlSendActionHook: InterceptionHook {
    /// `.sendAction`.
    public let point = InterceptionPoint.sendAction
    /// `send-action/control`.
    public let name = "send-action/control"
    /// `-[UIControl sendAction:to:forEvent:]` and `-[UIControl sendAction:]`.
    public let hookedMethods = [HookedMethod("UIControl", "sendAction:to:forEvent:"), HookedMethod("UIControl", "sendAction:")]

    /// Creates the hook.
    public init() {}

    /// Wraps `UIControl sendAction:to:forEvent:` and `sendAction:`.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        let name = self.name
        return try MethodWrapper.installGroup(name: name, runtime: host.runtime, context: context) { () throws(HookError) -> [HookHandle] in
            [try Self.wrapTargetActions(name: name, host: host, context: context),
             try ReferenceHostCapture.wrapClosureSend(name: name, host: host, context: context)]
        }
    }

    static func wrapTargetActions(name: String, host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let cls = host.runtime.lookUpClass("UIControl") else { throw .classNotFound(className: "UIControl") }
        return try MethodWrapper.install(name: name, runtime: host.runtime, cls: cls, selector: "sendAction:to:forEvent:", context: context) { original, hookSwitch in
            let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
            return Implementation("\(name) -[UIControl sendAction:to:forEvent:]") { message throws(RuntimeError) in
                let call = ReferenceHostCapture.SendActionCall.control(message)
                return try interceptor.intercept(
                    dedupe: call.dedupe(receiver: message.receiver), capture: { try call.click(interceptor: interceptor) },
                    original: original.call(message))
            }
        }
    }
}

/// Records one click per touch at `-[UIApplication sendAction:to:from:forEvent:]`,
/// through which every target-action passes (and which `nil`-target actions use),
/// and passes the original's `BOOL` back; closure actions (`UIAction`) do not pass
/// there, so `-[UIControl sendAction:]` is wrapped too. Stacked with
/// ``ControlSendActionHook`` it still records once per touch: both share the context's
/// touch deduplicator.
public final class ApplicationSendActionHook: InterceptionHook {
    /// `.sendAction`.
    public let point = InterceptionPoint.sendAction
    /// `send-action/application`.
    public let name = "send-action/application"
    /// `-[UIApplication sendAction:to:from:forEvent:]` and `-[UIControl sendAction:]`.
    public let hookedMethods = [HookedMethod("UIApplication", "sendAction:to:from:forEvent:"), HookedMethod("UIControl", "sendAction:")]

    /// Creates the hook.
    public init() {}

    /// Wraps `UIApplication sendAction:to:from:forEvent:` and `UIControl sendAction:`.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        let name = self.name
        return try MethodWrapper.installGroup(name: name, runtime: host.runtime, context: context) { () throws(HookError) -> [HookHandle] in
            [try Self.wrapApplicationSend(name: name, host: host, context: context),
             try ReferenceHostCapture.wrapClosureSend(name: name, host: host, context: context)]
        }
    }

    static func wrapApplicationSend(name: String, host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let cls = host.runtime.lookUpClass("UIApplication") else { throw .classNotFound(className: "UIApplication") }
        return try MethodWrapper.install(name: name, runtime: host.runtime, cls: cls, selector: "sendAction:to:from:forEvent:", context: context) { original, hookSwitch in
            let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
            return Implementation("\(name) -[UIApplication sendAction:to:from:forEvent:]") { message throws(RuntimeError) in
                let call = ReferenceHostCapture.SendActionCall.application(message)
                return try interceptor.intercept(
                    dedupe: call.dedupe(receiver: message.receiver), capture: { try call.click(interceptor: interceptor) },
                    original: original.call(message))
            }
        }
    }
}
