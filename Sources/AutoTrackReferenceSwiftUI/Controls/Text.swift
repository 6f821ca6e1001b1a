import AutoTrackProperties
/// A line of text.
public struct Text: View, PrimitiveView {
    /// The text.
    public let content: String

    /// Text showing `content`.
    public init(_ content: String) { self.content = content }

    func nodes(in context: RenderContext) -> [RenderNode] {
        let node = RenderNode(typeName: "Text", role: .label, identity: context.identity, height: 20)
        node.text = content
        return [node]
    }
}

/// An image from the app's assets.
public struct Image: View, PrimitiveView {
    /// The image's name.
    public let name: String

    /// The image named `name`.
    public init(_ name: String) { self.name = name }

    func nodes(in context: RenderContext) -> [RenderNode] {
        let node = RenderNode(typeName: "Image", role: .image, identity: context.identity, height: 44)
        node.imageName = name
        return [node]
    }
}
