/// AutoTrackRuntime: `RuntimeError` appears in this file's public API.
public import AutoTrackRuntime
import AutoTrackProperties

// MARK: Touches on SwiftUI content

extension TouchDriver {
    /// A finger's tap on the centre of `element`, drawn in a hosting view: a touch on
    /// the hosting view at that point through `-[UIApplication sendEvent:]`, which
    /// SwiftUI resolves to the element or the nearest one above it that answers taps.
    /// - Throws: `RuntimeError.exception(name:reason:)` when the element is no
    ///   longer drawn in a hosting view.
    public func tap(_ element: HostedElement) throws(RuntimeError) {
        guard let hostingView = element.hostingView, hostingView.allElements.contains(where: { $0 === element }) else {
            throw .exception(name: "TouchDriver", reason: "the element \(element.typeName) is not drawn in a hosting view")
        }
        try touch(hostingView, at: element.frameInHostingView.center)
    }

    /// A finger's tap on the element of `hostingView` whose label or accessibility
    /// identifier is `label` (the first, depth first, that answers taps, else any).
    /// - Throws: `RuntimeError.exception(name:reason:)` when no element has it.
    public func tap(_ label: String, in hostingView: HostingViewObject) throws(RuntimeError) {
        let matching = hostingView.allElements.filter { $0.ownText == label || $0.accessibilityIdentifier == label }
        guard let element = matching.first(where: { $0.tapResponse != nil }) ?? matching.first else {
            throw .exception(name: "TouchDriver", reason: "no element labelled '\(label)' is drawn")
        }
        try tap(element)
    }
}
