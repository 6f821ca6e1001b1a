import AutoTrackProperties
import Testing

// Types shaped as SwiftUI's are: reflection sees them by their names and fields.
private struct ModifiedContent<Content, Modifier> {
    let content: Content
    let modifier: Modifier
}

private class AnyViewStorageBase {}

private final class AnyViewStorage<V>: AnyViewStorageBase {
    let view: V
    init(_ view: V) { self.view = view }
}

private struct AnyView {
    let storage: AnyViewStorageBase
    init<V>(_ view: V) { storage = AnyViewStorage(view) }
}

private struct CheckoutView {}
private struct Phone {}
private struct ProductDetail<Product> {}
private struct PaddingModifier {}
private struct NamedScreen: DeclaredScreenTracking {
    let screenTracking: ScreenTracking
}

@Suite("Naming SwiftUI screens by reflection")
struct DeclarativeViewReflectionTests {
    @Test("modifiers and type erasure are looked through; generic arguments dropped")
    func names() {
        #expect(DeclarativeViewReflection.screenName(of: CheckoutView()) == "CheckoutView")
        let modified = ModifiedContent(content: ModifiedContent(content: CheckoutView(), modifier: PaddingModifier()), modifier: PaddingModifier())
        #expect(DeclarativeViewReflection.screenName(of: modified) == "CheckoutView")
        #expect(DeclarativeViewReflection.screenName(of: AnyView(ProductDetail<Phone>())) == "ProductDetail")
        #expect(DeclarativeViewReflection.screenName(of: ModifiedContent(content: AnyView(modified), modifier: PaddingModifier())) == "CheckoutView")
    }

    @Test("a screen-tracking modifier on the way down names the screen; the outermost wins; none gives nil")
    func declaredTracking() {
        let inner = ModifiedContent(content: CheckoutView(), modifier: NamedScreen(screenTracking: ScreenTracking(screenName: "inner")))
        let outer = ModifiedContent(content: AnyView(inner), modifier: NamedScreen(screenTracking: ScreenTracking(screenName: "Checkout")))
        #expect(DeclarativeViewReflection.screenTracking(of: outer)?.screenName == "Checkout")
        #expect(DeclarativeViewReflection.screenTracking(of: inner)?.screenName == "inner")
        #expect(DeclarativeViewReflection.screenTracking(of: CheckoutView()) == nil)
    }

    @Test("an AnyView with nothing readable in it is named AnyView, not a crash")
    func unreadableErasure() {
        struct AnyViewWithoutStorage {}
        #expect(DeclarativeViewReflection.baseName(of: AnyViewWithoutStorage.self) == "AnyViewWithoutStorage")
        #expect(DeclarativeViewReflection.baseName(of: ProductDetail<Phone>.self) == "ProductDetail")
    }
}
