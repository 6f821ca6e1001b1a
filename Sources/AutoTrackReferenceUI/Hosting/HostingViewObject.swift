/// AutoTrackProperties: `ElementNode`, `ElementRole`, `Point` appear in this file's public API.
public import AutoTrackProperties
/// AutoTrackRuntime: `RuntimeClass` appears in this file's public API.
public import AutoTrackRuntime

/// The Swift-side storage of a hosting view (`_UIHostingView`): the view a
/// `UIHostingController` shows its SwiftUI content in. The content is drawn as
/// ``HostedElement``s, not subviews; touches on the view are resolved against them,
/// as SwiftUI's gesture system does.
public final class HostingViewObject: ViewObject, @unchecked Sendable {
    // Safe by confinement to the UI thread, as every reference-host object.

    /// What the view shows.
    public internal(set) var content: (any HostedContent)?
    /// The top elements of the last render.
    public private(set) var elements: [HostedElement] = []
    /// How many times the content was rendered.
    public private(set) var renderCount = 0

    /// Creates a hosting view of `cls`.
    public override init(host: ReferenceHost, class cls: RuntimeClass, role: ElementRole) {
        super.init(host: host, class: cls, role: role)
        host.hostingViews.add(self)
    }

    /// Every drawn element that asks to be watched when seen, with its request.
    public var exposureRequests: [(element: HostedElement, request: HostedExposureRequest)] {
        allElements.compactMap { element in element.exposureRequest.map { (element, $0) } }
    }

    /// Evaluates the content's views again and updates the elements — what SwiftUI
    /// does when state the views read changes: an element drawn again with the same
    /// identity stays the same object.
    public func render() {
        let drawn = content?.render(in: Rect(x: 0, y: 0, width: frame.width, height: frame.height)) ?? []
        let rendered = HostedElement.reconcile(drawn, with: elements)
        for element in rendered { element.attach(to: self) }
        elements = rendered
        renderCount += 1
        hierarchyVersion.bump()
    }

    /// Every element, depth first.
    public var allElements: [HostedElement] { elements.flatMap(\.subtree) }

    /// The frontmost, deepest element under `point` (in this view's coordinates).
    public func element(at point: Point) -> HostedElement? {
        func deepest(in candidates: [HostedElement], offset: Point) -> HostedElement? {
            for element in candidates.reversed() {
                let frame = element.frame
                let x = point.x - offset.x, y = point.y - offset.y
                guard x >= frame.origin.x, x < frame.origin.x + frame.width, y >= frame.origin.y, y < frame.origin.y + frame.height else { continue }
                let inner = Point(x: offset.x + frame.origin.x, y: offset.y + frame.origin.y)
                return deepest(in: element.children, offset: inner) ?? element
            }
            return nil
        }
        return deepest(in: elements, offset: Point(x: 0, y: 0))
    }

    /// The element a tap at `point` activates: the element under it or the nearest
    /// one above it that responds to taps; `nil` when the tap lands on views that
    /// pass taps through (text, stacks, a list's background).
    public func tapTarget(at point: Point) -> HostedElement? {
        var current = element(at: point)
        while let element = current {
            if element.tapResponse != nil { return element }
            current = element.parentElement as? HostedElement
        }
        return nil
    }

    /// What SwiftUI does with a finger lifted at `point`: the tap target's response
    /// runs, then the views are rendered again with the state it changed.
    func performTap(at point: Point) {
        guard let target = tapTarget(at: point), let perform = target.perform else { return }
        perform()
        render()
    }

    // MARK: ElementNode

    /// The subviews, then the drawn elements.
    public override var childElements: [any ElementNode] { subviews + elements }
}
