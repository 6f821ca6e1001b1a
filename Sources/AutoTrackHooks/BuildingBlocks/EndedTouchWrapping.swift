package import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
package import AutoTrackReferenceUI
package import AutoTrackRuntime

/// The wrap of `-[UIApplication sendEvent:]` the hooks that record touches as they end
/// share (a touch for dead clicks, a SwiftUI tap).
package enum EndedTouchWrapping {
    /// Wraps `-[UIApplication sendEvent:]` on `host` for the hook `name`: an event whose
    /// touch ended goes to `capture`, which returns how to capture what it records — or
    /// `nil` when the hook has nothing to do with the event, which then goes straight
    /// on. What is recorded is recorded before the event is delivered, and once per
    /// touch: a second library's `sendEvent:` calling ours, or the event sent on again,
    /// is the same touch.
    static func install(
        name: String, host: ReferenceHost, context: InteractionContext,
        capture: @escaping @Sendable (EventObject, Interceptor) -> (() throws -> Interaction)?
    ) throws(HookError) -> HookHandle {
        guard let cls = host.runtime.lookUpClass("UIApplication") else { throw .classNotFound(className: "UIApplication") }
        return try MethodWrapper.install(name: name, runtime: host.runtime, cls: cls, selector: "sendEvent:", context: context) { original, hookSwitch in
            let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
            return Implementation("\(name) -[UIApplication sendEvent:]") { message throws(RuntimeError) in
                guard let event = endedTouch(in: message), let recording = capture(event, interceptor) else {
                    return try interceptor.passThrough(original.call(message))
                }
                return try interceptor.intercept(dedupe: dedupe(event, hook: name), capture: recording, original: original.call(message))
            }
        }
    }

    /// The event of a `sendEvent:` call whose touch ended, or `nil`.
    package static func endedTouch(in message: Message) -> EventObject? {
        guard let event = message.arguments.first?.object as? EventObject, event.touchPhase == .ended else { return nil }
        return event
    }

    /// One record per touch for the hook `hook`: a second library's `sendEvent:` calling
    /// ours, or the event sent on again, is the same touch.
    package static func dedupe(_ event: EventObject, hook: String) -> InterceptionDedupe {
        .reentrancy(InteractionKey(hook, objects: [event]))
    }
}
