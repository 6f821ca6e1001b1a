import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp

/// The SwiftUI shop in generated sessions: taps in it, and changes to its state that
/// render it again. A tap step opens the shop from the list screen and comes back, so
/// the session's screens are as before; on any other screen it does nothing, the same
/// in both worlds.
extension ReferenceHostWorld {
    /// The shop's hosting view, its content rendered (loaded in both worlds when the
    /// world is made, so that neither loads it at another time).
    var shopView: HostingViewObject? { app.shopScreen.hostingView }

    /// The element a tap on `target` lands on, as the shop is drawn now.
    func shopElement(_ target: ReferenceHostStep.ShopTarget) -> HostedElement? {
        let elements = shopView?.allElements ?? []
        return switch target {
        case .addToCart: elements.first { $0.ownText == "Add to cart" }
        case .giftWrap: elements.first { $0.typeName == "Toggle" }
        case .follow: elements.first { $0.ownText == "Follow" || $0.ownText == "Following" }
        case .debugMenu: elements.first { $0.ownText == "Debug menu" }
        case .banner: elements.first { $0.imageName == "banner" }
        case .title: elements.first { $0.typeName == "Text" && $0.ownText == "Shop" }
        case .firstRow: elements.first { $0.typeName == "NavigationLink" }
        case .lastRow: elements.last { $0.typeName == "NavigationLink" }
        case .giftCardsText: elements.first { $0.typeName == "Text" && $0.ownText == "Gift cards" }
        }
    }

    /// The element a tap on `target` activates, as the shop is built: the target
    /// itself, the gift-cards row's stack for its text, none for the title.
    func shopActivated(_ target: ReferenceHostStep.ShopTarget) -> HostedElement? {
        switch target {
        case .title: nil
        case .giftCardsText: shopView?.allElements.first { $0.typeName == "HStack" && $0.children.contains { $0.ownText == "Gift cards" } }
        default: shopElement(target)
        }
    }

    /// The log entry of the action a tap on `target` runs (`nil`: a link, which logs
    /// nothing, or a tap that activates nothing).
    static func shopOriginal(_ target: ReferenceHostStep.ShopTarget) -> AppLogEntry? {
        switch target {
        case .addToCart: .addToCart
        case .giftWrap: .giftWrap
        case .follow: .follow
        case .debugMenu: .debugMenu
        case .banner: .shopBannerTap
        case .giftCardsText: .giftCards
        case .title, .firstRow, .lastRow: nil
        }
    }

    func runInShop(_ step: ReferenceHostStep) throws {
        switch step {
        case .tapInShop(let target):
            guard screensAbove == 0, let element = shopElement(target) else { return }
            // What the tap must record is worked out on screen, just before it.
            let tracked = trackingIsActive
            try host.driver.push(app.shopScreen, on: app.navigation)
            if subject != nil, tracked {
                let (expected, originals) = shopExpectations(tapping: target)
                lateExpectations += expected
                lateOriginals += originals
            }
            try host.driver.tap(element)
            while app.navigation.viewControllers.count > 1 { try host.driver.pop(app.navigation) }
        case .reorderShop:
            app.shopState.products.append(app.shopState.products.removeFirst())
            shopView?.render()
        case .toggleShopPromotion:
            app.shopState.showsPromotion.toggle()
            shopView?.render()
        default:
            break
        }
    }

    /// What a tap in the shop, open on screen, must record: at the SwiftUI point, one click on what the
    /// tap activates — unless it activates nothing or is ignored — with its label, row
    /// and path as drawn before the tap; at the touch point, the touch on the element
    /// under the finger; at the screen-view point, the shop's appearance (and, for a
    /// row, its detail's, then the shop's again). The list screen's own appearance on
    /// the way back comes from its `viewDidAppear:`.
    private func shopExpectations(tapping target: ReferenceHostStep.ShopTarget) -> (expected: [ExpectedInteraction], originals: [AppLogEntry]) {
        guard let subject, let element = shopElement(target) else { return ([], []) }
        let shop = app.shopScreen!
        let screen = specification.excludes(screen: shop) ? host.visibleController : shop
        func summary(of node: any ElementNode, at point: InterceptionPoint) -> InteractionSummary {
            Self.summary(point: point, element: specification.snapshot(of: node), screen: screen.map { specification.snapshot(of: $0) }, alert: nil)
        }
        switch subject.point {
        case .swiftUITap:
            guard let activated = shopActivated(target), !specification.snapshot(of: activated).isIgnored else { return ([], []) }
            var expected = summary(of: activated, at: .swiftUITap)
            if target == .giftWrap {
                // A toggle's click says the value the tap gives it.
                let content = "$element_content \(app.shopState.giftWrap ? "unchecked" : "checked")"
                expected.properties = expected.properties.map { $0.hasPrefix("$element_content ") ? content : $0 }
            }
            return ([ExpectedInteraction(expected)], Self.shopOriginal(target).map { [$0] } ?? [])
        case .touchEnd:
            // The finger is on the target itself.
            guard !specification.snapshot(of: element).isIgnored else { return ([], []) }
            return ([ExpectedInteraction(summary(of: element, at: .touchEnd))], [])
        case .screenView:
            guard !specification.excludes(screen: shop) else { return ([], []) }
            let row = target == .firstRow || target == .lastRow
            let screens = row ? ["ShopView", "ProductDetailView", "ShopView"] : ["ShopView"]
            return (screens.map { ExpectedInteraction(Self.screenViewSummary($0)) }, [])
        default:
            return ([], [])
        }
    }
}
