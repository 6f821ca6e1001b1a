/// The hosting views a host has made and not yet released, for what scans SwiftUI
/// content the app does not hand over (views asking to be watched when seen).
package final class HostingViewRegistry: @unchecked Sendable {
    // Safe by confinement to the UI thread, where hosting views are made and read.

    private final class WeakView {
        weak var view: HostingViewObject?
        init(_ view: HostingViewObject) { self.view = view }
    }

    private var views: [WeakView] = []

    package init() {}

    /// Registers `view`; released views are forgotten as it goes.
    func add(_ view: HostingViewObject) {
        views.removeAll { $0.view == nil }
        views.append(WeakView(view))
    }

    /// The live hosting views, in the order they were made.
    package var all: [HostingViewObject] { views.compactMap(\.view) }
}
