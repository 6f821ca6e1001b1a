/// AutoTrackInterception: `Interaction`, `Interceptor` appear in this file's public API.
public import AutoTrackInterception
/// AutoTrackReferenceUI: `HostedElement` appears in this file's public API.
public import AutoTrackReferenceUI
import AutoTrackProperties

extension ReferenceHostCapture {
    /// The click of a tap that activates `target`, a SwiftUI element: its snapshot as
    /// the tap leaves it (a toggle with the value the tap gives it), its row, and the
    /// screen of its hosting view.
    public static func swiftUIClick(on target: HostedElement, interceptor: Interceptor) -> Interaction {
        let context = interceptor.context
        var screen: (any ScreenNode)?
        if let hostingView = target.hostingView { screen = Self.screen(for: hostingView, context: context) }
        return Interaction(
            point: .swiftUITap, element: context.snapshot(of: target.asTapLeavesIt()), screen: screen.map(context.snapshot(of:)),
            details: InteractionDetails(listPosition: target.listPosition), capturedBy: interceptor.capturedBy)
    }
}
