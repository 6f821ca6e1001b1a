internal import AutoTrackProperties
/// Which actions are not user clicks of this app: other tracking libraries' hook
/// selectors and UIKit's private underscore actions.
///
/// Defaults: selectors starting with `growingHookTouch` (GrowingIO), or with `_`
/// (private system actions) — except `_searchFieldEndEditing`, which is how a search
/// field reports a finished search (captured with its text). A tab bar
/// item's tap is never filtered by its action: UIKit's tab action is always private.
public struct ActionFilter: Hashable, Sendable {
    /// Prefixes of ignored selectors.
    public var ignoredPrefixes: [String]
    /// Exact ignored selectors.
    public var ignoredSelectors: Set<String>
    /// Selectors kept even though a prefix matches.
    public var allowedSelectors: Set<String>

    /// Creates a filter.
    public init(
        ignoredPrefixes: [String] = ["growingHookTouch", "_"], ignoredSelectors: Set<String> = [],
        allowedSelectors: Set<String> = ["_searchFieldEndEditing"]
    ) {
        self.ignoredPrefixes = ignoredPrefixes
        self.ignoredSelectors = ignoredSelectors
        self.allowedSelectors = allowedSelectors
    }

    /// The default filter.
    public static let standard = ActionFilter()

    /// Whether `selector` produces no click.
    public func ignores(_ selector: String) -> Bool {
        // The allowed list is asked only about a selector otherwise ignored: a click's
        // own action is hashed into no set (the default ignored list is empty).
        let ignored = ignoredSelectors.hasMember(selector) || ignoredPrefixes.contains { selector.hasPrefix($0) }
        return ignored && !allowedSelectors.contains(selector)
    }
}
