import AutoTrackEvents
/// AutoTrackProperties: `ElementNode`, `ElementProperties`, `ScreenNode`, `TrackingExclusions` … appear in this file's public API.
public import AutoTrackProperties
import Synchronization

/// Counters of everything a hook swallowed to stay fail-open. Nothing here stops or
/// repeats an original; these numbers are how such events become visible.
public struct InterceptionDiagnostics: Hashable, Sendable {
    /// Interactions handed to the sink.
    public var delivered = 0
    /// Sink calls that threw.
    public var sinkFailures = 0
    /// Hook bookkeeping that failed (wrong receiver type, missing state …).
    public var bookkeepingFailures = 0
    /// Interactions dropped by filters (actions, element types, screens).
    public var filtered = 0
    /// Re-entrant or duplicate dispatches that recorded nothing.
    public var deduplicated = 0
    /// Interactions skipped because tracking was disabled.
    public var disabledSkips = 0

    /// Creates zeroed counters.
    public init() {}
}

/// What every hook shares: where interactions go, how elements are snapshotted and
/// filtered, whether tracking is on, and the exactly-once machinery.
public final class InteractionContext: Sendable {
    /// Where interactions go.
    public let sink: any InteractionSink
    /// How element paths are written.
    public let pathStyle: ViewPathStyle
    /// Elements and screens to leave alone.
    public let exclusions: TrackingExclusions
    /// Actions that are not clicks.
    public let actionFilter: ActionFilter
    /// The re-entrancy guard shared by all hooks of this context.
    public let reentrancy = ReentrancyGuard()
    /// The per-touch deduplicator shared by the send-action hooks.
    public let touches = TouchDeduplicator()
    private let enabled = Atomic<Bool>(true)
    private let counters = Mutex(InterceptionDiagnostics())
    private let elementCollector: ElementProperties

    /// Creates a context.
    public init(
        sink: any InteractionSink, pathStyle: ViewPathStyle = .slash, exclusions: TrackingExclusions = .standard,
        actionFilter: ActionFilter = .standard
    ) {
        self.sink = sink
        self.pathStyle = pathStyle
        self.exclusions = exclusions
        self.actionFilter = actionFilter
        elementCollector = ElementProperties(pathStyle: pathStyle)
    }

    /// Whether tracking is on. Turning it off makes hooks pass straight through; the
    /// originals still run exactly once.
    public var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set { enabled.store(newValue, ordering: .relaxed) }
    }

    /// The counters so far.
    public var diagnostics: InterceptionDiagnostics { counters.withLock { $0 } }

    /// Adds to a counter.
    public func count(_ keyPath: WritableKeyPath<InterceptionDiagnostics, Int>) {
        counters.withLock { $0[keyPath: keyPath] += 1 }
    }

    // MARK: Snapshots

    /// A snapshot of `element` now, with control attributes for `action`.
    public func snapshot(of element: any ElementNode, action: String? = nil, searchText: String? = nil) -> ElementSnapshot {
        var properties = elementCollector.collect(for: element)
        properties.merge(ControlAttributes.collect(for: element, action: action, searchText: searchText))
        return ElementSnapshot(
            typeName: element.typeName, typeHierarchy: element.typeHierarchy, role: element.role,
            accessibilityIdentifier: element.accessibilityIdentifier, properties: properties)
    }

    /// A snapshot of `screen` now.
    public func snapshot(of screen: any ScreenNode) -> ScreenSnapshot {
        ScreenSnapshot(typeName: screen.typeName, typeHierarchy: screen.typeHierarchy, properties: ScreenProperties.collect(for: screen))
    }

    // MARK: Emitting

    /// Hands `interaction` to the sink unless tracking is off or a filter drops it.
    /// Never throws: sink errors are counted.
    public func emit(_ interaction: Interaction) {
        guard isEnabled else {
            count(\.disabledSkips)
            return
        }
        if let element = interaction.element {
            let ignoredType = element.typeHierarchy.contains { exclusions.elementTypes.contains($0) }
            let ignoredIdentifier = element.accessibilityIdentifier.map { exclusions.accessibilityIdentifiers.contains($0) } ?? false
            if ignoredType || ignoredIdentifier {
                count(\.filtered)
                return
            }
        }
        if let actionName = interaction.details.actionName, actionFilter.ignores(actionName) {
            count(\.filtered)
            return
        }
        if let screen = interaction.screen, screen.typeHierarchy.contains(where: { exclusions.screenTypes.contains($0) }) {
            count(\.filtered)
            return
        }
        do {
            try sink.receive(interaction)
            count(\.delivered)
        } catch {
            count(\.sinkFailures)
        }
    }

    /// Runs hook bookkeeping fail-open: an error is counted and `nil` returned, so
    /// the caller goes on to run the original exactly once.
    public func failOpen<T>(_ bookkeeping: () throws -> T?) -> T? {
        do {
            return try bookkeeping()
        } catch {
            count(\.bookkeepingFailures)
            return nil
        }
    }
}
