import AutoTrack
import AutoTrackEvents
import Foundation
import Testing

/// How events travel from the calling thread to the worker: stored without being
/// waited for, the worker coming back by itself while events keep coming, and what a
/// caller's thread is left to release bounded.
@Suite("Submission hand-over")
struct SubmissionHandOverTests {
    @Test("events keep being stored without a wait; while they keep coming, callers schedule the worker only after a quiet spell")
    func workerComesBackByItself() throws {
        let (tracker, _) = try makeCollectingTracker(temporaryDirectory("hand-over"))
        defer { tracker.shutdown() }
        let clock = ContinuousClock()
        var last = clock.now
        var quietSpells = 0
        for _ in 0..<120 {
            let now = clock.now
            // A drain that finds nothing ends the worker's rounds; that needs at least
            // the batching delay (1 ms) between two hand-overs, so one of the two
            // gaps measured around them is at least half of it.
            if now - last >= .microseconds(500) { quietSpells += 1 }
            last = now
            try tracker.track("tick")
            Thread.sleep(forTimeInterval: 0.0002)
        }
        let scheduled = tracker.handOverStatistics.drainsScheduledBySubmitters
        // The first event schedules a drain; after that only a quiet spell lets a
        // caller schedule another (with callers scheduling every drain, 120 events
        // 0.2 ms apart needed one per millisecond: about 30).
        #expect(scheduled >= 1)
        #expect(scheduled <= 1 + quietSpells, "quiet spells: \(quietSpells)")
        #expect(eventually { tracker.diagnostics.queued == 120 })
    }

    @Test("stored submissions left for callers to release are bounded, and released as callers submit")
    func storedSubmissionsBounded() throws {
        let (tracker, _) = try makeCollectingTracker(temporaryDirectory("hand-over-bound"))
        defer { tracker.shutdown() }
        for index in 0..<5000 { try tracker.track("burst", properties: ["index": .number(Double(index))]) }
        tracker.waitUntilQueued()
        let afterBurst = tracker.handOverStatistics.storedSubmissionsAwaitingRelease
        #expect(afterBurst > 0)
        #expect(afterBurst <= 512)
        // Each new submission takes two stored ones with it.
        for _ in 0..<10 { try tracker.track("more") }
        #expect(tracker.handOverStatistics.storedSubmissionsAwaitingRelease <= max(0, afterBurst - 20) + 10)
        tracker.waitUntilQueued()
        #expect(tracker.diagnostics.queued == 5010)
    }
}
