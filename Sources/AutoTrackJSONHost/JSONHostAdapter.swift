/// AutoTrackInterception: `InteractionContext`, `InterceptionPoint` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackProperties
/// AutoTrackSerialization: `JSONValue` appears in this file's public API.
public import AutoTrackSerialization

/// Automatic capture for a UI framework that is not UIKit: the host sends its screen as
/// a ``HostTree`` document and each user action as an interaction document, and the
/// adapter reports them through an `InteractionContext` — a tracker's
/// (`Tracker.makeInteractionContext()`) — with the properties, paths, ids, filters
/// and settings of the native path.
///
/// An interaction document is one of
///
/// ```json
/// {"kind": "screen_view"}
/// {"kind": "tap", "target": 12, "action": "onPress"}
/// {"kind": "touch", "target": 7}
/// ```
///
/// `screen_view`: the tree's screen appeared. `tap`: the node tagged `target` was
/// tapped and did something (`$AppClick`; `action` names the handler, optional).
/// `touch`: a touch ended on that node — a tracker that records dead clicks waits for a
/// click or screen view to answer it.
public final class JSONHostAdapter: Sendable {
    /// A tap a JSON host reported.
    public static let tapPoint = InterceptionPoint("host-tap", records: .click)
    /// A screen a JSON host showed.
    public static let screenViewPoint = InterceptionPoint("host-screen-view", records: .screenView)
    /// A touch a JSON host delivered.
    public static let touchPoint = InterceptionPoint("host-touch", records: .touch)

    /// The context interactions go to.
    public let context: InteractionContext
    private let capturedBy = "json-host"

    /// An adapter reporting to `context`.
    public init(context: InteractionContext) {
        self.context = context
    }

    /// Reports the interaction `interactionJSON` describes on the tree `treeJSON`.
    public func handle(treeJSON: some Collection<UInt8>, interactionJSON: some Collection<UInt8>) throws(HostTreeError) {
        let tree = try HostTree(json: treeJSON)
        let interaction: JSONValue
        do {
            interaction = try JSONParser(maximumDepth: 4).parse(interactionJSON)
        } catch {
            throw .syntax(String(describing: error))
        }
        try handle(interaction, on: tree)
    }

    /// Reports `interaction` (a parsed interaction document) on `tree`.
    public func handle(_ interaction: JSONValue, on tree: HostTree) throws(HostTreeError) {
        guard case .object = interaction else { throw .wrongType(path: "interaction", expected: "an object", found: interaction.typeName) }
        try HostTreeReader.checkKeys(of: interaction, allowed: ["kind", "target", "action"], at: "interaction")
        guard let kind = try HostTreeReader.string(interaction, "kind", "interaction") else { throw .missing(path: "interaction.kind") }
        let screen = context.snapshot(of: tree.screen)
        switch kind {
        case "screen_view":
            context.emit(Interaction(
                point: Self.screenViewPoint, element: nil, screen: screen,
                details: InteractionDetails(screenViewReason: .appear), capturedBy: capturedBy))
        case "tap", "touch":
            let element = try target(of: interaction, in: tree)
            let action = try HostTreeReader.string(interaction, "action", "interaction")
            let point = kind == "tap" ? Self.tapPoint : Self.touchPoint
            context.emit(Interaction(
                point: point, element: context.snapshot(of: element, action: action), screen: screen,
                details: InteractionDetails(actionName: action, listPosition: element.listPosition), capturedBy: capturedBy))
        default:
            throw .invalid(path: "interaction.kind", reason: "'\(kind)' is not screen_view, tap or touch")
        }
    }

    private func target(of interaction: JSONValue, in tree: HostTree) throws(HostTreeError) -> Element {
        let tag: String
        switch interaction["target"] {
        case .string(let text)?: tag = text
        case .integer(let number)?: tag = String(number)
        case nil: throw .missing(path: "interaction.target")
        case let other?: throw .wrongType(path: "interaction.target", expected: "a tag (string or integer)", found: other.typeName)
        }
        guard let element = tree.elementsByTag[tag] else { throw .unknownTag(tag) }
        return element
    }
}
