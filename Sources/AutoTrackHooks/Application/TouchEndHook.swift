/// AutoTrackInterception: `HookError`, `HookHandle`, `HookedMethod`, `InteractionContext`, `InterceptionHook` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackProperties
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI

/// Touches at `-[UIApplication sendEvent:]`: every event of the app passes there, phase
/// by phase; an event whose touch ended on a view is one touch-end interaction with
/// the snapshot of the view (on a hosting view, of the SwiftUI element under the
/// finger) and its screen, recorded before the event is delivered — what
/// a tracker needs to tell a tap nothing answered (a dead click). Other phases,
/// events that carry no touch, and touches in text fields (the keyboard answers them)
/// go straight on. The host models taps only: on a device a touch that ended a drag or
/// a scroll must be left out too.
public final class ApplicationSendEventHook: InterceptionHook {
    /// `.touchEnd`.
    public let point = InterceptionPoint.touchEnd
    /// `touch-end/send-event`.
    public let name = "touch-end/send-event"
    /// `-[UIApplication sendEvent:]`.
    public let hookedMethods = [HookedMethod("UIApplication", "sendEvent:")]

    /// Creates the hook.
    public init() {}

    /// Wraps `-[UIApplication sendEvent:]`.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        try EndedTouchWrapping.install(name: name, host: host, context: context, capture: Self.capture(ended:interceptor:))
    }

    /// How to capture the touch `event` ended: the touch on the view (or SwiftUI
    /// element) under the finger, or `nil` for a touch on no view. Native hooks at
    /// `sendEvent:` use it too.
    package static func capture(ended event: EventObject, interceptor: Interceptor) -> (() throws -> Interaction)? {
        guard let view = event.touchedView else { return nil }
        return {
            // A tap into a text field is answered by the keyboard, not a click.
            if view.role.isTextEntry { throw CaptureSkip.filtered }
            let context = interceptor.context
            // On a hosting view, the SwiftUI element under the finger.
            let touched: any ElementNode = event.touchLocation.flatMap { (view as? HostingViewObject)?.element(at: $0) } ?? view
            return Interaction(
                point: .touchEnd, element: context.snapshot(of: touched),
                screen: ReferenceHostCapture.screen(for: view, context: context).map(context.snapshot(of:)),
                details: InteractionDetails(), capturedBy: interceptor.capturedBy)
        }
    }
}
