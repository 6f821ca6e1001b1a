import AutoTrackProperties

/// What rendering a view needs from above: the identity its position gives it, the
/// list row it is in, and how a navigation link shows its destination.
struct RenderContext {
    /// The identity parts of the position the view is drawn at (builder positions,
    /// branches, `ForEach` ids), given to the first nodes it draws.
    var identity: [String] = []
    /// How many views deep the render is: a view whose body contains itself stops
    /// being drawn at ``maximumDepth`` instead of exhausting the stack.
    var depth = 0
    /// Shows a navigation link's destination.
    var navigate: (any View) -> Void

    /// The deepest view drawn.
    static let maximumDepth = 512

    /// An explicit id (`ForEach`, `.id(_:)`) as an identity part: `id:` and the
    /// value's description, with the characters paths and identities use as
    /// separators (`/ _ , [ ] ( ) %`) percent-encoded.
    static func identityPart(explicit id: some Hashable) -> String {
        var part = "id:"
        for character in "\(id)".unicodeScalars {
            if "/_,[]()%#".unicodeScalars.contains(character) {
                part += "%" + String(character.value, radix: 16, uppercase: true)
            } else {
                part.unicodeScalars.append(character)
            }
        }
        return part
    }

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
        context.depth += 1
        return context
    }
}

/// Evaluates views into nodes.
enum Renderer {
    /// The nodes `view` draws in `context`: a primitive draws itself; an app's own
    /// view is a node named after its type, holding what its body draws.
    static func nodes(of view: any View, in context: RenderContext) -> [RenderNode] {
        guard context.depth < RenderContext.maximumDepth else { return [] }
        if let primitive = view as? any PrimitiveView { return primitive.nodes(in: context) }
        let node = RenderNode(typeName: typeName(of: view), role: .view, identity: context.identity)
        node.children = distinguished(nodes(of: body(of: view), in: context.below))
        return [node]
    }

    /// `siblings`, each later one with a type and identity an earlier one has made
    /// distinct by `#2`, `#3` … — duplicate `ForEach` ids, which SwiftUI warns about,
    /// still give distinct elements, in order.
    static func distinguished(_ siblings: [RenderNode]) -> [RenderNode] {
        var seen: [String: Int] = [:]
        for node in siblings {
            let key = "\(node.typeName)|\(node.identity.joined(separator: ","))"
            let count = seen[key, default: 0] + 1
            seen[key] = count
            if count > 1 { node.identity.append("#\(count)") }
        }
        return siblings
    }

    /// An app view's type name without generic arguments or module.
    static func typeName(of view: any View) -> String { DeclarativeViewReflection.baseName(of: type(of: view)) }

    private static func body<V: View>(of view: V) -> any View { view.body }
}
