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

/// Waits until `condition` holds, checking every few milliseconds, for at most `limit`
/// — a bound far beyond any delay the condition needs, so a loaded machine only makes
/// the wait longer, never the test fail; returns whether it held.
func eventually(within limit: Duration = .seconds(60), _ condition: () -> Bool) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while !condition() {
        guard clock.now < deadline else { return false }
        Thread.sleep(forTimeInterval: 0.002)
    }
    return true
}
