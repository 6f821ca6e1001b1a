/// AutoTrack: `Transport`, `DeliveryResult` appear in this file's public API.
public import AutoTrack
/// AutoTrackEvents: `Event` appears in this file's public API.
public import AutoTrackEvents
import AutoTrackLocking

/// A transport that keeps the events it is handed, for tests, and answers every batch
/// with what ``respond`` says (accepted by default) — so a test can stand for a
/// collector that is down, refuses, or settles part of a batch.
public final class InMemoryTransport: Transport {
    private let delivered = Locked<[Event]>([])
    private let batches = Locked(0)
    private let answer: Locked<@Sendable ([Event]) -> DeliveryResult>

    /// A transport that accepts everything.
    public init() { answer = Locked({ _ in .accepted }) }

    /// What the transport answers a batch (the events are kept only when it is
    /// `.accepted`, or as far as a `.partial` settled them).
    public var respond: @Sendable ([Event]) -> DeliveryResult {
        get { answer.withLock { $0 } }
        set { answer.withLock { $0 = newValue } }
    }

    /// Keeps what `respond` lets through and answers with it.
    public func deliver(_ events: [Event]) -> DeliveryResult {
        batches.withLock { $0 += 1 }
        let result = respond(events)
        switch result {
        case .accepted: delivered.withLock { $0 += events }
        case .partial(let settled, let rejected, _, _):
            let kept = events.prefix(settled).enumerated().filter { !rejected.contains($0.offset) }.map(\.element)
            delivered.withLock { $0 += kept }
        case .retryLater, .rejected: break
        }
        return result
    }

    /// The events delivered, in order.
    public var events: [Event] { delivered.withLock { $0 } }

    /// How many batches the tracker handed over.
    public var batchCount: Int { batches.withLock { $0 } }
}
