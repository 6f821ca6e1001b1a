import AutoTrack
import AutoTrackEvents
import AutoTrackLocking
import AutoTrackProperties
import AutoTrackReferenceHostIntegration
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackSampleSession
import Foundation

/// The scripted session played step by step for `autotrack inspect --serve`: a sample
/// app with automatic capture, a tracker keeping its events in memory for the heat
/// map. Confined to one serial queue.
final class LiveSession: Sendable {
    private let queue = DispatchQueue(label: "autotrack.inspect.session")
    private let state: Locked<State>
    private let events = Recorded()
    private let directory: URL
    let device = DeviceInfo.current(appVersion: "1.0", screenWidth: 390, screenHeight: 844)

    // Unchecked: the app and tracker are touched only on `queue` (the session's UI thread).
    private struct State: @unchecked Sendable {
        let app: SampleApp
        let tracker: Tracker
        var next = 0
        var lastStep: String?
    }

    /// A session launched on its first step.
    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-inspect-live-\(UUID().uuidString)")
        let events = events
        var configuration = TrackerConfiguration(
            storeDirectory: directory, device: device, transport: .custom(DiscardingTransport()),
            flushPolicy: FlushPolicy(batchSize: 100_000, interval: nil),
            eventObserver: { event in events.list.withLock { $0.append(event) } })
        configuration.autoTrackSettings.eventTypes = .standard
        let tracker = try Tracker(configuration: configuration)
        let host = try ReferenceHost()
        try tracker.enableAutoTrack(on: host)
        let app = try SampleApp(host: host)
        state = Locked(State(app: app, tracker: tracker))
        _ = try step()
    }

    deinit {
        state.withLock { $0.tracker.shutdown() }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Performs the next step of the scripted session; its description, or `nil` when
    /// the session is over.
    func step() throws -> String? {
        try queue.sync {
            let (app, tracker, index) = state.withLock { ($0.app, $0.tracker, $0.next) }
            guard index < ScriptedSession.steps.count else { return nil }
            let step = ScriptedSession.steps[index]
            try step.perform(on: app, tracker: tracker)
            tracker.waitUntilQueued()
            state.withLock {
                $0.next += 1
                $0.lastStep = "\($0.next)/\(ScriptedSession.steps.count) \(step.description)"
            }
            return step.description
        }
    }

    /// What the page shows now: the visible screen and the session's clicks so far.
    func payload() throws -> InspectPage.Payload {
        try queue.sync {
            let (app, step) = state.withLock { ($0.app, $0.lastStep) }
            let screen = try ScreenInspection.screen(of: app, label: "live", device: device)
            return InspectPage.Payload(
                screens: [screen], heat: ClickHeat(events: events.list.withLock { $0 }), source: "the live session", live: true, step: step)
        }
    }

    /// The session's events, as the tracker's observer saw them.
    final class Recorded: Sendable {
        let list = Locked<[Event]>([])
    }
}
