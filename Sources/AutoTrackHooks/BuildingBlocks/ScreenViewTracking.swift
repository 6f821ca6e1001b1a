/// AutoTrackInterception: `Interceptor` appears in this file's public API.
public import AutoTrackInterception
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
/// AutoTrackRuntime: `Implementation` appears in this file's public API.
public import AutoTrackRuntime

/// The wrappers every screen-view hook on the reference host needs, built on
/// ``ReferenceHostCapture``'s screen rules.
public enum ScreenViewTracking {
    /// The wrapper of a `viewDidAppear:` (of `UIViewController` or of an app class that
    /// overrides it): records the screen view — once per appearance, however many
    /// classes of the controller's hierarchy are wrapped — then runs the original.
    public static func appearance(_ original: Implementation, name: String, interceptor: Interceptor) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            try interceptor.intercept(dedupe: .reentrancy(ReferenceHostCapture.appearanceKey(message.receiver))) {
                guard let controller = message.receiver as? ViewControllerObject else { throw ReferenceHostCapture.Failure.unexpectedReceiver }
                let animated = message.arguments.first.flatMap { if case .bool(let value) = $0 { value } else { nil } }
                return try ReferenceHostCapture.appearance(of: controller, animated: animated, interceptor: interceptor)
            } original: { () throws(RuntimeError) in
                try original.body(message)
            }
        }
    }

    /// The wrapper of `viewDidDisappear:`: notes that the controller left, so that its
    /// next appearance is a screen view again, then runs the original.
    public static func disappearance(_ original: Implementation, name: String, interceptor: Interceptor) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            try interceptor.forward(message) { message in
                ReferenceHostCapture.noteDisappeared(message.receiver)
                return message
            } original: { (message: Message) throws(RuntimeError) in
                try original.body(message)
            }
        }
    }

    /// Records the visible screen whenever `host` returns from the background (UIKit
    /// sends no `viewDidAppear:` then), while `interceptor` records.
    public static func recordOnForeground(of host: ReferenceHost, interceptor: Interceptor) {
        host.addObserver(for: .willEnterForeground) { [weak host] _ in
            guard let visible = host?.visibleController else { return }
            interceptor.intercept {
                ReferenceHostCapture.screenView(of: visible, animated: nil, reason: "foreground", interceptor: interceptor)
            } original: {}
        }
    }
}
