import AutoTrackReferenceUI

/// A change to a view that a modifier method makes (`.id(_:)`,
/// `.accessibilityIdentifier(_:)`, `.onTapGesture(perform:)` …).
public protocol ViewModifier {}

/// A modifier the renderer applies to the nodes its content draws.
protocol NodeModifier: ViewModifier {
    /// Applies the modifier to `node`, one of the top nodes its content drew.
    func apply(to node: RenderNode)
}

/// A view with a modifier applied, as SwiftUI's `ModifiedContent`: reflection looks
/// through it (its `content`) to name a screen.
public struct ModifiedContent<Content: View, Modifier: ViewModifier>: View, PrimitiveView {
    /// The view modified.
    public let content: Content
    /// The modifier.
    public let modifier: Modifier

    /// `content` with `modifier` applied.
    public init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }

    func nodes(in context: RenderContext) -> [RenderNode] {
        let nodes = Renderer.nodes(of: content, in: context)
        if let modifier = modifier as? any NodeModifier { for node in nodes { modifier.apply(to: node) } }
        return nodes
    }
}

extension View {
    /// The view with `modifier` applied.
    public func modifier<Modifier: ViewModifier>(_ modifier: Modifier) -> ModifiedContent<Self, Modifier> {
        ModifiedContent(content: self, modifier: modifier)
    }

    /// The view with an explicit identity, added to its position: a view whose id
    /// changes is a new view, with none of the old one's state.
    public func id<ID: Hashable>(_ id: ID) -> ModifiedContent<Self, IdentityModifier> {
        modifier(IdentityModifier(id: RenderContext.identityPart(explicit: id)))
    }

    /// The view with an accessibility identifier (part of its `$element_id`).
    public func accessibilityIdentifier(_ identifier: String) -> ModifiedContent<Self, AccessibilityIdentifierModifier> {
        modifier(AccessibilityIdentifierModifier(identifier: identifier))
    }

    /// The view answers taps by running `action`.
    public func onTapGesture(perform action: @escaping () -> Void) -> ModifiedContent<Self, TapGestureModifier> {
        modifier(TapGestureModifier(action: action))
    }
}

/// `.id(_:)`: an explicit identity.
public struct IdentityModifier: NodeModifier {
    let id: String
    func apply(to node: RenderNode) { node.identity.append(id) }
}

/// `.accessibilityIdentifier(_:)`.
public struct AccessibilityIdentifierModifier: NodeModifier {
    let identifier: String
    func apply(to node: RenderNode) { node.accessibilityIdentifier = identifier }
}

/// `.onTapGesture(perform:)`: the view answers taps, unless it already answers them
/// itself (a button's own action wins, as in SwiftUI).
public struct TapGestureModifier: NodeModifier {
    let action: () -> Void
    func apply(to node: RenderNode) {
        guard node.tapResponse == nil else { return }
        node.tapResponse = .tapGesture
        node.perform = action
    }
}
