import AutoTrackEvents
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceSwiftUI
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackTesting
import Testing

@Suite("SwiftUI tap hook")
struct SwiftUITapHookTests {
    /// The sample app with the SwiftUI shop pushed and the tap hook installed.
    struct Shop {
        let fixture: Fixture
        let state = ShopState()
        let screen: ViewControllerObject
        var hostingView: HostingViewObject { screen.hostingView! }
        var clicks: [Interaction] { fixture.sink.interactions.filter { $0.point == .swiftUITap } }

        init(hooks: [any InterceptionHook<ReferenceHost>] = [SwiftUITapHook()]) throws {
            fixture = try Fixture()
            for hook in hooks { try fixture.install(hook) }
            screen = try fixture.app.makeShopScreen(state: state)
            try fixture.host.driver.push(screen, on: fixture.app.navigation)
            fixture.app.log.clear()
            fixture.sink.clear()
        }

        func tap(_ label: String) throws { try fixture.host.driver.tap(label, in: hostingView) }
        func id(_ interaction: Interaction?) -> PropertyValue? { interaction?.element?.properties["$element_id"] }
    }

    @Test("a button tap is one click with its label, recorded before its action, which runs once")
    func buttonTap() throws {
        let shop = try Shop()
        try shop.tap("Add to cart")
        #expect(shop.fixture.app.log.all == [.click, .addToCart])
        let click = try #require(shop.clicks.only)
        #expect(click.element?.typeName == "Button")
        #expect(click.element?.properties["$element_content"] == "Add to cart")
        #expect(click.screen?.typeName == "ShopView")
        #expect(click.element?.properties["$element_path"] == "ShopView[0]/_UIHostingView[0]/ShopView[0]/VStack[0]/Button[3]")
    }

    @Test("the id survives a re-render that changes other state, and a view shown before the button")
    func idSurvivesRerender() throws {
        let shop = try Shop()
        try shop.tap("Add to cart")
        shop.state.showsPromotion = true
        shop.hostingView.render()
        try shop.tap("Add to cart")
        #expect(shop.state.cartCount == 2)
        let ids = shop.clicks.map { shop.id($0) }
        #expect(ids.count == 2)
        #expect(ids[0] != nil && ids[0] == ids[1])
    }

    @Test("a ForEach row keeps its id when the products are reordered; its position follows")
    func reorderKeepsIdentity() throws {
        let shop = try Shop(hooks: [SwiftUITapHook()])
        try shop.tap("Case")
        shop.state.products.swapAt(0, 1)
        shop.hostingView.render()
        try shop.tap("Case")
        let clicks = shop.clicks
        #expect(clicks.count == 2)
        #expect(shop.id(clicks[0]) == shop.id(clicks[1]))
        #expect(clicks.map { $0.element?.properties["$element_position"] } == ["0:1", "0:0"])
    }

    @Test("distinct elements have distinct ids")
    func distinctIDs() throws {
        let shop = try Shop()
        for label in ["Add to cart", "Gift wrap", "Phone", "Case", "Charger"] {
            try shop.tap(label)
            try? shop.fixture.host.driver.pop(shop.fixture.app.navigation)
        }
        let ids = Set(shop.clicks.compactMap { shop.id($0).map { "\($0)" } })
        #expect(ids.count == 5)
    }

    @Test("a tap on text or a stack activates nothing: no click", arguments: ["Shop", "In cart: 0"])
    func containerTapIsNoClick(label: String) throws {
        let shop = try Shop()
        try shop.tap(label)
        #expect(shop.clicks.isEmpty)
        #expect(shop.fixture.app.log.all.isEmpty)
    }

    @Test("a toggle tap is one click and flips the value once; a tap gesture on an image is one click")
    func toggleAndGesture() throws {
        let shop = try Shop()
        try shop.tap("Gift wrap")
        let banner = try #require(shop.hostingView.allElements.first { $0.imageName == "banner" })
        try shop.fixture.host.driver.tap(banner)
        #expect(shop.state.giftWrap)
        #expect(shop.fixture.app.log.all == [.click, .giftWrap, .click, .shopBannerTap])
        #expect(shop.clicks.map { $0.element?.typeName } == ["Toggle", "Image"])
        // The toggle's content is the value the tap gave it, as a switch's.
        #expect(shop.clicks.first?.element?.properties["$element_content"] == "checked")
    }

    @Test("a navigation link is one click and its destination a screen named after its view")
    func navigationLink() throws {
        let shop = try Shop(hooks: [SwiftUITapHook(), ScreenViewAppearHook()])
        try shop.tap("Charger")
        let interactions = shop.fixture.sink.interactions
        #expect(interactions.map(\.point) == [.swiftUITap, .screenView])
        #expect(interactions.first?.element?.properties["$element_content"] == "Charger")
        #expect(interactions.last?.screen?.typeName == "ProductDetailView")
    }
}

/// A view using capture's modifiers.
struct TaggedView: View {
    var body: some View {
        VStack {
            Button("Pay") {}.autoTrackProperties(["sku": "A-1"]).autoTrackElementID("pay-button")
            VStack {
                Button("Hidden") {}
            }.autoTrackIgnored(descendants: true)
        }
    }
}

@Suite("SwiftUI capture modifiers")
struct SwiftUICaptureModifierTests {
    @Test("custom properties and an element id reach the click; a container ignored with its descendants records none")
    func modifiers() throws {
        let fixture = try Fixture()
        try fixture.install(SwiftUITapHook())
        let screen = try fixture.host.makeHostingController(rootView: TaggedView())
        try fixture.host.driver.push(screen, on: fixture.app.navigation)
        let view = try #require(screen.hostingView)
        try fixture.host.driver.tap("Pay", in: view)
        try fixture.host.driver.tap("Hidden", in: view)
        let clicks = fixture.sink.interactions.filter { $0.point == .swiftUITap }
        #expect(clicks.count == 1)
        #expect(clicks.first?.element?.properties["sku"] == "A-1")
        #expect(clicks.first?.element?.properties["$element_id"] == "pay-button")
    }
}

extension Array {
    /// The one element, or `nil` when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
