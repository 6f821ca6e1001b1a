/// AutoTrackProperties: `Element`, `Screen` appear in this file's public API.
public import AutoTrackProperties
/// AutoTrackSerialization: `JSONValue` appears in this file's public API.
public import AutoTrackSerialization

/// A UI framework's screen as JSON — a React Native, Flutter or web view host's element
/// tree — read into the package's own `Screen` and `Element` tree, so its clicks get
/// the same properties, paths, ids and rules as a UIKit host's.
///
/// The document:
///
/// ```json
/// {"screen": {"type": "ProductScreen", "title": "Shoes", "screen_name": "product",
///             "url": "app://product/42", "properties": {"category": "shoes"}},
///  "root": {"type": "RCTView", "children": [
///     {"type": "RCTText", "role": "label", "text": "Blue shoes"},
///     {"type": "RCTTouchableOpacity", "role": "button", "tag": 12, "text": "Buy",
///      "frame": [16, 600, 120, 44], "accessibility_id": "buy", "custom_id": "buy-button",
///      "properties": {"sku": "A-17"}, "list_position": {"section": 0, "index": 3}}]}}
/// ```
///
/// A node needs `type`; everything else is optional: `role` (one of ``roles``'s
/// names, `view` by default), `tag` (a string or integer naming it in interactions),
/// `text`, `frame` (`[x, y, width, height]`), `accessibility_id`, `custom_id`,
/// `properties`, `list_position` (`section`, `index`), `hidden`, `alpha` (0…1),
/// `ignored` (`true`: the node; `"descendants"`: its subtree), `masks_text`,
/// `clips_to_bounds` (scrolling roles clip by default), `content_offset` (`[x, y]`,
/// how far a scrolling node's content is scrolled), `exposure` (see
/// ``HostExposureRequest``) and `children`. An unknown key, a wrong type, a tag used
/// twice, a tree deeper than 64 or larger than 20 000 nodes is a typed error.
///
/// A document may also name the `window` the root is laid out in —
/// `{"type": "UIWindow", "frame": [0, 0, 390, 844]}` — as a UIKit host's root views
/// are; its type then starts the element paths that walk past the screen (HubbleData's
/// style). Exposure measures visibility within it, so a tree whose nodes ask for
/// exposure names its window.
public struct HostTree {
    /// The screen, its root view holding the tree.
    public let screen: Screen
    /// The window the root is laid out in, when the document names one.
    public let window: Element?
    /// The nodes that have a `tag`, by tag.
    public let elementsByTag: [String: Element]
    /// What each watched node's `exposure` asks for, by the node's tag.
    public let exposures: [String: HostExposureRequest]

    /// The most nodes a tree may have.
    public static let maximumNodes = 20_000
    /// The deepest a tree may nest.
    public static let maximumDepth = 64

    /// The roles a node may name, by name.
    public static let roles: [String: ElementRole] = [
        "view": .view, "label": .label, "image": .image, "button": .button, "toggle": .toggle,
        "segmented_control": .segmentedControl, "slider": .slider, "stepper": .stepper, "text_field": .textField,
        "secure_text_field": .secureTextField, "search_field": .searchField, "text_view": .textView, "tab_bar_item": .tabBarItem,
        "control": .control, "scroll_view": .scrollView, "table": .table, "collection": .collection, "table_cell": .tableCell,
        "collection_cell": .collectionCell,
    ]

    static let nodeKeys: Set<String> = [
        "type", "role", "tag", "text", "frame", "accessibility_id", "custom_id", "properties", "list_position", "hidden", "ignored",
        "masks_text", "children", "alpha", "clips_to_bounds", "content_offset", "exposure",
    ]
    static let screenKeys: Set<String> = ["type", "title", "screen_name", "url", "properties"]

    /// Reads a tree document (JSON text).
    public init(json bytes: some Collection<UInt8>) throws(HostTreeError) {
        let document: JSONValue
        do {
            document = try JSONParser(maximumDepth: Self.maximumDepth * 2 + 8).parse(bytes)
        } catch {
            throw .syntax(String(describing: error))
        }
        try self.init(document: document)
    }

    /// Reads a parsed tree document.
    public init(document: JSONValue) throws(HostTreeError) {
        try self.init(document: document, reusing: [:])
    }

    /// Reads a parsed tree document; a node whose tag names one of `reusable` with
    /// the same type and role is that element, updated (its children rebuilt), so an
    /// exposure monitor watching it sees one element throughout.
    init(document: JSONValue, reusing reusable: [String: Element]) throws(HostTreeError) {
        guard case .object = document else { throw .wrongType(path: "", expected: "an object", found: document.typeName) }
        try HostTreeReader.checkKeys(of: document, allowed: ["screen", "root", "window"], at: "")
        guard let screenValue = document["screen"] else { throw .missing(path: "screen") }
        guard let rootValue = document["root"] else { throw .missing(path: "root") }
        var reader = HostTreeReader()
        reader.reusable = reusable
        let root = try reader.element(rootValue, path: "root", depth: 0)
        window = try document["window"].map { (window) throws(HostTreeError) in try HostTreeReader.window(window, holding: root) }
        screen = try HostTreeReader.screen(screenValue, rootView: root)
        elementsByTag = reader.tagged
        exposures = reader.exposures
        if let tag = exposures.keys.sorted().first, window == nil {
            throw .invalid(path: "window", reason: "the node tagged '\(tag)' asks for exposure, which is measured in the window: name it")
        }
    }
}

/// Why a host tree or interaction was refused; `path` names the member
/// (`root.children[2].frame`).
public enum HostTreeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not JSON.
    case syntax(String)
    /// A required member is missing.
    case missing(path: String)
    /// A member of the wrong type.
    case wrongType(path: String, expected: String, found: String)
    /// A member no document has.
    case unknownKey(path: String)
    /// A value out of its range or set.
    case invalid(path: String, reason: String)
    /// Two nodes with one tag.
    case duplicateTag(String)
    /// The interaction names a tag no node has.
    case unknownTag(String)
    /// The tree is deeper or larger than allowed.
    case tooLarge(String)
    /// A node asks for exposure but the adapter has no tracker to record it
    /// (made with `JSONHostAdapter(context:)`).
    case exposureUnavailable(tag: String)
    /// The interaction and the tree's other exposures were recorded, but the monitor
    /// refused the exposure request of the node tagged `tag` (its event name or
    /// properties): the call is not to be repeated, the request is to be fixed.
    case exposureRefused(tag: String, reason: String)

    /// The message.
    public var description: String {
        switch self {
        case .syntax(let message): "not JSON: \(message)"
        case .missing(let path): "'\(path)' is required"
        case .wrongType(let path, let expected, let found): "'\(path)' must be \(expected), not \(found)"
        case .unknownKey(let path): "unknown key '\(path)'"
        case .invalid(let path, let reason): "'\(path)': \(reason)"
        case .duplicateTag(let tag): "the tag '\(tag)' names two nodes"
        case .unknownTag(let tag): "no node has the tag '\(tag)'"
        case .tooLarge(let reason): reason
        case .exposureUnavailable(let tag):
            "the node tagged '\(tag)' asks for exposure, but this adapter has no exposure monitor (make it with JSONHostAdapter(tracker:))"
        case .exposureRefused(let tag, let reason):
            "the interaction was recorded (do not send it again), but the exposure of the node tagged '\(tag)' was refused: \(reason)"
        }
    }
}
