/// AutoTrackReferenceSwiftUI: `View`, `Binding` appear in this file's public API.
public import AutoTrackReferenceSwiftUI
import AutoTrackEvents
/// AutoTrackReferenceUI: `ViewControllerObject` appears in this file's public API.
public import AutoTrackReferenceUI
/// AutoTrackRuntime: `RuntimeError` appears in this file's public API.
public import AutoTrackRuntime

/// A product the SwiftUI shop lists, identified by its SKU.
public struct ShopProduct: Identifiable, Hashable, Sendable {
    /// The SKU: the row's identity.
    public var id: String
    /// The name: the row's label.
    public var name: String

    /// A product.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// The state the SwiftUI shop reads: changing it and rendering again changes what the
/// shop shows, never which element is which.
public final class ShopState {
    /// Items in the cart (shown as text, changed by "Add to cart").
    public var cartCount = 0
    /// Whether gift wrap is on (the toggle).
    public var giftWrap = false
    /// Whether the shopper follows the shop (the Follow button's label says).
    public var isFollowing = false
    /// Whether the promotion button is shown above the cart line.
    public var showsPromotion = false
    /// The products, in the order the list shows them.
    public var products = [
        ShopProduct(id: "sku-1", name: "Phone"), ShopProduct(id: "sku-2", name: "Case"), ShopProduct(id: "sku-3", name: "Charger"),
    ]

    /// Fresh state.
    public init() {}
}

/// The sample app's SwiftUI screen: a title, a promotion button shown or not, the cart line,
/// an "Add to cart" button, a "Gift wrap" toggle, a "Follow" button whose label
/// says whether the shopper follows, a "Debug menu" button automatic capture
/// ignores, a list of products that link to
/// their detail, and a banner image with a tap gesture, watched for exposure
/// (`campaign: spring`), and a gift-cards row whose tap gesture is on its stack, not
/// on its text.
public struct ShopView: View {
    /// The state.
    public let state: ShopState
    /// The app's log.
    public let log: AppLog

    /// The shop over `state`, recording into `log`.
    public init(state: ShopState, log: AppLog) {
        self.state = state
        self.log = log
    }

    /// The shop.
    public var body: some View {
        VStack {
            Text("Shop")
            if state.showsPromotion { Button("Free shipping today") { log.record(.promotion) } }
            Text("In cart: \(state.cartCount)")
            Button("Add to cart") {
                log.record(.addToCart)
                state.cartCount += 1
            }
            Toggle("Gift wrap", isOn: Binding(get: { state.giftWrap }, set: { on in
                log.record(.giftWrap)
                state.giftWrap = on
            }))
            Button(state.isFollowing ? "Following" : "Follow") {
                log.record(.follow)
                state.isFollowing.toggle()
            }
            Button("Debug menu") { log.record(.debugMenu) }.autoTrackIgnored()
            List {
                ForEach(state.products) { product in
                    NavigationLink(product.name, destination: ProductDetailView(product: product, log: log))
                }
            }
            Image("banner")
                .onTapGesture { log.record(.shopBannerTap) }
                .autoTrackExposure(minimumVisibleRatio: 0.5, properties: ["campaign": "spring"])
            HStack {
                Text("Gift cards")
                Image("card")
            }
            .onTapGesture { log.record(.giftCards) }
        }
    }
}

/// A product's detail, the destination of a shop row's link.
public struct ProductDetailView: View {
    /// The product.
    public let product: ShopProduct
    /// The app's log.
    public let log: AppLog

    /// The detail of `product`.
    public var body: some View {
        VStack {
            Text(product.name)
            Button("Buy") { log.record(.buyProduct(product.id)) }
        }
    }
}

extension SampleApp {
    /// A hosting controller showing the SwiftUI shop over `state` (fresh by default):
    /// a screen named `ShopView`.
    public func makeShopScreen(state: ShopState = ShopState()) throws(RuntimeError) -> ViewControllerObject {
        try host.makeHostingController(rootView: ShopView(state: state, log: log))
    }
}

extension AppLogEntry {
    /// The shop's "Add to cart" action ran.
    public static let addToCart = AppLogEntry("add to cart")
    /// The shop's gift-wrap toggle changed.
    public static let giftWrap = AppLogEntry("gift wrap")
    /// The shop's promotion button ran.
    public static let promotion = AppLogEntry("promotion")
    /// The shop's gift-cards row ran its tap gesture.
    public static let giftCards = AppLogEntry("gift cards")
    /// The shop's Follow button ran.
    public static let follow = AppLogEntry("follow")
    /// The shop's ignored Debug menu button ran.
    public static let debugMenu = AppLogEntry("debug menu")
    /// The shop banner's tap gesture ran.
    public static let shopBannerTap = AppLogEntry("shop banner tap")
    /// A product detail's "Buy" ran for the SKU `id`.
    public static func buyProduct(_ id: String) -> AppLogEntry { AppLogEntry(Kind("buy product"), detail: id) }
}
