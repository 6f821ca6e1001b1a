/// AutoTrack: `Tracker`, `TrackerConfiguration`, `QueueError` appear in this file's public API.
public import AutoTrack
/// AutoTrackEvents: `Event`, `TimestampSource` appear in this file's public API.
public import AutoTrackEvents
/// AutoTrackProperties: `DeviceInfo` appears in this file's public API.
public import AutoTrackProperties
/// Foundation: `URL` appears in this file's public API.
public import Foundation
import AutoTrackLocking

/// A real `Tracker` for tests, whose events can be read back in memory: every event as
/// it is built (its observer), and every event a flush delivered (an
/// ``InMemoryTransport``).
///
/// It stores in a fresh temporary directory, which ``close()`` removes (or in a
/// directory the test gives, which it leaves), with a fixed device, sequential event
/// ids, no automatic flush and a manual clock — so the events a test tracks are the same
/// on every run.
///
/// ```swift
/// let memory = try InMemoryTracker()
/// defer { memory.close() }
/// try memory.tracker.track("purchase", properties: ["price": .number(9.5)])
/// memory.tracker.waitUntilQueued()
/// #expect(memory.eventNames == ["purchase"])
/// ```
public final class InMemoryTracker: Sendable {
    /// The tracker.
    public let tracker: Tracker
    /// Where its flushes deliver.
    public let transport: InMemoryTransport
    /// Its clock, when the configuration kept the manual one.
    public let clock: ManualTimestampSource
    /// Where it stores.
    public let storeDirectory: URL
    private let built = BuiltEvents()
    private let ownsDirectory: Bool

    /// The events the observer saw, shared with the observer closure.
    private final class BuiltEvents: Sendable {
        let events = Locked<[Event]>([])
    }

    /// A fixed device, so events are reproducible.
    public static let testDevice = DeviceInfo(
        library: "Swift", libraryVersion: "0.1.0", operatingSystem: "iOS", operatingSystemVersion: "17.4", model: "iPhone15,3",
        manufacturer: "Apple", appVersion: "1.0", screenWidth: 390, screenHeight: 844, timezoneOffsetMinutes: -480)

    /// Opens a tracker storing in `storeDirectory` (a new temporary one by default),
    /// with `clock`, sequential event ids, the ``testDevice``, no automatic flush and an
    /// ``InMemoryTransport``; `configure` changes anything else. An event observer the
    /// configuration sets is called too.
    public init(
        storeDirectory: URL? = nil, clock: ManualTimestampSource = ManualTimestampSource(start: Timestamp(millisecondsSince1970: 0)),
        configure: (inout TrackerConfiguration) -> Void = { _ in }
    ) throws(QueueError) {
        let directory = storeDirectory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("autotrack-in-memory-\(UUID().uuidString)")
        ownsDirectory = storeDirectory == nil
        self.storeDirectory = directory
        self.clock = clock
        let transport = InMemoryTransport()
        self.transport = transport
        let built = self.built
        var configuration = TrackerConfiguration(
            storeDirectory: directory, device: Self.testDevice, transport: .custom(transport),
            flushPolicy: FlushPolicy(batchSize: 1000, interval: nil), clock: clock, eventIDs: SequentialEventIDGenerator())
        configure(&configuration)
        let observer = configuration.eventObserver
        configuration.eventObserver = { event in
            built.events.withLock { $0.append(event) }
            observer?(event)
        }
        tracker = try Tracker(configuration: configuration)
    }

    /// Shuts the tracker down and removes the store directory it made (one a test gave
    /// is left). The tracker may outlive this value — a test may keep only the tracker —
    /// so nothing happens by itself when it goes.
    public func close() {
        tracker.shutdown()
        if ownsDirectory { try? FileManager.default.removeItem(at: storeDirectory) }
    }

    /// Every event built so far, in order, as stored (presets included).
    public var events: [Event] { built.events.withLock { $0 } }

    /// Their names, in order.
    public var eventNames: [String] { built.events.withLock { $0.map(\.name.rawValue) } }

    /// The events flushes delivered, in order.
    public var delivered: [Event] { transport.events }

    /// Forgets the events built so far (not the queue's).
    public func clear() { built.events.withLock { $0.removeAll() } }
}
