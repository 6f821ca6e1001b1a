import AutoTrackProperties

/// Views one above the other.
public struct VStack<Content: View>: View, PrimitiveView {
    let content: Content

    /// A vertical stack of `content`.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }

    func nodes(in context: RenderContext) -> [RenderNode] {
        [RenderNode(typeName: "VStack", role: .view, identity: context.identity, children: Renderer.distinguished(Renderer.nodes(of: content, in: context.below)))]
    }
}

/// Views side by side.
public struct HStack<Content: View>: View, PrimitiveView {
    let content: Content

    /// A horizontal stack of `content`.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }

    func nodes(in context: RenderContext) -> [RenderNode] {
        [RenderNode(
            typeName: "HStack", role: .view, identity: context.identity, arrangement: .horizontal,
            children: Renderer.distinguished(Renderer.nodes(of: content, in: context.below)))]
    }
}

/// Views that share modifiers and nothing else: drawn in place, no node of their own.
public struct Group<Content: View>: View, PrimitiveView {
    let content: Content

    /// A group of `content`.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }

    func nodes(in context: RenderContext) -> [RenderNode] { Renderer.nodes(of: content, in: context) }
}

/// A scrolling list of rows (backed by a collection view on iOS 16 and later): each
/// view its content draws is a row, at a position in section 0.
public struct List<Content: View>: View, PrimitiveView {
    let content: Content

    /// A list of `content`'s views.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }

    func nodes(in context: RenderContext) -> [RenderNode] {
        let rows = Renderer.distinguished(Renderer.nodes(of: content, in: context.below))
        for (index, row) in rows.enumerated() {
            for node in row.subtree { node.listPosition = ListPosition(section: 0, index: index) }
        }
        return [RenderNode(typeName: "List", role: .collection, identity: context.identity, children: rows)]
    }
}

/// A view for each element of a collection, identified by the element's id: a view
/// keeps its identity when the collection is reordered.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View, PrimitiveView {
    let data: Data
    let id: (Data.Element) -> ID
    let content: (Data.Element) -> Content

    /// A view for each element of `data`, identified by the key path `id`.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.id = { $0[keyPath: id] }
        self.content = content
    }

    func nodes(in context: RenderContext) -> [RenderNode] {
        data.flatMap { element in
            Renderer.nodes(of: content(element), in: context.identified(by: RenderContext.identityPart(explicit: id(element))))
        }
    }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    /// A view for each element of `data`, identified by its `id`.
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.id = { $0.id }
        self.content = content
    }
}
