import AutoTrack
import AutoTrackEvents
import AutoTrackInterception
import AutoTrackLocking
import AutoTrackTesting
import Dispatch
import Foundation
import Testing

/// A burst waits for room instead of being dropped; only a stalled worker drops, and
/// says so; the tracker's own threads never wait for themselves.
@Suite("Back-pressure and re-entrancy")
struct BackPressureTests {
    /// An event observer that blocks the worker on a chosen event until released.
    final class WorkerGate: Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        var observer: @Sendable (Event) -> Void {
            { [self] event in
                guard event.name.rawValue == "stall" else { return }
                entered.signal()
                release.wait()
            }
        }
    }

    @Test("4 threads × 5 000 tracks through a hand-off of 16: every event stored, none dropped")
    func burstWaitsForRoom() throws {
        let directory = temporaryDirectory("back-pressure")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tracker, _) = try makeCollectingTracker(directory) {
            $0.maximumPendingEvents = 16
            $0.maximumWaitForRoom = .seconds(120)
            $0.queueLimits = DurableQueue.Limits(maximumRecords: 1 << 30, maximumBytes: 1 << 40)
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<5_000 { try? tracker.track("burst", properties: ["thread": .integer(Int64(thread)), "n": .integer(Int64(index))]) }
        }
        tracker.waitUntilQueued()
        let diagnostics = tracker.diagnostics
        #expect(diagnostics.queued == 20_000)
        #expect(diagnostics.droppedWhileBusy == 0)
        #expect(diagnostics.storeFailures == 0)
        print("burst through a hand-off of 16: \(diagnostics.waitsForRoom.count) waits, longest \(diagnostics.waitsForRoom.longest)")
        tracker.shutdown()
    }

    @Test("a worker stalled past the bound: track throws droppedWhileBusy and the drop is counted; the rest is stored")
    func stalledWorkerDrops() throws {
        let directory = temporaryDirectory("stalled")
        defer { try? FileManager.default.removeItem(at: directory) }
        let gate = WorkerGate()
        let (tracker, memory) = try makeCollectingTracker(directory) {
            $0.maximumPendingEvents = 2
            $0.maximumWaitForRoom = .milliseconds(50)
            $0.eventObserver = gate.observer
        }
        try tracker.track("stall")
        gate.entered.wait()  // the worker is held inside the observer now
        try tracker.track("a")
        try tracker.track("b")
        #expect {
            try tracker.track("c")
        } throws: { error in
            guard case .droppedWhileBusy(let waited) = error as? TrackingError else { return false }
            return waited >= .milliseconds(50)
        }
        #expect(tracker.diagnostics.droppedWhileBusy == 1)
        gate.release.signal()
        tracker.waitUntilQueued()
        #expect(memory.events.map(\.name.rawValue).filter { $0 != "$AppStart" } == ["stall", "a", "b"])
        #expect(tracker.diagnostics.queued == 3)
        tracker.shutdown()
    }

    @Test("an event observer may track, flush, wait and shut down: nothing deadlocks, its event is stored after the batch")
    func observerReentrancy() throws {
        let directory = temporaryDirectory("observer-reentry")
        defer { try? FileManager.default.removeItem(at: directory) }
        let box = TrackerBox()
        let reports = Locked<[Tracker.FlushReport]>([])
        let (tracker, memory) = try makeCollectingTracker(directory) { configuration in
            configuration.maximumPendingEvents = 1
            configuration.eventObserver = { event in
                guard event.name.rawValue == "trigger", let tracker = box.tracker else { return }
                // The worker's own thread: none of these may wait for it.
                for index in 0..<3 { try? tracker.track("from_observer", properties: ["n": .integer(Int64(index))]) }
                tracker.waitUntilQueued()
                let report = tracker.flush()
                reports.withLock { $0.append(report) }
            }
        }
        box.tracker = tracker
        try tracker.track("trigger")
        tracker.waitUntilQueued()
        tracker.waitUntilQueued()
        #expect(reports.withLock { $0 }.map(\.postponed) == [true])
        #expect(reports.withLock { $0 }.first?.delivered == 0)
        #expect(memory.events.filter { $0.name.rawValue == "from_observer" }.count == 3)
        #expect(tracker.diagnostics.droppedWhileBusy == 0)
        tracker.shutdown()
    }

    @Test("shutdown from an event observer completes without a deadlock")
    func observerShutdown() throws {
        let directory = temporaryDirectory("observer-shutdown")
        defer { try? FileManager.default.removeItem(at: directory) }
        let box = TrackerBox()
        let (tracker, _) = try makeCollectingTracker(directory) { configuration in
            configuration.eventObserver = { event in
                if event.name.rawValue == "last" { box.tracker?.shutdown() }
            }
        }
        box.tracker = tracker
        try tracker.track("last")
        tracker.waitUntilQueued()
        // A second call waits for the shutdown the observer started: the store is
        // closed and its lock released when it returns.
        tracker.shutdown()
        #expect(throws: TrackingError.shutDown) { try tracker.track("after") }
        let reopened = try Tracker(configuration: TrackerConfiguration(storeDirectory: directory, device: testDevice))
        let report = tracker.flush()
        #expect(report.delivered == 0 && report.rejected == 0 && !report.deferred && !report.postponed, "a closed tracker sends nothing")
        reopened.shutdown()
    }

    @Test("interaction contexts the app releases are freed; their counters stay in the diagnostics")
    func contextsReleased() throws {
        let directory = temporaryDirectory("contexts")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tracker, _) = try makeCollectingTracker(directory)
        weak var released: InteractionContext?
        do {
            let context = tracker.makeInteractionContext()
            released = context
            let page = MiniHost.Page("ListPage", title: "List")
            MiniHost.Reporter(context: context).shown(page)
            #expect(context.diagnostics.delivered == 1)
        }
        #expect(released == nil, "the tracker holds no context alive")
        tracker.waitUntilQueued()
        #expect(tracker.diagnostics.interception.delivered == 1, "a released context's counts remain")
        _ = tracker.makeInteractionContext()
        #expect(tracker.diagnostics.interception.delivered == 1)
        tracker.shutdown()
    }
}

/// The tracker an observer reaches, set once it exists.
final class TrackerBox: Sendable {
    private let stored = Locked<Tracker?>(nil)
    var tracker: Tracker? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
