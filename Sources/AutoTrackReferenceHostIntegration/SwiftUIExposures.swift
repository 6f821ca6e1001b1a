import AutoTrack
import AutoTrackLocking
import AutoTrackReferenceUI

/// Exposure for SwiftUI views that ask for it (`.autoTrackExposure(…)`): the app has
/// no element to hand the monitor, so each run-loop turn watches what the live hosting
/// views draw with a request, and stops watching an element whose request a render
/// took away. Drawn again with the same identity, an element is the same object, so
/// watching it again keeps its appearance; an element no longer drawn is released,
/// and its appearance ends.
final class SwiftUIExposures: Sendable {
    /// An element watched, held weakly.
    private struct Watched: @unchecked Sendable {
        // Safe: compared by identity under the lock and handed to the monitor on the
        // UI thread, where `watchRequested` runs.
        weak var element: HostedElement?
        /// The request it is watched with.
        let request: HostedExposureRequest
    }

    private let monitor: ElementExposureMonitor
    private let watched = Locked<[Watched]>([])

    init(monitor: ElementExposureMonitor) {
        self.monitor = monitor
    }

    /// Watches every requested element of `host`'s hosting views, and unwatches those
    /// watched before that no longer ask. UI thread only.
    func watchRequested(on host: ReferenceHost) {
        var requested: [(HostedElement, HostedExposureRequest)] = []
        for view in host.hostingViews.all { requested += view.exposureRequests }
        let next = requested.map { Watched(element: $0.0, request: $0.1) }
        let previous = watched.withLock { watched in
            defer { watched = next }
            return watched
        }
        for element in previous.compactMap(\.element) where !requested.contains(where: { $0.0 === element }) {
            monitor.unwatch(element)
        }
        // Only what is new or asks for something else: watching again with the same
        // request would change nothing but cost a validation every turn.
        let unchanged = { (element: HostedElement, request: HostedExposureRequest) in
            previous.contains { $0.element === element && $0.request == request }
        }
        for (element, request) in requested where !unchanged(element, request) {
            // The request's values were brought into range when it was made.
            let options = try? ExposureOptions(
                minimumVisibleRatio: request.minimumVisibleRatio, minimumDuration: request.minimumDuration, repeats: request.repeats)
            do {
                try monitor.watch(element, options: options, properties: request.properties)
            } catch {
                // Properties the tracker's rules refuse: the exposure is still
                // recorded, with the collected properties only.
                try? monitor.watch(element, options: options)
            }
        }
    }
}
