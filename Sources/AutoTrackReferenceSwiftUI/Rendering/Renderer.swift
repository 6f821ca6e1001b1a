import AutoTrackProperties

/// What rendering a view needs from above: the identity its position gives it, the
/// list row it is in, and how a navigation link shows its destination.
struct RenderContext {
    /// The identity parts of the position the view is drawn at (builder positions,
    /// branches, `ForEach` ids), given to the first nodes it draws.
    var identity: [String] = []
    /// Shows a navigation link's destination.
    var navigate: (any View) -> Void

    /// The context of a view at a further position.
    func identified(by part: String) -> RenderContext {
        var context = self
        context.identity.append(part)
        return context
    }

    /// The context of a view's content: a fresh position below it.
    var below: RenderContext {
        var context = self
        context.identity = []
        return context
    }
}

/// Evaluates views into nodes.
enum Renderer {
    /// The nodes `view` draws in `context`: a primitive draws itself; an app's own
    /// view is a node named after its type, holding what its body draws.
    static func nodes(of view: any View, in context: RenderContext) -> [RenderNode] {
        if let primitive = view as? any PrimitiveView { return primitive.nodes(in: context) }
        let node = RenderNode(typeName: typeName(of: view), role: .view, identity: context.identity)
        node.children = nodes(of: body(of: view), in: context.below)
        return [node]
    }

    /// An app view's type name without generic arguments or module.
    static func typeName(of view: any View) -> String { DeclarativeViewReflection.baseName(of: type(of: view)) }

    private static func body<V: View>(of view: V) -> any View { view.body }
}
