import AutoTrack
import AutoTrackEvents
import AutoTrackProperties
import Foundation
import AutoTrackTesting

func temporaryDirectory(_ label: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-\(label)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A fixed device, so events are reproducible.
let testDevice = InMemoryTracker.testDevice

/// A tracker storing under `directory` with the test device, no automatic flush,
/// sequential event ids and `clock`, whose events are kept in memory as they are built.
func makeCollectingTracker(
    _ directory: URL, clock: ManualTimestampSource = ManualTimestampSource(start: Timestamp(millisecondsSince1970: 0)),
    configure: (inout TrackerConfiguration) -> Void = { _ in }
) throws -> (Tracker, InMemoryTracker) {
    let memory = try InMemoryTracker(storeDirectory: directory, clock: clock, configure: configure)
    return (memory.tracker, memory)
}
