/// AutoTrackInterception: `Interaction`, `InteractionSink`, `ScreenSnapshot` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackLocking

/// A sink that keeps everything it is told, in order, for tests: the interactions a
/// context delivered, the screen views its filters dropped and the screens it said
/// disappeared.
///
/// Thread-safe. It can also stand for a failing sink (``init(failingWith:onReceive:)``
/// with a failure: every delivery is counted and throws) and tell a test about each
/// delivery as it happens (`onReceive`, to order clicks among the originals' own log).
///
/// ```swift
/// let sink = InMemoryInteractionSink()
/// let context = InteractionContext(sink: sink)
/// // … install a hook with `context`, perform a user action …
/// #expect(sink.interactions.map(\.point) == [.sendAction])
/// ```
public final class InMemoryInteractionSink: InteractionSink {
    /// One thing the sink was told.
    public enum Record: Hashable, Sendable {
        /// An interaction was delivered (`InteractionSink.receive(_:)`).
        case received(Interaction)
        /// A screen view the context's filters dropped
        /// (`InteractionSink.receiveExcludedScreenView(_:)`).
        case excludedScreenView(Interaction)

        /// The interaction, whichever it was.
        public var interaction: Interaction {
            switch self {
            case .received(let interaction), .excludedScreenView(let interaction): interaction
            }
        }
    }

    /// What a failing sink throws when no failure was given.
    public struct Failure: Error, Hashable, Sendable {
        /// Creates the failure.
        public init() {}
    }

    private struct State {
        var records: [Record] = []
        var disappearances: [ScreenSnapshot] = []
        var attempts = 0
    }

    private let state = Locked(State())
    private let failure: (any Error & Sendable)?
    private let onReceive: (@Sendable (Interaction) -> Void)?

    /// A sink that keeps what it is told. With `failure`, every delivery is counted in
    /// ``attempts`` and throws it instead (nothing is kept). `onReceive` is called with
    /// every interaction delivered, before it is kept.
    public init(failingWith failure: (any Error & Sendable)? = nil, onReceive: (@Sendable (Interaction) -> Void)? = nil) {
        self.failure = failure
        self.onReceive = onReceive
    }

    /// Keeps `interaction`, or throws the failure this sink was made with.
    public func receive(_ interaction: Interaction) throws {
        state.withLock { $0.attempts += 1 }
        if let failure { throw failure }
        onReceive?(interaction)
        state.withLock { $0.records.append(.received(interaction)) }
    }

    /// Keeps the dropped screen view.
    public func receiveExcludedScreenView(_ interaction: Interaction) {
        state.withLock { $0.records.append(.excludedScreenView(interaction)) }
    }

    /// Keeps the screen that disappeared.
    public func receiveScreenDisappearance(_ screen: ScreenSnapshot) {
        state.withLock { $0.disappearances.append(screen) }
    }

    /// The screens the context said disappeared, in order.
    public var disappearances: [ScreenSnapshot] { state.withLock { $0.disappearances } }

    /// Everything the sink was told, in order.
    public var records: [Record] { state.withLock { $0.records } }

    /// The interactions delivered, in order.
    public var interactions: [Interaction] {
        state.withLock { state in
            state.records.compactMap { if case .received(let interaction) = $0 { interaction } else { nil } }
        }
    }

    /// How many interactions were delivered and kept.
    public var count: Int {
        state.withLock { state in state.records.count { if case .received = $0 { true } else { false } } }
    }

    /// The screen views the context's filters dropped, in order.
    public var excludedScreenViews: [Interaction] {
        state.withLock { state in
            state.records.compactMap { if case .excludedScreenView(let interaction) = $0 { interaction } else { nil } }
        }
    }

    /// How many deliveries were attempted, failed ones included.
    public var attempts: Int { state.withLock { $0.attempts } }

    /// Forgets everything.
    public func clear() { state.withLock { $0 = State() } }
}
