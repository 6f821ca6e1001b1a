import AutoTrackProperties
/// AutoTrackRuntime: `RuntimeError` appears in this file's public API.
public import AutoTrackRuntime

/// `UIHostingController` and `_UIHostingView`: a view controller whose root view draws
/// SwiftUI content (``ViewControllerObject/hostedContent``).
enum HostingClasses {
    static func define(in host: ReferenceHost) throws(RuntimeError) {
        let runtime = host.runtime
        let view = runtime.lookUpClass("UIView")!
        let controller = runtime.lookUpClass("UIViewController")!
        host.register(try runtime.defineClass("_UIHostingView", superclass: view), storage: .hostingView)
        let hosting = try runtime.defineClass("UIHostingController", superclass: controller, methods: [
            ("loadView", "v@:", .procedure("-[UIHostingController loadView]") { message in
                guard let controller = message.receiver as? ViewControllerObject else { return }
                let hostingView = controller.host.frameworkObject("_UIHostingView", as: HostingViewObject.self)
                controller.installView(hostingView)
                hostingView.content = controller.hostedContent
                hostingView.render()
            }),
        ])
        host.register(hosting, storage: .controller(.plain))
    }
}

extension ViewControllerObject {
    /// The hosting view the controller's SwiftUI content is drawn in (loading the
    /// view), or `nil` for a controller that hosts none.
    public var hostingView: HostingViewObject? {
        guard hostedContent != nil else { return nil }
        return view as? HostingViewObject
    }

    /// ``hostingView``, for a controller that must host SwiftUI content.
    /// - Throws: `RuntimeError.exception(name:reason:)` when it hosts none.
    public func requireHostingView() throws(RuntimeError) -> HostingViewObject {
        guard let hostingView else { throw .exception(name: "UIHostingController", reason: "\(typeName) hosts no SwiftUI content") }
        return hostingView
    }
}
