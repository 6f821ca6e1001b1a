import AutoTrack
import AutoTrackEvents
import AutoTrackInterception
import AutoTrackLocking
import AutoTrackTesting
import Foundation
import Testing

/// Consent: granted, pending (kept, not sent) and denied (nothing recorded, the queue
/// purged, the identity reset), switched at run time and persisted.
@Suite("Tracking consent")
struct ConsentTests {
    @Test("pending: events are recorded and kept on disk, not sent; granted, they go out")
    func pendingThenGranted() throws {
        let directory = temporaryDirectory("consent-pending")
        defer { try? FileManager.default.removeItem(at: directory) }
        let memory = try InMemoryTracker(storeDirectory: directory) { $0.initialConsent = .pending }
        let tracker = memory.tracker
        #expect(tracker.consent == .pending)
        for index in 0..<3 { try tracker.track("view", properties: ["n": .integer(Int64(index))]) }
        let held = tracker.flush()
        #expect(held.heldForConsent && held.delivered == 0)
        #expect(memory.transport.events.isEmpty, "nothing left the process")
        #expect(tracker.queue.statistics.pendingRecords == 3, "kept on disk")
        tracker.setConsent(.granted)
        tracker.flush()
        #expect(tracker.diagnostics.delivered == 3, "granting sends what was kept (by itself or at the next flush)")
        #expect(memory.transport.events.map(\.name.rawValue) == ["view", "view", "view"])
        tracker.shutdown()
    }

    @Test("denied: the queue is purged, the identity reset, and nothing more is recorded — code or automatic")
    func denied() throws {
        let directory = temporaryDirectory("consent-denied")
        defer { try? FileManager.default.removeItem(at: directory) }
        let memory = try InMemoryTracker(storeDirectory: directory) { $0.initialConsent = .pending }
        let tracker = memory.tracker
        try tracker.login("user-42")
        let anonymous = tracker.identity.anonymousID
        try tracker.track("before")
        try tracker.track("before")
        tracker.setConsent(.denied)
        #expect(tracker.queue.statistics.pendingRecords == 0, "purged")
        #expect(tracker.diagnostics.purgedByConsent == 2)
        #expect(tracker.identity.loginID == nil, "logged out")
        #expect(tracker.identity.anonymousID != anonymous, "a new anonymous id")
        #expect(throws: TrackingError.consentDenied) { try tracker.track("after") }
        let context = tracker.makeInteractionContext()
        MiniHost.Reporter(context: context).shown(MiniHost.Page("ListPage", title: "List"))
        tracker.trackAppStart(resumingFromBackground: true)
        tracker.waitUntilQueued()
        #expect(tracker.queue.statistics.pendingRecords == 0, "nothing recorded while denied")
        #expect(tracker.diagnostics.refusedByConsent == 3)
        #expect(tracker.flush().delivered == 0)
        #expect(memory.transport.events.isEmpty, "nothing was ever sent")
        tracker.shutdown()
    }

    @Test("the consent is persisted: a new tracker on the store starts with it, whatever its initial consent says")
    func persisted() throws {
        let directory = temporaryDirectory("consent-persisted")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try InMemoryTracker(storeDirectory: directory)
        first.tracker.setConsent(.denied)
        first.tracker.shutdown()
        let second = try InMemoryTracker(storeDirectory: directory) { $0.initialConsent = .granted }
        #expect(second.tracker.consent == .denied)
        #expect(throws: TrackingError.consentDenied) { try second.tracker.track("after") }
        second.tracker.setConsent(.granted)
        try second.tracker.track("again")
        #expect(second.tracker.flush().delivered == 1)
        second.tracker.shutdown()
        let third = try InMemoryTracker(storeDirectory: directory) { $0.initialConsent = .pending }
        #expect(third.tracker.consent == .granted)
        third.tracker.shutdown()
    }
}

/// What consent withdrawn in the middle of things leaves behind: nothing of before.
@Suite("Consent withdrawn mid-way")
struct ConsentWithdrawnTests {
    /// A transport that withdraws consent while delivering its first batch.
    final class WithdrawingTransport: Transport, Sendable {
        let box = TrackerBox()
        let batches = Locked<[Int]>([])

        func deliver(_ events: [Event]) -> DeliveryResult {
            let first = batches.withLock { batches in
                batches.append(events.count)
                return batches.count == 1
            }
            if first { box.tracker?.setConsent(.denied) }
            return .accepted
        }
    }

    @Test("a flush in progress stops before its next batch when consent is withdrawn; the rest is purged, not sent")
    func flushStops() throws {
        let directory = temporaryDirectory("consent-mid-flush")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = WithdrawingTransport()
        let tracker = try Tracker(configuration: TrackerConfiguration(
            storeDirectory: directory, device: testDevice, transport: .custom(transport),
            flushPolicy: FlushPolicy(batchSize: 10, interval: nil)))
        transport.box.tracker = tracker
        tracker.setConsent(.pending)
        for index in 0..<50 { try tracker.track("view", properties: ["n": .integer(Int64(index))]) }
        // All 50 stored before consent is granted (granting may start a flush at once:
        // it must find the 50, not the few stored so far).
        tracker.waitUntilQueued()
        tracker.setConsent(.granted)
        tracker.flush()
        tracker.waitUntilQueued()
        #expect(transport.batches.withLock { $0 } == [10], "one batch went out before the withdrawal, no more")
        #expect(eventually { tracker.diagnostics.purgedByConsent == 40 }, "the rest purged, counted once")
        #expect(tracker.queue.statistics.pendingRecords == 0)
        tracker.shutdown()
    }

    @Test("a tap waiting for an answer and the open page are forgotten when consent is denied; nothing of them appears after")
    func stateForgotten() throws {
        var settings = AutoTrackSettings()
        settings.eventTypes = .all
        let memory = try InMemoryTracker { $0.autoTrackSettings = settings }
        defer { memory.close() }
        let tracker = memory.tracker
        let context = tracker.makeInteractionContext()
        let page = MiniHost.Page("ListPage", title: "List")
        MiniHost.Reporter(context: context).shown(page)
        tracker.noteTap(on: context.snapshot(of: page.root), screen: context.snapshot(of: page))
        tracker.waitUntilQueued()
        tracker.setConsent(.denied)
        memory.clock.advance(by: 5_000)
        tracker.setConsent(.granted)
        tracker.trackAppEnd()
        tracker.waitUntilQueued()
        let after = memory.events.map(\.name.rawValue).drop { $0 != "$AppEnd" }
        #expect(Array(after) == ["$AppEnd"], "no dead click, no page leave from before the denial")
    }

    @Test("going to the background answers a waiting tap: a tap that opened another app is no dead click")
    func backgroundAnswersTaps() throws {
        var settings = AutoTrackSettings()
        settings.eventTypes.insert(.appDeadClick)
        let memory = try InMemoryTracker { $0.autoTrackSettings = settings }
        defer { memory.close() }
        let context = memory.tracker.makeInteractionContext()
        let page = MiniHost.Page("ListPage", title: "List")
        memory.tracker.noteTap(on: context.snapshot(of: page.root), screen: context.snapshot(of: page))
        memory.clock.advance(by: 200)
        memory.tracker.trackAppEnd()
        memory.clock.advance(by: 5_000)
        memory.tracker.trackAppStart(resumingFromBackground: true)
        memory.tracker.waitUntilQueued()
        #expect(!memory.eventNames.contains("$AppDeadClick"))
    }
}
