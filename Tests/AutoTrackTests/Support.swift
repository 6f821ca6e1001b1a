import AutoTrack
import AutoTrackEvents
import AutoTrackProperties
import Foundation
import Synchronization

func temporaryDirectory(_ label: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-\(label)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A fixed device, so events are reproducible.
let testDevice = DeviceInfo(
    library: "Swift", libraryVersion: "0.1.0", operatingSystem: "iOS", operatingSystemVersion: "17.4", model: "iPhone15,3",
    manufacturer: "Apple", appVersion: "1.0", screenWidth: 390, screenHeight: 844, timezoneOffsetMinutes: -480)

/// The events a tracker built, in order, as its event observer saw them.
final class CollectedEvents: Sendable {
    let events = Mutex<[Event]>([])
    /// The names, in order.
    var names: [String] { events.withLock { $0.map(\.name.rawValue) } }
}

/// A tracker storing under `directory` with the test device, no automatic flush,
/// sequential event ids and `clock`, whose events are collected as they are built.
func makeCollectingTracker(
    _ directory: URL, clock: ManualTimestampSource = ManualTimestampSource(start: Timestamp(millisecondsSince1970: 0)),
    configure: (inout TrackerConfiguration) -> Void = { _ in }
) throws -> (Tracker, CollectedEvents) {
    let collected = CollectedEvents()
    var configuration = TrackerConfiguration(
        storeDirectory: directory, device: testDevice, flushPolicy: FlushPolicy(batchSize: 1000, interval: nil),
        clock: clock, eventIDs: SequentialEventIDGenerator(),
        eventObserver: { event in collected.events.withLock { $0.append(event) } })
    configure(&configuration)
    return (try Tracker(configuration: configuration), collected)
}
