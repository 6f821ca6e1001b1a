/// What automatic capture must leave alone.
///
/// Types match by name anywhere in a node's ``ElementNode/typeHierarchy`` or
/// ``ScreenNode/typeHierarchy``, so ignoring a type ignores its subclasses too (the
/// tutorials' screen blacklist). By default the system's container and service screens
/// are ignored — their appearance is not a screen the user chose to see.
public struct TrackingExclusions: Hashable, Sendable {
    /// Element types (and their subclasses) that produce no clicks.
    public var elementTypes: Set<String>
    /// Accessibility identifiers whose elements produce no clicks.
    public var accessibilityIdentifiers: Set<String>
    /// Screen types (and their subclasses) that produce no screen views, and whose
    /// elements produce no clicks.
    public var screenTypes: Set<String>

    /// The system containers ignored by default.
    public static let systemScreenTypes: Set<String> = [
        "UINavigationController", "UITabBarController", "UIPageViewController", "UISplitViewController",
        "UIInputWindowController", "UIAlertController", "SFBrowserRemoteViewController", "UICompatibilityInputViewController",
    ]

    /// Creates exclusions.
    public init(
        elementTypes: Set<String> = [], accessibilityIdentifiers: Set<String> = [],
        screenTypes: Set<String> = TrackingExclusions.systemScreenTypes
    ) {
        self.elementTypes = elementTypes
        self.accessibilityIdentifiers = accessibilityIdentifiers
        self.screenTypes = screenTypes
    }

    /// The default: system screens only.
    public static let standard = TrackingExclusions()

    /// Whether screen views of `screen` are ignored.
    public func ignores(screen: any ScreenNode) -> Bool {
        screenTypes.containsAny(of: screen.typeHierarchy)
    }

    /// Whether clicks on `element` are ignored: by its type, its accessibility
    /// identifier or its screen.
    public func ignores(element: any ElementNode) -> Bool {
        if elementTypes.containsAny(of: element.typeHierarchy) { return true }
        if let identifier = element.accessibilityIdentifier, accessibilityIdentifiers.contains(identifier) { return true }
        if let screen = element.owningScreen, ignores(screen: screen) { return true }
        return false
    }
}

extension Set<String> {
    /// Whether any of `names` is in the set. An empty set — the usual list of
    /// exclusions or ignored types — is not consulted: every lookup hashes a name.
    /// Not generic, and without a closure, so a call allocates nothing.
    package func containsAny(of names: [String]) -> Bool {
        guard !isEmpty else { return false }
        for name in names where contains(name) { return true }
        return false
    }

    /// Whether `name` is in the set, without hashing it when the set is empty.
    package func hasMember(_ name: String) -> Bool {
        !isEmpty && contains(name)
    }
}
