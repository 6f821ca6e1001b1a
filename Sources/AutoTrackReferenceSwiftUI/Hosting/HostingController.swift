/// AutoTrackReferenceUI: `HostedContent`, `HostedElement`, `ReferenceHost`, `ViewControllerObject` appear in this file's public API.
public import AutoTrackReferenceUI
/// AutoTrackProperties: `Rect` appears in this file's public API.
public import AutoTrackProperties
/// AutoTrackRuntime: `RuntimeError` appears in this file's public API.
public import AutoTrackRuntime

/// The content of a hosting controller: a root view of type `Root`, rendered into
/// `HostedElement`s. Setting ``root`` renders again, as SwiftUI does when a hosting
/// controller's `rootView` changes.
public final class SwiftUIContent<Root: View>: HostedContent {
    /// The root view.
    public var root: Root {
        didSet { hostingView?.render() }
    }
    private weak var controller: ViewControllerObject?
    private unowned let host: ReferenceHost

    init(root: Root, host: ReferenceHost) {
        self.root = root
        self.host = host
    }

    func attach(to controller: ViewControllerObject) { self.controller = controller }

    private var hostingView: HostingViewObject? {
        guard let controller, controller.isViewLoaded else { return nil }
        return controller.view as? HostingViewObject
    }

    /// The root view, for reflection.
    public var rootView: Any { root }

    /// Evaluates the root view's body and lays it out in `bounds`.
    public func render(in bounds: Rect) -> [HostedElement] {
        let context = RenderContext { [weak self] destination in self?.show(destination) }
        // Several top views (a group, a condition, a ForEach at the root) stack as a
        // VStack's children do.
        var y = bounds.origin.y
        return Renderer.distinguished(Renderer.nodes(of: root, in: context)).map { node in
            let element = node.element(at: Point(x: bounds.origin.x, y: y), width: bounds.width)
            y += element.frame.height
            return element
        }
    }

    /// A navigation link's destination: a hosting controller of its own, pushed on the
    /// navigation controller this one is in (`pushViewController:animated:`).
    private func show(_ destination: any View) {
        guard let navigation = controller?.navigationController,
              let pushed = try? host.makeHostingController(rootView: destination) else { return }
        _ = try? host.runtime.call(navigation, "pushViewController:animated:", pushed, true)
    }
}

extension ReferenceHost {
    /// A hosting controller (`UIHostingController`) showing `rootView`: a screen named
    /// after the view.
    /// - Throws: `RuntimeError` from making the controller.
    public func makeHostingController<Root: View>(rootView: Root) throws(RuntimeError) -> ViewControllerObject {
        let controller = try makeController("UIHostingController")
        let content = SwiftUIContent(root: rootView, host: self)
        content.attach(to: controller)
        controller.hostedContent = content
        return controller
    }
}
