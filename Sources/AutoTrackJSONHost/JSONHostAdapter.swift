/// AutoTrackInterception: `InteractionContext`, `InterceptionPoint` appear in this file's public API.
public import AutoTrackInterception
/// AutoTrack: `Tracker`, `ElementExposureMonitor` appear in this file's public API.
public import AutoTrack
/// AutoTrackEvents: `Timestamp` appears in this file's public API.
public import AutoTrackEvents
import AutoTrackLocking
import AutoTrackProperties
/// AutoTrackSerialization: `JSONValue` appears in this file's public API.
public import AutoTrackSerialization

/// Automatic capture for a UI framework that is not UIKit: the host sends its screen as
/// a ``HostTree`` document and each user action as an interaction document, and the
/// adapter reports them through an `InteractionContext` — a tracker's — with the
/// properties, paths, ids, filters and settings of the native path, and records the
/// exposures its nodes ask for with the rules of `ElementExposureMonitor`.
///
/// An interaction document is one of
///
/// ```json
/// {"kind": "screen_view"}
/// {"kind": "tap", "target": 12, "action": "onPress"}
/// {"kind": "touch", "target": 7}
/// {"kind": "layout"}
/// {"kind": "background"}
/// {"kind": "foreground"}
/// ```
///
/// `screen_view`: the tree's screen appeared. `tap`: the node tagged `target` was
/// tapped and did something (`$AppClick`; `action` names the handler, optional).
/// `touch`: a touch ended on that node — a tracker that records dead clicks waits for a
/// click or screen view to answer it. `layout`: only the tree changed (a scroll, an
/// animation step, new content). `background` and `foreground`: the app left the
/// foreground (every exposure's appearance ends) and came back.
///
/// **Exposure.** Every document the adapter receives is what is on screen now: after
/// each one it measures the nodes whose `exposure` member asks for it
/// (``HostExposureRequest``) and records those due. A watched node sent again with its
/// tag, type and role is the same element, so one appearance lasts across documents;
/// one missing from a document, or hidden, scrolled or clipped out of its `window`,
/// has left the screen. A minimum duration needs another document once it has passed:
/// ``handle(treeJSON:interactionJSON:)`` returns when to send one (a `layout`) if
/// nothing changes before.
///
/// Documents from several threads are taken one at a time.
public final class JSONHostAdapter: Sendable {
    /// A tap a JSON host reported.
    public static let tapPoint = InterceptionPoint("host-tap", records: .click)
    /// A screen a JSON host showed.
    public static let screenViewPoint = InterceptionPoint("host-screen-view", records: .screenView)
    /// A touch a JSON host delivered.
    public static let touchPoint = InterceptionPoint("host-touch", records: .touch)

    /// The context interactions go to.
    public let context: InteractionContext
    /// The monitor recording the nodes' exposures; `nil` for an adapter made from a
    /// context alone, which refuses trees that ask for exposure.
    public let exposures: ElementExposureMonitor?
    private let capturedBy = "json-host"
    private let state = Locked(State())

    /// What lasts from one document to the next.
    struct State {
        /// The last tree: it holds the watched nodes' ancestors (a node's parent link
        /// is not retained).
        var tree: HostTree?
        /// The watched nodes, by tag, held strongly (the monitor holds them weakly).
        var watched: [String: Element] = [:]
    }

    /// An adapter reporting to `context`, without exposure.
    public init(context: InteractionContext) {
        self.context = context
        exposures = nil
    }

    /// An adapter reporting through a new interaction context of `tracker`, recording
    /// exposures with a new exposure monitor of it.
    public init(tracker: Tracker) {
        context = tracker.makeInteractionContext()
        exposures = tracker.makeExposureMonitor(context: context)
    }

    /// Reports the interaction `interactionJSON` describes on the tree `treeJSON`, then
    /// records the exposures due.
    /// - Returns: When to send the tree again (a `layout`) so an exposure's minimum
    ///   duration is honoured if nothing changes before; `nil` when none is pending.
    @discardableResult
    public func handle(treeJSON: some Collection<UInt8>, interactionJSON: some Collection<UInt8>) throws(HostTreeError) -> Timestamp? {
        let tree: JSONValue
        let interaction: JSONValue
        do {
            tree = try JSONParser(maximumDepth: HostTree.maximumDepth * 2 + 8).parse(treeJSON)
            interaction = try JSONParser(maximumDepth: 4).parse(interactionJSON)
        } catch {
            throw .syntax(String(describing: error))
        }
        return try handle(interaction, onTree: tree)
    }

