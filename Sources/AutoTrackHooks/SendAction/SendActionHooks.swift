/// AutoTrackInterception: `HookError`, `HookHandle`, `InteractionContext`, `SendActionHook` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackProperties
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
/// `_searchFieldEndEditing`, with its text.
public final class ControlSendActionHook: SendActionHook {
    /// `send-action/control`.
    public let name = "send-action/control"

    /// Creates the hook.
    public init() {}

    /// Wraps `UIControl sendAction:to:forEvent:`.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let cls = host.runtime.lookUpClass("UIControl") else { throw .missingTarget("UIControl") }
        let name = self.name
        return try MethodWrapper.install(name: name, runtime: host.runtime, cls: cls, selector: "sendAction:to:forEvent:") { original, flag in
            Implementation("\(name) -[UIControl sendAction:to:forEvent:]") { message throws(RuntimeError) in
                if flag.isOn {
                    SendActionCapture.record(
                        context: context, capturedBy: name, sender: message.receiver,
                        action: message.arguments.first, event: message.arguments.count > 2 ? message.arguments[2] : .void)
                }
                return try original.body(message)
            }
        }
    }
}

/// Records one click per touch at `-[UIApplication sendAction:to:from:forEvent:]`,
/// through which every control action passes (and which `nil`-target actions use).
/// Stacked with ``ControlSendActionHook`` it still records once per touch: both
/// share the context's touch deduplicator.
public final class ApplicationSendActionHook: SendActionHook {
    /// `send-action/application`.
    public let name = "send-action/application"

    /// Creates the hook.
    public init() {}

    /// Wraps `UIApplication sendAction:to:from:forEvent:`.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let cls = host.runtime.lookUpClass("UIApplication") else { throw .missingTarget("UIApplication") }
        let name = self.name
        return try MethodWrapper.install(name: name, runtime: host.runtime, cls: cls, selector: "sendAction:to:from:forEvent:") { original, flag in
            Implementation("\(name) -[UIApplication sendAction:to:from:forEvent:]") { message throws(RuntimeError) in
                if flag.isOn, message.arguments.count == 4, let sender = message.arguments[2].object {
                    SendActionCapture.record(
                        context: context, capturedBy: name, sender: sender, action: message.arguments[0], event: message.arguments[3])
                }
                return try original.body(message)
            }
        }
    }
}

/// The shared recording of both send-action hooks.
enum SendActionCapture {
    static func record(context: InteractionContext, capturedBy: String, sender: RuntimeObject, action: RuntimeValue?, event: RuntimeValue) {
        guard context.isEnabled else {
            context.count(\.disabledSkips)
            return
        }
        let interaction: Interaction? = context.failOpen { () throws -> Interaction? in
            guard let control = sender as? ViewObject else { throw CaptureFailure.unexpectedReceiver }
            guard case .selector(let selector)? = action else { throw CaptureFailure.unexpectedArguments }
            guard context.touches.isFirstDispatch(event: event.object, element: control) else {
                context.count(\.deduplicated)
                return nil
            }
            if control.role == .textField || control.role == .secureTextField {
                context.count(\.filtered)
                return nil
            }
            if control.role == .searchField, selector.name != ControlAttributes.searchEndEditingAction {
                context.count(\.filtered)
                return nil
            }
            let searchText = control.role == .searchField ? control.text : nil
            return Interaction(
                point: .sendAction,
                element: context.snapshot(of: control, action: selector.name, searchText: searchText),
                screen: HookScreens.screen(for: control, context: context).map(context.snapshot(of:)),
                details: InteractionDetails(actionName: selector.name),
                capturedBy: capturedBy)
        }
        if let interaction { context.emit(interaction) }
    }
}

/// Why a hook's bookkeeping could not proceed; counted, never thrown to the app.
enum CaptureFailure: Error {
    case unexpectedReceiver
    case unexpectedArguments
}
