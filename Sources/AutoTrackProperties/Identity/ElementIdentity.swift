/// The identity of an element across sessions and devices, and its id.
///
/// The identity string is made only of what stays the same while the app runs the
/// same build: never titles, text or colours, which change with state.
///
/// ```text
/// path(<view path>)                      always
/// &actions(<a>,<b>)                      controls on a navigation bar: their actions
/// &controller(<type>)&message(<m>)&title(<t>)   alert actions: their alert
/// &page(<screen type name>)              when the element is on a screen
/// &aid(<accessibility identifier>)       when the element has one
/// ```
///
/// The first three parts are the element's *descriptor*, in the form the HubbleData
/// article prints; the element id is the lowercase hex SHA-256 of the whole string.
public struct ElementIdentity: Hashable, Sendable {
    /// The view path.
    public var path: ViewPath
    /// `path(…)` plus the action and alert parts.
    public var descriptor: String
    /// The descriptor plus screen and accessibility identifier: what is hashed.
    public var identityString: String
    /// Lowercase hex SHA-256 of ``identityString``: `$element_id`.
    public var elementID: String

    /// Builds the identity of `element`. Pass `screen` when the caller already knows
    /// the owning screen (`.some(nil)` for none), to save a walk up the tree.
    public init(
        of element: any ElementNode, style: ViewPathStyle, limits: PathLimits = .standard,
        screen: (any ScreenNode)?? = nil
    ) {
        path = ViewPathBuilder(style: style, limits: limits).path(for: element)
        var descriptor = "path(\(path.text))"
        if element.role.isControl, ElementPlacement.of(element, for: .navigationBar).isOnNavigationBar {
            descriptor += "&actions(\(element.actionNames.joined(separator: ",")))"
        }
        if let alert = element.alertContext {
            descriptor += "&controller(\(alert.controllerType))&message(\(alert.message ?? ""))&title(\(alert.title ?? ""))"
        }
        self.descriptor = descriptor
        var identity = descriptor
        let screenName = path.screenTypeName ?? (screen ?? element.owningScreen)?.typeName
        if let screenName { identity += "&page(\(screenName))" }
        if let accessibility = element.accessibilityIdentifier, !accessibility.isEmpty { identity += "&aid(\(accessibility))" }
        identityString = identity
        elementID = SHA256.hexDigest(identity)
    }
}
