import AutoTrackLocking

/// The hosting views a host has made and not yet released, for what scans SwiftUI
/// content the app does not hand over (views asking to be watched when seen).
package final class HostingViewRegistry: Sendable {
    /// A hosting view, held weakly.
    private struct WeakView: @unchecked Sendable {
        // Safe: only compared with nil and handed back under the lock; the view is
        // read on the UI thread, as every reference-host object.
        weak var view: HostingViewObject?
    }

    private let views = Locked<[WeakView]>([])

    package init() {}

    /// Registers `view`; released views are forgotten as it goes.
    func add(_ view: HostingViewObject) {
        views.withLock { views in
            views.removeAll { $0.view == nil }
            views.append(WeakView(view: view))
        }
    }

    /// The live hosting views, in the order they were made.
    package var all: [HostingViewObject] { views.withLock { $0.compactMap(\.view) } }
}
