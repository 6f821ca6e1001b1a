/// Builds a view from the statements of a closure, as SwiftUI's `@ViewBuilder` does:
/// several views become a ``TupleView``, `if` an optional view, `if`/`else` a
/// ``ConditionalContent``. Each keeps its place — the structural identity SwiftUI
/// gives the views in it.
@resultBuilder
public enum ViewBuilder {
    /// No statements: an ``EmptyView``.
    public static func buildBlock() -> EmptyView { EmptyView() }

    /// One view: itself.
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }

    /// Several views: a tuple of them, each at its position.
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        var children: [any View] = []
        for view in repeat each content { children.append(view) }
        return TupleView(value: (repeat each content), children: children)
    }

    /// `if` without `else`: the view or nothing.
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }

    /// The `if` branch of an `if`/`else`.
    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent) -> ConditionalContent<TrueContent, FalseContent> {
        ConditionalContent(storage: .trueContent(first))
    }

    /// The `else` branch of an `if`/`else`.
    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent) -> ConditionalContent<TrueContent, FalseContent> {
        ConditionalContent(storage: .falseContent(second))
    }
}

/// Several views side by side in a builder, each identified by its position.
public struct TupleView<T>: View, PrimitiveView {
    /// The views.
    public let value: T
    let children: [any View]

    func nodes(in context: RenderContext) -> [RenderNode] {
        children.enumerated().flatMap { index, child in
            Renderer.nodes(of: child, in: context.identified(by: "\(index)"))
        }
    }
}

/// One of two views, chosen by an `if`/`else`: the two branches are different views
/// (a view in one branch never keeps the identity of a view in the other).
public struct ConditionalContent<TrueContent: View, FalseContent: View>: View, PrimitiveView {
    enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    let storage: Storage

    func nodes(in context: RenderContext) -> [RenderNode] {
        switch storage {
        case .trueContent(let view): Renderer.nodes(of: view, in: context.identified(by: "if"))
        case .falseContent(let view): Renderer.nodes(of: view, in: context.identified(by: "else"))
        }
    }
}

extension Optional: View where Wrapped: View {
    /// Never evaluated: an optional view is drawn by the renderer.
    public var body: Never { fatalError("an optional view has no body") }
}

extension Optional: PrimitiveView where Wrapped: View {
    func nodes(in context: RenderContext) -> [RenderNode] {
        guard let view = self else { return [] }
        return Renderer.nodes(of: view, in: context.identified(by: "if"))
    }
}