    /// Reports `interaction` (a parsed interaction document) on the tree `document` (a
    /// parsed tree document), then records the exposures due.
    /// - Returns: As ``handle(treeJSON:interactionJSON:)``.
    @discardableResult
    public func handle(_ interaction: JSONValue, onTree document: JSONValue) throws(HostTreeError) -> Timestamp? {
        let kind = try Self.kind(of: interaction)
        let watchFailures = try state.withLock { state throws(HostTreeError) -> [HostTreeError] in
            // Read (and check) the document before anything changes, then again onto
            // the watched elements, which reading updates.
            var tree = try HostTree(document: document)
            if let tag = tree.exposures.keys.sorted().first, exposures == nil { throw .exposureUnavailable(tag: tag) }
            let target = try kind.needsTarget ? Self.targetTag(of: interaction) : nil
            if let target, tree.elementsByTag[target] == nil { throw .unknownTag(target) }
            let action = try HostTreeReader.string(interaction, "action", "interaction")
            if !state.watched.isEmpty, exposures != nil {
                tree = try HostTree(document: document, reusing: state.watched)
            }
            let failures = watch(tree, previous: &state.watched)
            state.tree = tree
            report(kind, target: target.flatMap { tree.elementsByTag[$0] }, action: action, on: tree)
            return failures
        }
        let deadline = exposures?.update()
        if let failure = watchFailures.first { throw failure }
        return deadline
    }

    /// Watches the nodes `tree` asks to and stops watching the ones it no longer
    /// does; returns the requests the monitor refused.
    private func watch(_ tree: HostTree, previous watched: inout [String: Element]) -> [HostTreeError] {
        guard let exposures else { return [] }
        var now: [String: Element] = [:]
        var failures: [HostTreeError] = []
        for (tag, request) in tree.exposures.sorted(by: { $0.key < $1.key }) {
            guard let element = tree.elementsByTag[tag] else { continue }
            do {
                try exposures.watch(element, options: request.options, properties: request.properties, eventName: request.eventName)
                now[tag] = element
            } catch {
                failures.append(.exposureRefused(tag: tag, reason: error.description))
            }
        }
        for (tag, element) in watched where now[tag] !== element { exposures.unwatch(element) }
        watched = now
        return failures
    }

    private func report(_ kind: Kind, target: Element?, action: String?, on tree: HostTree) {
        let screen = context.snapshot(of: tree.screen)
        switch kind {
        case .screenView:
            context.emit(Interaction(
                point: Self.screenViewPoint, element: nil, screen: screen,
                details: InteractionDetails(screenViewReason: .appear), capturedBy: capturedBy))
        case .tap, .touch:
            guard let target else { return }
            context.emit(Interaction(
                point: kind == .tap ? Self.tapPoint : Self.touchPoint, element: context.snapshot(of: target, action: action), screen: screen,
                details: InteractionDetails(actionName: action, listPosition: target.listPosition), capturedBy: capturedBy))
        case .layout: break
        case .background: exposures?.suspend()
        case .foreground: exposures?.resume()
        }
    }

    /// The kinds of interaction document.
    enum Kind: String, CaseIterable {
        case screenView = "screen_view", tap, touch, layout, background, foreground

        var needsTarget: Bool { self == .tap || self == .touch }
    }

    private static func kind(of interaction: JSONValue) throws(HostTreeError) -> Kind {
        guard case .object = interaction else { throw .wrongType(path: "interaction", expected: "an object", found: interaction.typeName) }
        try HostTreeReader.checkKeys(of: interaction, allowed: ["kind", "target", "action"], at: "interaction")
        guard let name = try HostTreeReader.string(interaction, "kind", "interaction") else { throw .missing(path: "interaction.kind") }
        guard let kind = Kind(rawValue: name) else {
            throw .invalid(path: "interaction.kind", reason: "'\(name)' is not one of \(Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return kind
    }

    private static func targetTag(of interaction: JSONValue) throws(HostTreeError) -> String {
        guard interaction["target"] != nil else { throw .missing(path: "interaction.target") }
        guard let tag = try HostTreeReader.tag(interaction["target"], "interaction.target") else { throw .missing(path: "interaction.target") }
        return tag
    }
}
