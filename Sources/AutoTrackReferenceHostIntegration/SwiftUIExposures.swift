import AutoTrack
import AutoTrackReferenceUI

/// Exposure for SwiftUI views that ask for it (`.autoTrackExposure(…)`): the app has
/// no element to hand the monitor, so each run-loop turn watches what the live hosting
/// views draw with a request. Drawn again with the same identity, an element is the
/// same object, so watching it again keeps its appearance; an element no longer drawn
/// is released, and its appearance ends.
enum SwiftUIExposures {
    /// Watches every requested element of `host`'s hosting views on `monitor`.
    static func watchRequested(on host: ReferenceHost, monitor: ElementExposureMonitor) {
        for view in host.hostingViews.all {
            for (element, request) in view.exposureRequests {
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
}
