/// AutoTrackInterception: `HookError`, `HookHandle`, `HookedMethod`, `InteractionContext`, `InterceptionHook`, `InterceptionPoint` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackProperties
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI

/// SwiftUI taps at `-[UIApplication sendEvent:]`, the technique SDKs use on iOS 18
/// since SwiftUI controls send no target-action: when a touch ends on a hosting view,
/// the element under it — or the nearest one above it that answers taps — is what the
/// tap activates. A button, a navigation link, a toggle or a view with
/// `onTapGesture` is one click, recorded before SwiftUI runs it, with its label as
/// `$element_content` (a toggle's, the value the tap gives it, as for a `UISwitch`), its list row as `$element_position`, and a path and
/// `$element_id` from SwiftUI's identity (structure, `ForEach` ids, `.id(_:)`), so
/// they survive re-rendering. A tap on text, a stack or a list's background
/// activates nothing and is no click.
///
/// Where iOS departs: on a device the touch's view is a SwiftUI-private view and an
/// SDK reads what was tapped from the touch's gesture recognizers (their names carry
/// `Button<…>`) or the hosting view's accessibility elements; the model hands the
/// hook the hosting view's drawn elements directly.
public final class SwiftUITapHook: InterceptionHook {
    /// `.swiftUITap`.
    public let point = InterceptionPoint.swiftUITap
    /// `swiftui-tap/send-event`.
    public let name = "swiftui-tap/send-event"
    /// `-[UIApplication sendEvent:]`.
    public let hookedMethods = [HookedMethod("UIApplication", "sendEvent:")]

    /// Creates the hook.
    public init() {}

    /// Wraps `-[UIApplication sendEvent:]`.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        try EndedTouchWrapping.install(name: name, host: host, context: context, capture: Self.capture(ended:interceptor:))
    }

    /// How to capture the touch `event` ended: the click on the SwiftUI element it
    /// activates, or `nil` when it activates none. Native hooks at `sendEvent:` use it too.
    package static func capture(ended event: EventObject, interceptor: Interceptor) -> (() throws -> Interaction)? {
        guard let hostingView = event.touchedView as? HostingViewObject, let location = event.touchLocation,
              let target = hostingView.tapTarget(at: location) else { return nil }
        return { ReferenceHostCapture.swiftUIClick(on: target, interceptor: interceptor) }
    }
}
