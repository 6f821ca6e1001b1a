/// A piece of user interface described as a value, as SwiftUI's `View` is: either a
/// primitive the renderer draws (``Text``, ``Button``, ``VStack`` …) or a view of the
/// app's own whose ``body`` is made of others.
///
/// ```swift
/// struct Greeting: View {
///     var name: String
///     var body: some View {
///         VStack {
///             Text("Hello, \(name)")
///             Button("Continue") { print("continue") }
///         }
///     }
/// }
/// ```
///
/// An app's own views show up in paths under their type names (`Greeting[0]`), so a
/// path reads like the code that built it.
public protocol View {
    /// The type of the view's content.
    associatedtype Body: View
    /// The view's content, evaluated again at every render.
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    /// Never evaluated: `Never` is the body of primitive views.
    public var body: Never { fatalError("Never has no body") }
}

/// A primitive view: the renderer draws it without asking for a body.
protocol PrimitiveView: View where Body == Never {
    /// The nodes the view draws in `context`.
    func nodes(in context: RenderContext) -> [RenderNode]
}

extension PrimitiveView {
    /// Primitives have no body; the renderer never asks for one (as in SwiftUI,
    /// where asking a primitive for its body stops the program).
    public var body: Never { fatalError("\(Self.self) is a primitive view and has no body") }
}

/// Nothing: takes no space and draws nothing.
public struct EmptyView: View, PrimitiveView {
    /// Creates an empty view.
    public init() {}
    func nodes(in context: RenderContext) -> [RenderNode] { [] }
}
