/// Synchronization: the counter of ``HierarchyVersion`` is an atomic.
import Synchronization

/// A count of the changes made to a host's element hierarchy that can move an element's
/// path or change its id. The host bumps it on every such change; a cached identity
/// made at another count is never used.
///
/// What counts as such a change — everything ``ElementIdentity`` reads:
/// - a child added, removed, inserted or moved (any reorder), and a parent link set or
///   cleared;
/// - a type name changed, and a screen's root view or type name changed;
/// - a list position (a cell reused for another row, a tab moved);
/// - an accessibility identifier, the actions attached to a control, an alert's
///   title, message or controller type;
/// - a frame, and a role's flags a host lets change (HubbleData paths place the
///   children of a paging container by their centre, and a navigation bar's controls
///   by their actions).
///
/// Bumping more often than needed only costs a recomputation; bumping less often gives
/// stale paths and ids, so a host funnels every write of these through one place.
/// One version may serve any number of trees (a process-wide one is fine).
public final class HierarchyVersion: Sendable {
    private let counter = Atomic<UInt64>(0)
    /// Called as stored, never bound to a local: binding an optional closure copied it,
    /// a reference count per read — and a click reads the version several times.
    private let source: @Sendable () -> UInt64

    /// Creates a version at 0.
    public init() { source = { 0 } }

    /// Creates a version that also moves whenever `source` does — a count kept
    /// elsewhere of changes that can move a path or an id, such as a runtime's count of
    /// class and method changes (a view's reported class name is its type name).
    /// `source` must never go back.
    public init(alsoCounting source: @escaping @Sendable () -> UInt64) {
        self.source = source
    }

    /// The count now.
    public var current: UInt64 {
        counter.load(ordering: .acquiring) &+ source()
    }

    /// Records a change: every identity cached before it is stale.
    public func bump() {
        counter.wrappingAdd(1, ordering: .releasing)
    }
}

/// One element's cached identities — its view path and `$element_id` per path style —
/// valid while its hierarchy's ``HierarchyVersion`` does not change.
///
/// A host that hands one out from ``ElementNode/identityCache`` lets an automatic click
/// on an element that has not moved skip the walk up the tree, the same-type sibling
/// scans and the SHA-256: the element properties collector reads the cached identity
/// when the version matches and stores a new one when it does not.
///
/// ```swift
/// final class MyView: ElementNode {
///     static let hierarchy = HierarchyVersion()
///     let identityCache: ElementIdentityCache? = ElementIdentityCache(version: MyView.hierarchy)
///     var children: [MyView] = [] { didSet { MyView.hierarchy.bump() } }
///     // …
/// }
/// ```
///
/// Like the nodes it belongs to, a cache is used on the thread that owns the UI.
public final class ElementIdentityCache {
    /// The version the entries are checked against.
    public let version: HierarchyVersion
    private var entries: [Entry] = []
    private var placement: Placement?
    /// The privacy marks found at a version (``ElementPrivacy/marks(of:)``).
    private var privacyMarks: (version: UInt64, ignored: Bool, textMasked: Bool)?

    private struct Entry {
        let style: ViewPathStyle
        let maximumDepth: Int
        let version: UInt64
        let identity: ElementIdentity
    }

    /// Creates an empty cache checked against `version`.
    public init(version: HierarchyVersion) {
        self.version = version
    }

    /// The identity cached for `style` and `limits` at the version now, if any.
    public func identity(style: ViewPathStyle, limits: PathLimits) -> ElementIdentity? {
        withEntry(style: style, limits: limits) { $0 }
    }

    /// The path text and element id of the identity ``identity(style:limits:)`` would
    /// return, without copying the rest of it (a click needs only these two).
    func pathAndID(style: ViewPathStyle, limits: PathLimits) -> (path: String, id: String)? {
        withEntry(style: style, limits: limits) { ($0.path.text, $0.elementID) }
    }

    /// `read` applied to the current identity for `style` and `limits`, if any.
    private func withEntry<Result>(style: ViewPathStyle, limits: PathLimits, _ read: (borrowing ElementIdentity) -> Result) -> Result? {
        let now = version.current
        // Compared in place: iterating the array copied every entry, identity included.
        return entries.withUnsafeBufferPointer { stored in
            guard var entry = stored.baseAddress else { return nil }
            for _ in 0..<stored.count {
                if entry.pointee.style == style && entry.pointee.maximumDepth == limits.maximumDepth {
                    return entry.pointee.version == now ? read(entry.pointee.identity) : nil
                }
                entry += 1
            }
            return nil
        }
    }

    /// Stores `identity`, worked out at version `madeAt` (read before the walk began,
    /// so a change during the walk leaves it stale).
    public func store(_ identity: ElementIdentity, style: ViewPathStyle, limits: PathLimits, madeAt: UInt64) {
        let entry = Entry(style: style, maximumDepth: limits.maximumDepth, version: madeAt, identity: identity)
        if let index = entries.firstIndex(where: { $0.style == style && $0.maximumDepth == limits.maximumDepth }) {
            entries[index] = entry
        } else {
            entries.append(entry)
        }
    }

    /// Forgets every entry.
    public func removeAll() {
        entries.removeAll()
        placement = nil
        privacyMarks = nil
    }

    /// The privacy marks of the element and the views above it, worked out by
    /// `compute` once per version of the hierarchy (a mark set on a view bumps it).
    public func privacyMarks(_ compute: () -> (ignored: Bool, textMasked: Bool)) -> (ignored: Bool, textMasked: Bool) {
        let now = version.current
        if let cached = privacyMarks, cached.version == now { return (cached.ignored, cached.textMasked) }
        let marks = compute()
        privacyMarks = (now, marks.ignored, marks.textMasked)
        return marks
    }

