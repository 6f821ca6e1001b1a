import AutoTrackEvents
/// AutoTrackProperties: `ElementNode`, `ElementProperties`, `ScreenNode`, `TrackingExclusions` … appear in this file's public API.
public import AutoTrackProperties
/// Synchronization: the atomics of the inlinable on/off and counting paths (`isEnabled`, counters).
public import Synchronization

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
    /// Calls not recorded because tracking was disabled — a statistic of opted-out
    /// calls, not of losses: counted without a locked instruction, so skips made at
    /// the same moment on several threads may be undercounted.
    public var disabledSkips = 0

    /// Creates zeroed counters.
    public init() {}

    /// Adds every counter of `other` to `diagnostics`: the sum over several contexts.
    public static func += (diagnostics: inout InterceptionDiagnostics, other: InterceptionDiagnostics) {
        diagnostics.delivered += other.delivered
        diagnostics.sinkFailures += other.sinkFailures
        diagnostics.bookkeepingFailures += other.bookkeepingFailures
        diagnostics.filtered += other.filtered
        diagnostics.deduplicated += other.deduplicated
        diagnostics.disabledSkips += other.disabledSkips
    }
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
    @usableFromInline let enabled = Atomic<Bool>(true)
    @usableFromInline package let counters = Counters()
    @usableFromInline let substitution = AtomicLazyReference<CombinatorSubstitution>()
    @usableFromInline let isSubstituted = Atomic<Bool>(false)
    private let elementCollector: ElementProperties
    /// Every stage an interaction passes on its way to the sink, in order.
    public let filters: InteractionFilterPipeline
    /// The exclusions stage of ``filters``, asked directly by hooks and monitors.
    private let exclusionFilter: ExclusionFilter

    /// One atomic counter per ``InterceptionDiagnostics`` field: counting is on the
    /// path of every intercepted call (disabled skips included), so it takes no lock.
    @usableFromInline
    package final class Counters: Sendable {
        let delivered = Atomic<Int>(0)
        let sinkFailures = Atomic<Int>(0)
        let bookkeepingFailures = Atomic<Int>(0)
        let filtered = Atomic<Int>(0)
        let deduplicated = Atomic<Int>(0)
        let disabledSkips = Atomic<Int>(0)

        init() {}

        @usableFromInline
        func add(_ counter: Counter) {
            switch counter {
            case .delivered: delivered.wrappingAdd(1, ordering: .relaxed)
            case .sinkFailures: sinkFailures.wrappingAdd(1, ordering: .relaxed)
            case .bookkeepingFailures: bookkeepingFailures.wrappingAdd(1, ordering: .relaxed)
            case .filtered: filtered.wrappingAdd(1, ordering: .relaxed)
            case .deduplicated: deduplicated.wrappingAdd(1, ordering: .relaxed)
            case .disabledSkips:
                // On the path of every call while tracking is off: a plain load and
                // store (no locked read-modify-write). Concurrent skips on several
                // threads may be undercounted; they are opt-outs, not losses.
                disabledSkips.store(disabledSkips.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
            }
        }

        package var snapshot: InterceptionDiagnostics {
            var diagnostics = InterceptionDiagnostics()
            diagnostics.delivered = delivered.load(ordering: .relaxed)
            diagnostics.sinkFailures = sinkFailures.load(ordering: .relaxed)
            diagnostics.bookkeepingFailures = bookkeepingFailures.load(ordering: .relaxed)
            diagnostics.filtered = filtered.load(ordering: .relaxed)
            diagnostics.deduplicated = deduplicated.load(ordering: .relaxed)
            diagnostics.disabledSkips = disabledSkips.load(ordering: .relaxed)
            return diagnostics
        }
    }

    /// A counter of ``InterceptionDiagnostics``.
    @usableFromInline
    package enum Counter: Sendable {
        /// ``InterceptionDiagnostics/delivered``.
        case delivered
        /// ``InterceptionDiagnostics/sinkFailures``.
        case sinkFailures
        /// ``InterceptionDiagnostics/bookkeepingFailures``.
        case bookkeepingFailures
        /// ``InterceptionDiagnostics/filtered``.
        case filtered
        /// ``InterceptionDiagnostics/deduplicated``.
        case deduplicated
        /// ``InterceptionDiagnostics/disabledSkips``.
        case disabledSkips
    }

    /// How `$element_type` names elements.
    public let elementTypeConvention: ElementTypeConvention

    /// Creates a context whose filters are `actionFilter`, `exclusions`, then
    /// `additionalFilters` (see ``InteractionFilterPipeline``).
    public init(
        sink: any InteractionSink, pathStyle: ViewPathStyle = .slash, exclusions: TrackingExclusions = .standard,
        actionFilter: ActionFilter = .standard, elementTypeConvention: ElementTypeConvention = .sensors,
        additionalFilters: [InteractionFilterPipeline.Stage] = []
    ) {
        self.sink = sink
        self.pathStyle = pathStyle
        self.exclusions = exclusions
        self.actionFilter = actionFilter
        self.elementTypeConvention = elementTypeConvention
        elementCollector = ElementProperties(pathStyle: pathStyle, typeConvention: elementTypeConvention)
        filters = InteractionFilterPipeline(actionFilter: actionFilter, exclusions: exclusions, additional: additionalFilters)
        // The pipeline's own exclusions stage, so its screen answers are shared.
        exclusionFilter = filters.stages.lazy.compactMap { $0.filter as? ExclusionFilter }.first ?? ExclusionFilter(exclusions)
    }

    /// Whether tracking is on. Turning it off makes hooks pass straight through; the
    /// originals still run exactly once.
    @inlinable public var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set { enabled.store(newValue, ordering: .relaxed) }
    }

    /// The counters so far.
    public var diagnostics: InterceptionDiagnostics { counters.snapshot }

    /// Adds one to a counter: for the combinator and sibling modules, never a hook's
    /// own business (hooks report through `Interceptor.intercept(dedupe:capture:original:)`).
    @inlinable
    package func count(_ counter: Counter) { counters.add(counter) }

    // MARK: Snapshots

    /// A snapshot of `element` now, with control attributes for `action`.
    public func snapshot(of element: any ElementNode, action: String? = nil, searchText: String? = nil) -> ElementSnapshot {
        var properties = Properties()
        properties.reserveCapacity(12)
        elementCollector.collect(for: element, screen: nil, into: &properties)
        ControlAttributes.collect(for: element, action: action, searchText: searchText, into: &properties)
        let marks = ElementPrivacy.marks(of: element)
        return ElementSnapshot(
            typeName: element.typeName, typeHierarchy: element.typeHierarchy, role: element.role,
            accessibilityIdentifier: element.accessibilityIdentifier, properties: properties, isIgnored: marks.ignored,
            isTextMasked: marks.textMasked, allowsRapidTaps: element.allowsRapidTaps, tapsMayDoNothing: element.tapsMayDoNothing)
    }

    /// A snapshot of `screen` now.
    public func snapshot(of screen: any ScreenNode) -> ScreenSnapshot {
        let state = screen.presentationState
        return ScreenSnapshot(
            typeName: screen.typeName, typeHierarchy: screen.typeHierarchy, properties: ScreenProperties.collect(for: screen),
            presentation: state.presentation, instance: ObjectIdentifier(screen),
            presentationRoot: state.root.map { ObjectIdentifier($0) }, isBeingDismissed: state.isBeingDismissed)
    }

    /// Tells the sink that `screen` disappeared, so its page time ends — unless
    /// tracking is off or the screen is excluded (it has no page; but an excluded
    /// screen's dismissal is told, for the page it covered resumes).
    public func screenDisappeared(_ screen: any ScreenNode) {
        guard isEnabled else { return }
        if excludes(screen: screen) {
            // Only a sheet-like presentation being dismissed matters: the page it covered resumes.
            let presentation = screen.presentation
            guard screen.isBeingDismissed, presentation.isPage, !presentation.presenterDisappears else { return }
        }
        sink.receiveScreenDisappearance(snapshot(of: screen))
    }

    // MARK: Emitting

    /// Hands `interaction` to the sink unless tracking is off or a stage of
    /// ``filters`` drops it. Never throws: sink errors are counted.
    public func emit(_ interaction: Interaction) {
        guard isEnabled else {
            count(.disabledSkips)
            return
        }
        if filters.stage(excluding: interaction) != nil {
            count(.filtered)
            if interaction.point.isScreenView { sink.receiveExcludedScreenView(interaction) }
            return
        }
        do {
            try sink.receive(interaction)
            count(.delivered)
        } catch {
            count(.sinkFailures)
        }
    }

    /// Whether ``exclusions`` leave `element` (its type, accessibility identifier or
    /// the app's own ignore mark) or `screen` alone.
    public func excludes(element: ElementSnapshot?, screen: ScreenSnapshot?) -> Bool {
        exclusionFilter.excludes(element: element, screen: screen)
    }

    /// Whether ``exclusions`` leave `screen` alone — a system or ignored controller
    /// type, or a subclass of one. The same as asking ``exclusions`` (its
    /// `ignores(screen:)`), remembering the answer for the last type hierarchy asked
    /// about: the system screen types are checked for every click.
    public func excludes(screen: any ScreenNode) -> Bool {
        exclusionFilter.excludesScreen(typeHierarchy: screen.typeHierarchy)
    }
}
