/// The two view-path formats.
public enum ViewPathStyle: String, Hashable, Sendable, CaseIterable {
    /// `Screen[0]/UIView[0]/UITableView[0]/MyCell#[1,0]/UILabel[0]`: from the screen
    /// down, `Type[i]` with `i` the index among siblings of the same type, cells as
    /// `#[section,row]`, a cell's content view (or any direct child of a cell) indexed
    /// as its cell; an element with a ``ElementNode/siblingIdentity`` (SwiftUI's) has
    /// it instead of the index (`Button[1,else]`). The walk stops at the screen whose
    /// root view it reaches.
    case slash
    /// `UIWindow(0)_UIView(0)_UILabel(0)`: from the top of the tree down, joined by
    /// `_`, `Type(i)` with the same-type index; cells as `(section:0 row:7)` or
    /// `(section:0 item:7)`; children of a paging container as `(indexx:N indexy:M)`
    /// from their centre and the container's size; controls on a navigation bar
    /// without an index (they are told apart by their actions instead).
    case hubble
}

/// Bounds on path walks, for hosts whose trees are deep or whose parent links are
/// broken.
public struct PathLimits: Hashable, Sendable {
    /// The most ancestors a walk visits; deeper trees get a truncated path.
    public var maximumDepth: Int

    /// Creates limits.
    public init(maximumDepth: Int = 256) { self.maximumDepth = max(1, maximumDepth) }

    /// 256 levels — real view trees are a few dozen deep.
    public static let standard = PathLimits()
}

/// Something a path walk noticed about a malformed tree.
public enum PathDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The walk stopped after this many levels; the path holds the deepest ones.
    case depthLimitReached(limit: Int)
    /// A parent link led back to an element already visited, after this many levels.
    case parentCycle(afterLevels: Int)

    /// What happened, in words.
    public var description: String {
        switch self {
        case .depthLimitReached(let limit): "the tree is deeper than \(limit) levels; the path is truncated at the top"
        case .parentCycle(let levels): "parent links form a cycle after \(levels) levels; the walk stopped there"
        }
    }
}

/// A view path and what the walk noticed.
public struct ViewPath: Hashable, Sendable, CustomStringConvertible {
    /// The path text.
    public var text: String
    /// The style it was built in.
    public var style: ViewPathStyle
    /// Problems with the tree; empty for a well-formed one.
    public var diagnostics: [PathDiagnostic]
    /// The type name of the screen a slash-style walk stopped at.
    public var screenTypeName: String?

    /// The path text.
    public var description: String { text }
}

/// Builds view paths in either style. Walks are iterative and bounded, so any tree —
/// 10 000 levels deep or with a parent cycle — gives a path and never a hang.
public struct ViewPathBuilder: Sendable {
    /// The format.
    public var style: ViewPathStyle
    /// The bounds.
    public var limits: PathLimits

    /// Creates a builder.
    public init(style: ViewPathStyle, limits: PathLimits = .standard) {
        self.style = style
        self.limits = limits
    }

    /// The path of `element`.
    public func path(for element: any ElementNode) -> ViewPath {
        var chain: [any ElementNode] = []
        var diagnostics: [PathDiagnostic] = []
        var visited = Set<ObjectIdentifier>()
        var node: (any ElementNode)? = element
        var stopScreen: (any ScreenNode)?
        var parentOfTop: (any ElementNode)?
        while let current = node {
            if !visited.insert(ObjectIdentifier(current)).inserted {
                diagnostics.append(.parentCycle(afterLevels: chain.count))
                break
            }
            if chain.count == limits.maximumDepth {
                diagnostics.append(.depthLimitReached(limit: limits.maximumDepth))
                break
            }
            chain.append(current)
            if style == .slash, let screen = current.rootViewScreen {
                stopScreen = screen
                break
            }
            node = current.parentElement
            parentOfTop = node
        }
        // The parent of chain[i] is chain[i + 1]; past the end it is the node where
        // the walk stopped (nil at the top, and not followed at a screen).
        func parent(at position: Int) -> (any ElementNode)? {
            if position + 1 < chain.count { return chain[position + 1] }
            return stopScreen == nil ? parentOfTop.flatMap { visited.contains(ObjectIdentifier($0)) ? nil : $0 } : nil
        }
        var components: [String] = []
        components.reserveCapacity(chain.count + 1)
        if let stopScreen { components.append("\(stopScreen.typeName)[0]") }
        for position in chain.indices.reversed() {
            let parentNode = parent(at: position)
            let grandparent = position + 1 < chain.count ? parent(at: position + 1) : parentNode?.parentElement
            components.append(component(for: chain[position], parent: parentNode, grandparent: grandparent, position: position, chain: chain))
        }
        let separator = style == .slash ? "/" : "_"
        return ViewPath(
            text: components.joined(separator: separator), style: style, diagnostics: diagnostics,
            screenTypeName: stopScreen?.typeName)
    }

    // MARK: Components

    private func component(
        for node: any ElementNode, parent: (any ElementNode)?, grandparent: (any ElementNode)?, position: Int,
        chain: [any ElementNode]
    ) -> String {
        switch style {
        case .slash: slashComponent(for: node, parent: parent, grandparent: grandparent)
        case .hubble: hubbleComponent(for: node, parent: parent, ancestors: chain[(position + 1)...])
        }
    }

    private func slashComponent(for node: any ElementNode, parent: (any ElementNode)?, grandparent: (any ElementNode)?) -> String {
        if node.role.isCell, let position = node.listPosition, parent.map({ Self.isList($0.role) }) ?? false {
            return "\(node.typeName)#[\(position.section),\(position.index)]"
        }
        if let parent, node.role == .cellContentView || parent.role.isCell {
            return "\(node.typeName)[\(Self.sameTypeIndex(of: parent, in: grandparent))]"
        }
        if let identity = node.siblingIdentity { return "\(node.typeName)[\(identity)]" }
        return "\(node.typeName)[\(Self.sameTypeIndex(of: node, in: parent))]"
    }

    private func hubbleComponent(
        for node: any ElementNode, parent: (any ElementNode)?, ancestors: ArraySlice<any ElementNode>
    ) -> String {
        if node.role.isCell, let position = node.listPosition {
            let unit = node.role == .collectionCell ? "item" : "row"
            return "\(node.typeName)(section:\(position.section) \(unit):\(position.index))"
        }
        if let parent, parent.role == .pageContainer {
            let center = node.frame.center
            let x = parent.frame.width > 0 ? Int((center.x / parent.frame.width).rounded(.down)) : 0
            let y = parent.frame.height > 0 ? Int((center.y / parent.frame.height).rounded(.down)) : 0
            return "\(node.typeName)(indexx:\(x) indexy:\(y))"
        }
        if node.role.isControl, ancestors.contains(where: { $0.role == .navigationBar }) {
            return node.typeName
        }
        if let identity = node.siblingIdentity { return "\(node.typeName)(\(identity))" }
        return "\(node.typeName)(\(Self.sameTypeIndex(of: node, in: parent)))"
    }

    static func isList(_ role: ElementRole) -> Bool { role == .table || role == .collection }

    /// The index of `node` among `parent`'s children of the same type name; 0 at the
    /// top of the tree or when the parent does not list it.
    static func sameTypeIndex(of node: any ElementNode, in parent: (any ElementNode)?) -> Int {
        parent?.sameTypeIndex(ofChild: node) ?? 0
    }
}