    /// Where the element sits, as the walks up the tree found it at a version. The
    /// screen is not held (a weak reference would move the screen's reference counting
    /// to its slow path, and a strong one would keep it alive): only how many levels up
    /// its root view is.
    struct Placement {
        let version: UInt64
        /// Levels from the element up to the root view of its screen; `nil` for none.
        let screenDepth: Int?
        let isOnNavigationBar: Bool
        let listTypeName: String?
    }

    /// The placement of `element` (whose cache this is) now: cached, or found and
    /// stored. The owning screen is looked up again only for `question` `.screen` —
    /// finding it costs a walk up to its root view.
    func placement(of element: any ElementNode, for question: ElementPlacement.Question) -> ElementPlacement {
        let now = version.current
        if let placement, placement.version == now {
            guard question == .screen, let depth = placement.screenDepth else {
                return ElementPlacement(owningScreen: nil, isOnNavigationBar: placement.isOnNavigationBar, listTypeName: placement.listTypeName)
            }
            // The same number of steps up, without asking each level for a screen.
            var node: (any ElementNode)? = element
            for _ in 0..<depth { node = node?.parentElement }
            if let screen = node?.rootViewScreen {
                return ElementPlacement(owningScreen: screen, isOnNavigationBar: placement.isOnNavigationBar, listTypeName: placement.listTypeName)
            }
            // The host changed the tree without bumping: walk again.
        }
        let found = ElementPlacement(walkingUpFrom: element)
        placement = Placement(version: now, screenDepth: found.screenDepth, isOnNavigationBar: found.isOnNavigationBar,
                              listTypeName: found.listTypeName)
        return found
    }
}

/// What the walks up from an element find: its screen, whether it is on a navigation
/// bar, and for a cell the list that shows it.
struct ElementPlacement {
    /// The nearest ancestor (or self) that is a screen's root view: its screen.
    let owningScreen: (any ScreenNode)?
    /// Whether a navigation bar is among the ancestors.
    let isOnNavigationBar: Bool
    /// For a cell, the type name of the nearest table or collection within 8 levels up.
    let listTypeName: String?
    /// Levels from the element up to the root view of ``owningScreen``.
    let screenDepth: Int?

    init(owningScreen: (any ScreenNode)?, isOnNavigationBar: Bool, listTypeName: String?) {
        self.owningScreen = owningScreen
        self.isOnNavigationBar = isOnNavigationBar
        self.listTypeName = listTypeName
        screenDepth = nil
    }

    /// What a walk is for: it stops as soon as that is answered; `.everything` (what a
    /// cache stores) walks to the top.
    enum Question {
        /// The owning screen.
        case screen
        /// Whether a navigation bar is among the ancestors.
        case navigationBar
        /// A cell's list (8 levels up at most).
        case list
        /// All of them.
        case everything
    }

    /// One bounded walk up, as far as `question` needs.
    init(walkingUpFrom element: any ElementNode, for question: Question = .everything) {
        var screen: (any ScreenNode)?
        var depth: Int?
        var onNavigationBar = false
        var listTypeName: String?
        var node: (any ElementNode)? = element
        var steps = 0
        while let current = node, steps < PathLimits.standard.maximumDepth {
            if screen == nil, let found = current.rootViewScreen {
                screen = found
                depth = steps
            }
            if steps > 0 {
                if current.role == .navigationBar { onNavigationBar = true }
                if listTypeName == nil, steps <= 8, current.role == .table || current.role == .collection { listTypeName = current.typeName }
            }
            let answered = switch question {
            case .screen: screen != nil
            case .navigationBar: onNavigationBar
            case .list: listTypeName != nil || steps >= 8
            case .everything: false
            }
            if answered { break }
            node = current.parentElement
            steps += 1
        }
        owningScreen = screen
        screenDepth = depth
        isOnNavigationBar = onNavigationBar
        self.listTypeName = element.role.isCell ? listTypeName : nil
    }

    /// The placement of `element` for `question`, from its cache when it has one
    /// (the other answers may be left out).
    static func of(_ element: any ElementNode, for question: Question) -> ElementPlacement {
        element.identityCache?.placement(of: element, for: question) ?? ElementPlacement(walkingUpFrom: element, for: question)
    }
}

extension ElementIdentity {
    /// The path text and element id of ``cached(of:style:limits:screen:)``: from the
    /// cache without copying the whole identity, or worked out and stored.
    static func cachedPathAndID(
        of element: any ElementNode, style: ViewPathStyle, limits: PathLimits, screen: (any ScreenNode)??
    ) -> (path: String, id: String) {
        if let known = element.identityCache?.pathAndID(style: style, limits: limits) { return known }
        let identity = cached(of: element, style: style, limits: limits, screen: screen)
        return (identity.path.text, identity.elementID)
    }

    /// The identity of `element`, from its ``ElementNode/identityCache`` when that
    /// holds one made at the hierarchy's version now; otherwise worked out (as
    /// ``init(of:style:limits:screen:)`` does) and stored there.
    public static func cached(
        of element: any ElementNode, style: ViewPathStyle, limits: PathLimits = .standard, screen: (any ScreenNode)?? = nil
    ) -> ElementIdentity {
        guard let cache = element.identityCache else { return ElementIdentity(of: element, style: style, limits: limits, screen: screen) }
        if let identity = cache.identity(style: style, limits: limits) { return identity }
        let version = cache.version.current
        let identity = ElementIdentity(of: element, style: style, limits: limits, screen: screen)
        cache.store(identity, style: style, limits: limits, madeAt: version)
        return identity
    }
}
