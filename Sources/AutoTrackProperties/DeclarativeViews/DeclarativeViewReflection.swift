/// What a screen built from a SwiftUI view value is called, recovered from the value
/// by reflection — the way an SDK names a `UIHostingController`'s screen on iOS, where
/// the controller's generic class says little (`UIHostingController<ModifiedContent<…>>`)
/// and the root view's type is known only at run time.
///
/// Modifiers wrap a view in `ModifiedContent<Content, Modifier>` and type erasure in
/// `AnyView`; neither names a screen, so both are looked through — `ModifiedContent`
/// by its `content`, `AnyView` by the view its storage holds — down to the first view
/// that is neither. Its type name without generic arguments is the screen's name:
///
/// ```text
/// ModifiedContent<ModifiedContent<CheckoutView, _PaddingLayout>, _EnvironmentKeyWritingModifier<…>>  →  CheckoutView
/// AnyView (holding ProductDetail<Phone>)                                                          →  ProductDetail
/// ```
///
/// A modifier that conforms to ``DeclaredScreenTracking`` on the way down gives the
/// screen its own tracking information (an explicit screen name, properties).
public enum DeclarativeViewReflection {
    /// The name of the screen whose root view is `rootView`: the first view below
    /// modifiers and type erasure, its type name without generic arguments.
    public static func screenName(of rootView: Any) -> String {
        let name = baseName(of: type(of: namedView(in: rootView)))
        return name.isEmpty ? "UIHostingController" : name
    }

    /// The tracking information a modifier on the way down to the named view declares,
    /// the outermost first; `nil` when none does.
    public static func screenTracking(of rootView: Any) -> ScreenTracking? {
        var found: ScreenTracking?
        _ = walk(from: rootView) { modifier in
            if found == nil, let declared = modifier as? any DeclaredScreenTracking { found = declared.screenTracking }
        }
        return found
    }

    /// A type's name without generic arguments or module: `ProductDetail<Phone>` →
    /// `ProductDetail`, `Shop.CheckoutView` → `CheckoutView`.
    public static func baseName(of type: Any.Type) -> String {
        let full = String(describing: type)
        let unparameterised = full.prefix { $0 != "<" }
        return String(unparameterised.split(separator: ".").last ?? unparameterised[...])
    }

    /// The first view below modifiers and type erasure.
    static func namedView(in rootView: Any) -> Any {
        walk(from: rootView) { _ in }
    }

    /// Follows `ModifiedContent.content` and `AnyView`'s storage from `value`, telling
    /// `visitModifier` each modifier passed; bounded, so a value that refers to
    /// itself ends the walk.
    private static func walk(from value: Any, visitModifier: (Any) -> Void) -> Any {
        var current = value
        for _ in 0..<256 {
            let name = baseName(of: type(of: current))
            let mirror = Mirror(reflecting: current)
            if name == "ModifiedContent", let content = child("content", of: mirror) {
                if let modifier = child("modifier", of: mirror) { visitModifier(modifier) }
                current = content
            } else if name == "AnyView", let storage = child("storage", of: mirror),
                      let view = child("view", of: Mirror(reflecting: storage)) {
                current = view
            } else {
                return current
            }
        }
        return current
    }

    /// The child labelled `label`, looking through superclass mirrors (an `AnyView`'s
    /// storage is a subclass of a type-erased base).
    private static func child(_ label: String, of mirror: Mirror) -> Any? {
        var current: Mirror? = mirror
        while let level = current {
            if let found = level.children.first(where: { $0.label == label }) { return found.value }
            current = level.superclassMirror
        }
        return nil
    }
}

/// A view modifier that gives the screen it is applied to (on a hosting
/// controller's root view) its own tracking information — an explicit screen name,
/// a title, properties — found by ``DeclarativeViewReflection``.
public protocol DeclaredScreenTracking {
    /// The screen's tracking information.
    var screenTracking: ScreenTracking { get }
}
