/// AutoTrackInterception: `HookError`, `HookHandle`, `InteractionContext` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackEvents
import AutoTrackObjCBackend
import AutoTrackProperties

/// Taps on alert actions on the real Objective-C runtime: wraps the framework's
/// `+actionWithTitle:handler:` so the handler the app passes is stored wrapped — a
/// block that records one click (with the action's title) and then runs the app's
/// handler exactly once; an action made without a handler is still a click. Built like
/// the other real-runtime hooks: `MethodWrapper` on the class method, a returning
/// trampoline, the combinator for every tap.
///
/// ```swift
/// let handle = try ObjCAlertActionHook().install(context: context)
/// ```
public struct ObjCAlertActionHook: Sendable {
    /// The framework's alert action class.
    public let actionClassName: String
    /// Whether actions made without a handler are clicks too. Turned off only by the
    /// conformance kit's deliberately broken variant, which wraps only the handlers it
    /// is given.
    package var wrapsMissingHandlers = true

    /// Creates the hook.
    public init(actionClassName: String = "ATAlertAction") {
        self.actionClassName = actionClassName
    }

    /// The hook's name, stamped on its interactions.
    public var name: String { wrapsMissingHandlers ? "objc-alert-action" : "objc-alert-action-handlers-only" }

    /// Installs the hook; idempotent. Uninstalling restores the class method; handlers
    /// already wrapped pass through.
    /// - Throws: `HookError` when the action class or its factory is missing, or no
    ///   trampoline is left.
    public func install(context: InteractionContext) throws(HookError) -> HookHandle {
        let runtime = ObjCRuntime.shared
        guard let actionClass = runtime.lookUpClass(named: actionClassName) else { throw .classNotFound(className: actionClassName) }
        let name = self.name, wrapsMissing = wrapsMissingHandlers
        return try TrampolineWrapping.install(
            name: name, cls: actionClass, selector: "actionWithTitle:handler:", isClassMethod: true, context: context
        ) { original, interceptor in
            let hookSwitch = interceptor.hookSwitch
            // Handlers wrapped before an uninstall report to the newest installation.
            let reporting = ReportingTarget.target(on: actionClass, in: runtime, current: interceptor)
            let token = ObjCAlertHandlers.register { action, originalHandler in
                reporting.intercept { _ in
                    let title = ObjCSampleApp.alertActionTitle(at: action)
                    let element = ElementSnapshot(
                        typeName: "UIAlertController", typeHierarchy: ["UIAlertController"], role: .alertAction, accessibilityIdentifier: nil,
                        properties: ["$element_type": .string("UIAlertController"), "$element_content": .string(title)])
                    return Interaction(point: .alertAction, element: element, screen: nil, details: InteractionDetails(), capturedBy: name)
                } original: {
                    if let originalHandler { ObjCAlertHandlers.invoke(originalHandler, with: action) }
                }
            }
            return ObjCTrampolines.makeReturning { call in
                // The handler is the second argument: stored wrapped, once per action.
                guard hookSwitch.isOn, call.second != 0 || wrapsMissing else { return call.call(original) }
                let wrapped = ObjCAlertHandlers.wrap(handler: call.second, token: token)
                defer { ObjCAlertHandlers.release(wrapped: wrapped) }
                return call.call(original, first: call.first, second: wrapped, third: call.third, fourth: call.fourth)
            }
        }
    }
}
