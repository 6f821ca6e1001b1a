/// AutoTrackInterception: `HookError`, `HookHandle`, `InteractionContext` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackEvents
import AutoTrackObjCBackend
import AutoTrackProperties
import AutoTrackLocking

/// Clicks on controls on the real Objective-C runtime: wraps the framework control
/// class's `sendAction:to:forEvent:` (UIControl's), so every target-action a touch
/// dispatches passes the combinator — the first dispatch of a touch records one click,
/// the others of the same touch are the same click, and an action sent from code (no
/// event) is no click. Built like ``ObjCDelegateSelectionHook``.
///
/// ```swift
/// let handle = try ObjCSendActionHook().install(context: context)
/// ```
public struct ObjCSendActionHook: Sendable {
    /// The framework's control class.
    public let controlClassName: String
    /// Whether the dispatches of one touch are one click. Turned off only by the
    /// conformance kit's deliberately broken variant, which records every dispatch.
    package var deduplicatesTouches = true

    /// Creates the hook.
    public init(controlClassName: String = "ATControl") {
        self.controlClassName = controlClassName
    }

    /// The hook's name, stamped on its interactions.
    public var name: String { deduplicatesTouches ? "objc-send-action" : "objc-send-action-per-dispatch" }

    /// Installs the hook; idempotent; uninstalling restores the method.
    /// - Throws: `HookError` when the control class or its method is missing, or no
    ///   trampoline is left.
    public func install(context: InteractionContext) throws(HookError) -> HookHandle {
        let runtime = ObjCRuntime.shared
        guard let control = runtime.lookUpClass(named: controlClassName) else { throw .classNotFound(className: controlClassName) }
        let name = self.name, deduplicatesTouches = self.deduplicatesTouches
        return try TrampolineWrapping.install(name: name, cls: control, selector: "sendAction:to:forEvent:", context: context) {
            original, interceptor in
            ObjCTrampolines.make { call in
                // The touch's event and the control, by identity across the touch's
                // dispatches: the same wrapper for the same object while it is recent.
                let event = call.third == 0 ? nil : IdentityCache.shared.object(for: call.third) { call.object(argument: 2) }
                let element = IdentityCache.shared.object(for: call.receiver) { call.receiverObject }
                let dedupe: InterceptionDedupe = deduplicatesTouches ? .touch(event: event, element: element ?? IdentityCache.placeholder) : .none
                interceptor.intercept(dedupe: dedupe) {
                    guard event != nil || !deduplicatesTouches else { throw CaptureSkip.filtered }
                    return Self.click(call, name: name)
                } original: {
                    _ = call.call(original)
                }
            }
        }
    }

    static func click(_ call: ObjCCall, name: String) -> Interaction {
        let runtime = ObjCRuntime.shared
        let type = runtime.reportedClassName(ofObjectAt: call.receiver)
        let title = ObjCSampleApp.controlTitle(ofControlAt: call.receiver)
        let action = call.selectorName(argument: 0)
        let element = ElementSnapshot(
            typeName: type, typeHierarchy: [type], role: .button, accessibilityIdentifier: nil,
            properties: ["$element_type": .string(type), "$element_content": .string(title)])
        return Interaction(point: .sendAction, element: element, screen: nil, details: InteractionDetails(actionName: action), capturedBy: name)
    }

    /// Stable wrappers for recently seen objects, so identity-based deduplication works
    /// across a touch's dispatches: the wrapper retains its object, so its address is
    /// never reused while it is remembered.
    final class IdentityCache: Sendable {
        static let shared = IdentityCache()
        static let placeholder = ObjCRuntime.shared.rootClass
        private let recent = Locked<[(UInt, ObjCObject)]>([])

        func object(for address: UInt, make: () -> ObjCObject?) -> ObjCObject? {
            if let found = recent.withLock({ $0.first { $0.0 == address }?.1 }) { return found }
            guard let made = make() else { return nil }
            recent.withLock { recent in
                recent.append((address, made))
                if recent.count > 64 { recent.removeFirst(recent.count - 64) }
            }
            return made
        }
    }
}
