/// AutoTrackProperties: `TrackingExclusions` appears in this file's public API.
public import AutoTrackProperties
import AutoTrackLocking

/// One stage of automatic capture's filtering: decides whether an interaction is left
/// alone. Conform a value to it to add a stage (see ``InteractionFilterPipeline``).
public protocol InteractionFilter: Sendable {
    /// Whether `interaction` is not to be recorded.
    func excludes(_ interaction: Interaction) -> Bool
}

/// The one ordered list of everything that keeps a captured interaction from its sink,
/// run in one place: ``InteractionContext/emit(_:)``.
///
/// In order, an interaction is dropped when:
/// 1. its hook said it is no user click (``CaptureSkip/filtered``: typing into a text
///    field, a search field before it ends editing) — decided in the hook's capture,
///    before there is an interaction;
/// 2. tracking is off (``InteractionContext/isEnabled``; counted as a disabled skip);
/// 3. ``Stage/Name/actions``: its action is another library's or a private one
///    (``ActionFilter``);
/// 4. ``Stage/Name/exclusions``: the app marked its element ignored, or its element
///    type, accessibility identifier or screen type is excluded
///    (`TrackingExclusions`);
/// 5. any stage the context was made with after those — a tracker adds its run-time
///    settings (``Stage/Name/settings``: event types off, ignored screens, element types
///    and ids).
///
/// The first stage that excludes an interaction is the one counted
/// (``InterceptionDiagnostics/filtered``); a screen view dropped at any stage still
/// tells the sink the screen shown before was left
/// (``InteractionSink/receiveExcludedScreenView(_:)``).
public struct InteractionFilterPipeline: Sendable {
    /// One stage: a name for reports, and its filter.
    public struct Stage: Sendable {
        /// A stage's name.
        public struct Name: Hashable, Sendable, CustomStringConvertible {
            /// The name, e.g. `actions`.
            public let rawValue: String
            /// A stage named `rawValue`.
            public init(_ rawValue: String) { self.rawValue = rawValue }
            /// Another library's or a private action (``ActionFilter``).
            public static let actions = Name("actions")
            /// The app's exclusions (`TrackingExclusions`) and ignore marks.
            public static let exclusions = Name("exclusions")
            /// A tracker's run-time settings.
            public static let settings = Name("settings")
            /// The name.
            public var description: String { rawValue }
        }

        /// The stage's name.
        public let name: Name
        /// Its filter.
        public let filter: any InteractionFilter

        /// A stage named `name`.
        public init(_ name: Name, _ filter: any InteractionFilter) {
            self.name = name
            self.filter = filter
        }
    }

    /// The stages, in the order they are asked.
    public let stages: [Stage]

    /// The standard stages — ``Stage/Name/actions`` then ``Stage/Name/exclusions`` —
    /// followed by `additional` ones.
    public init(actionFilter: ActionFilter = .standard, exclusions: TrackingExclusions = .standard, additional: [Stage] = []) {
        stages = [Stage(.actions, actionFilter), Stage(.exclusions, ExclusionFilter(exclusions))] + additional
    }

    /// The first stage that excludes `interaction`, or `nil` when it passes them all.
    public func stage(excluding interaction: Interaction) -> Stage.Name? {
        for stage in stages where stage.filter.excludes(interaction) { return stage.name }
        return nil
    }
}

extension ActionFilter: InteractionFilter {
    /// Whether the interaction's action produces no click. A tab bar item is never
    /// filtered by its action: UIKit's tab action is always private, and the tap is
    /// still the user's.
    public func excludes(_ interaction: Interaction) -> Bool {
        guard let action = interaction.details.actionName, interaction.element?.role != .tabBarItem else { return false }
        return ignores(action)
    }
}

/// The ``InteractionFilterPipeline/Stage/Name/exclusions`` stage: the app's ignore mark
/// and its `TrackingExclusions`, remembering the screen answer for the last type
/// hierarchy asked about (a host reports the same hierarchy for every click on a
/// screen, usually as the same array, which compares equal at once; hashing its names
/// into the exclusion sets cost a click more).
struct ExclusionFilter: InteractionFilter {
    let exclusions: TrackingExclusions
    private let lastScreenAnswer = LastAnswer()

    init(_ exclusions: TrackingExclusions) { self.exclusions = exclusions }

    func excludes(_ interaction: Interaction) -> Bool {
        excludes(element: interaction.element, screen: interaction.screen)
    }

    func excludes(element: ElementSnapshot?, screen: ScreenSnapshot?) -> Bool {
        if let element {
            if element.isIgnored || exclusions.elementTypes.containsAny(of: element.typeHierarchy) { return true }
            if let identifier = element.accessibilityIdentifier, exclusions.accessibilityIdentifiers.hasMember(identifier) { return true }
        }
        if let screen, excludesScreen(typeHierarchy: screen.typeHierarchy) { return true }
        return false
    }

    func excludesScreen(typeHierarchy: [String]) -> Bool {
        guard !exclusions.screenTypes.isEmpty else { return false }
        return lastScreenAnswer.answer(for: typeHierarchy) { exclusions.screenTypes.containsAny(of: $0) }
    }

    /// The answer for the last type hierarchy asked about.
    private final class LastAnswer: Sendable {
        private let last = Locked<(hierarchy: [String], answer: Bool)?>(nil)

        func answer(for hierarchy: [String], computing compute: ([String]) -> Bool) -> Bool {
            if let known = last.withLock({ last in last.flatMap { $0.hierarchy == hierarchy ? $0.answer : nil } }) { return known }
            let answer = compute(hierarchy)
            last.withLock { $0 = (hierarchy, answer) }
            return answer
        }
    }
}
