import AutoTrack
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackReferenceHostIntegration
import AutoTrackReferenceUI
import Foundation
import Testing

@Suite("Documentation examples: enabling automatic capture")
struct AutomaticCaptureExampleTests {
    @Test("the overview's example runs as printed: enabled, then every hook removed")
    func overviewExample() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-doc-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = try ReferenceHost()
        let tracker = try Tracker(configuration: TrackerConfiguration(storeDirectory: directory))
        let capture = try tracker.enableAutoTrack(on: host)   // idempotent
        // … the app runs; clicks and screen views become events …
        try capture.disable()                                  // reversible
        #expect(capture.handles.isEmpty)
        let again = try tracker.enableAutoTrack(on: host)
        #expect(again !== capture)
        #expect(again.handles.count == BuiltInHooks.standard().count)
        tracker.shutdown()
    }
}
