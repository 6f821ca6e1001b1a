/// A view whose type is erased, as SwiftUI's `AnyView`: it holds the view in a
/// storage object, where reflection finds it (`storage.view`).
public struct AnyView: View, PrimitiveView {
    /// The storage of the erased view.
    let storage: AnyViewStorageBase

    /// `view`, its type erased.
    public init<V: View>(_ view: V) { storage = AnyViewStorage(view) }

    func nodes(in context: RenderContext) -> [RenderNode] { storage.nodes(in: context) }
}

/// The type-erased storage of an ``AnyView``.
class AnyViewStorageBase {
    func nodes(in context: RenderContext) -> [RenderNode] { [] }
}

/// The storage of an ``AnyView`` holding a `V`.
final class AnyViewStorage<V: View>: AnyViewStorageBase {
    let view: V
    init(_ view: V) { self.view = view }
    override func nodes(in context: RenderContext) -> [RenderNode] { Renderer.nodes(of: view, in: context) }
}
