import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceSwiftUI
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackTesting

/// SwiftUI scenarios (`SU-`): taps on the sample app's SwiftUI shop, and hosting
/// controllers as screens.
enum SwiftUIScenarios {
    /// The shop pushed on the navigation stack, the hook installed first.
    struct Shop {
        let run: ScenarioRun
        let state = ShopState()
        let screen: ViewControllerObject

        init(_ run: ScenarioRun) throws {
            self.run = run
            try run.install()
            try run.app.launch()
            screen = try run.app.makeShopScreen(state: state)
            try run.host.driver.push(screen, on: run.app.navigation)
            run.resetCounts()
        }

        var view: HostingViewObject { get throws { try screen.requireHostingView() } }
        func tap(_ label: String) throws { try run.host.driver.tap(label, in: try view) }
        /// Renders the shop again, as SwiftUI does when state it reads changes.
        func rerender() throws { try view.render() }
        var clicks: [Interaction] { run.sink.interactions.filter { $0.point == .swiftUITap } }
        func property(_ name: String) -> [String] { clicks.map { run.text($0.element?.properties[name]) } }
    }

    static func scenario(_ id: String, _ title: String, _ failure: String, _ rules: [ContractRule], body: @escaping @Sendable (Shop) throws -> Void) -> Scenario {
        Scenario(id: id, point: .swiftUITap, title: title, failure: failure, rules: rules) { run in try body(try Shop(run)) }
    }

    static let all: [Scenario] = [
        scenario("SU-01", "a button tap: one click with the label, the action once", "SwiftUI buttons send no target-action: a UIKit-only SDK records nothing, or a touch hook records every touch on the hosting view.", [.originalOnce, .oneInteraction]) { shop in
            try shop.tap("Add to cart")
            shop.run.expectCounts(original: .addToCart, originals: 1, interactions: 1)
            shop.run.expect(.oneInteraction, "content and type", expected: ["Add to cart Button"], observed: shop.clicks.map { "\(shop.run.text($0.element?.properties["$element_content"])) \($0.element?.typeName ?? "?")" })
        },
        scenario("SU-02", "a re-render that changes other state keeps the element's id", "Ids from object addresses or render counts: every re-render makes the same button a new element.", [.oneInteraction]) { shop in
            try shop.tap("Add to cart")
            try shop.tap("Add to cart")
            let ids = shop.property("$element_id")
            shop.run.expect(.oneInteraction, "distinct ids of one button across re-renders", expected: 1, observed: Set(ids).count)
            shop.run.expect(.oneInteraction, "clicks", expected: 2, observed: ids.count)
        },
        scenario("SU-03", "a button shown above the button keeps the button's id", "Ids from sibling indexes: a conditional view appearing renumbers every view of its type after it.", [.oneInteraction]) { shop in
            try shop.tap("Add to cart")
            shop.state.showsPromotion = true
            try shop.rerender()
            try shop.tap("Add to cart")
            let ids = shop.property("$element_id")
            shop.run.expect(.oneInteraction, "distinct ids of one button, with and without the promotion", expected: 1, observed: Set(ids).count)
        },
        scenario("SU-04", "ForEach rows reordered keep their ids; their positions follow", "Row ids from positions: a reordered list sends another product's id.", [.oneInteraction]) { shop in
            try shop.tap("Case")
            try shop.run.host.driver.pop(shop.run.app.navigation)
            shop.state.products.swapAt(0, 1)
            try shop.rerender()
            try shop.tap("Case")
            let ids = shop.property("$element_id")
            shop.run.expect(.oneInteraction, "distinct ids of the Case row", expected: 1, observed: Set(ids).count)
            shop.run.expect(.oneInteraction, "positions of the Case row", expected: ["0:1", "0:0"], observed: shop.property("$element_position"))
        },
        scenario("SU-05", "a tap on text or a stack is not a click", "Every touch on a hosting view recorded as a click: text and containers flood $AppClick.", [.filters]) { shop in
            try shop.tap("Shop")
            try shop.tap("In cart: 0")
            shop.run.expect(.filters, "clicks", expected: 0, observed: shop.clicks.count)
        },
        scenario("SU-06", "distinct elements have distinct ids", "Ids from the type and label alone: every row link, or every button, shares one id.", [.oneInteraction]) { shop in
            for label in ["Add to cart", "Gift wrap", "Follow", "Phone", "Case", "Charger"] {
                try shop.tap(label)
                if shop.run.app.navigation.topViewController !== shop.screen { try shop.run.host.driver.pop(shop.run.app.navigation) }
            }
            shop.run.expect(.oneInteraction, "distinct ids of six elements", expected: 6, observed: Set(shop.property("$element_id")).count)
        },
        scenario("SU-07", "the label is read as it was when tapped", "Recording after the action, or reading the label lazily: the click says what the button says after its action.", [.recordThenForward]) { shop in
            try shop.tap("Follow")
            try shop.tap("Following")
            shop.run.expect(.recordThenForward, "contents", expected: ["Follow", "Following"], observed: shop.property("$element_content"))
            shop.run.expect(.originalOnce, "Follow actions", expected: 2, observed: shop.run.log.count(.follow))
        },
        scenario("SU-08", "a toggle tap: one click, the value flipped once", "A toggle's binding set twice (by the hook and the original) or not at all.", [.originalOnce, .oneInteraction]) { shop in
            try shop.tap("Gift wrap")
            shop.run.expectCounts(original: .giftWrap, originals: 1, interactions: 1)
            shop.run.expect(.originalOnce, "gift wrap after one tap", expected: true, observed: shop.state.giftWrap)
            shop.run.expect(.oneInteraction, "content: the value the tap gave it", expected: ["checked"], observed: shop.property("$element_content"))
        },
        scenario("SU-09", "a navigation link: one click, its destination shown once", "A link's push run twice or skipped: the destination appears twice or never.", [.originalOnce, .oneInteraction]) { shop in
            let depth = shop.run.app.navigation.viewControllers.count
            try shop.tap("Charger")
            shop.run.expect(.originalOnce, "screens pushed", expected: 1, observed: shop.run.app.navigation.viewControllers.count - depth)
            shop.run.expect(.originalOnce, "top screen", expected: "ProductDetailView", observed: shop.run.app.navigation.topViewController?.typeName ?? "none")
            shop.run.expect(.oneInteraction, "clicks", expected: ["Charger"], observed: shop.property("$element_content"))
        },
        scenario("SU-10", "an ignored button runs and is not recorded", "The ignore modifier read from the wrong node: ignored views recorded, or their actions dropped.", [.filters, .originalOnce]) { shop in
            try shop.tap("Debug menu")
            shop.run.expectCounts(original: .debugMenu, originals: 1, interactions: 0)
        },
        scenario("SU-11", "a tap-gesture image: one click, the gesture once", "onTapGesture views missed because they are no Button.", [.originalOnce, .oneInteraction]) { shop in
            guard let banner = try shop.view.allElements.first(where: { $0.imageName == "banner" }) else {
                shop.run.expectTrue(.oneInteraction, "the shop draws its banner", false)
                return
            }
            try shop.run.host.driver.tap(banner)
            shop.run.expectCounts(original: .shopBannerTap, originals: 1, interactions: 1)
        },
        scenario("SU-13", "a tap on text inside a tap-gesture stack: one click on the stack, its gesture once", "Hooks that look only at the view under the finger: a container's tap gesture, answered through its text, is never recorded.", [.originalOnce, .oneInteraction]) { shop in
            try shop.tap("Gift cards")
            shop.run.expectCounts(original: .giftCards, originals: 1, interactions: 1)
            shop.run.expect(.oneInteraction, "the clicked element", expected: ["HStack Gift cards"], observed: shop.clicks.map { "\($0.element?.typeName ?? "?") \(shop.run.text($0.element?.properties["$element_content"]))" })
        },
    ]

    /// Buttons in every kind of place a view builder puts them.
    struct VarietyView: View {
        let log: AppLog
        let flag: Bool
        func button(_ label: String, _ tag: String) -> Button<Text> { Button(label) { log.record(AppLogEntry(.varietyAction, detail: tag)) } }
        var body: some View {
            VStack {
                HStack {
                    button("Same", "left")
                    button("Same", "right")
                }
                Group {
                    Text("grouped")
                    button("Grouped", "grouped")
                }
                AnyView(button("Erased", "erased"))
                if flag { button("Branch", "if") } else { button("Branch", "else") }
                ForEach([3, 1, 2], id: \.self) { number in button("Item", "item \(number)").accessibilityIdentifier("item-\(number)") }
                Text("Tap me").onTapGesture { log.record(AppLogEntry(.varietyAction, detail: "text")) }
                button("Explicit", "explicit").autoTrackElementID("explicit-id")
            }
        }
    }

    /// The variety scenarios: SwiftUI's structures, one click each.
    static let variety: [Scenario] = [
        Scenario(id: "SU-V1", point: .swiftUITap, title: "buttons in stacks, groups, AnyView, both branches of a condition and a ForEach: one click and one action each, distinct ids", failure: "Hooks that find the tapped view only in plain stacks, or give twins (same label, same type) one id.", rules: [.originalOnce, .oneInteraction]) { run in
            try run.install()
            try run.app.launch()
            var taps = 0
            for flag in [true, false] {
                let screen = try run.host.makeHostingController(rootView: VarietyView(log: run.log, flag: flag))
                try run.host.driver.push(screen, on: run.app.navigation)
                let view = try screen.requireHostingView()
                for element in view.allElements where element.tapResponse != nil {
                    try run.host.driver.tap(element)
                    taps += 1
                }
                try run.host.driver.pop(run.app.navigation)
            }
            let clicks = run.sink.interactions.filter { $0.point == .swiftUITap }
            run.expect(.oneInteraction, "clicks", expected: taps, observed: clicks.count)
            run.expect(.originalOnce, "actions", expected: taps, observed: run.log.all.filter { $0.kind == .varietyAction }.count)
            let ids = clicks.map { run.text($0.element?.properties["$element_id"]) }
            // Both screens draw the same views but for the branch: one id more than a screen's taps.
            run.expect(.oneInteraction, "distinct ids", expected: taps / 2 + 1, observed: Set(ids).count)
            run.expectTrue(.oneInteraction, "the explicit id is used", ids.contains("explicit-id"))
        },
    ]

    /// Hosting controllers as screens (point: screen view).
    static let screens: [Scenario] = [
        Scenario(id: "SV-11", point: .screenView, title: "a hosting controller is a screen named after its SwiftUI view, through modifiers and AnyView", failure: "Screens named UIHostingController<ModifiedContent<…>> or AnyView: every SwiftUI screen under one name.", rules: [.oneInteraction]) { run in
            try run.install()
            try run.app.launch()
            run.resetCounts()
            let erased = try run.host.makeHostingController(rootView: AnyView(ShopView(state: ShopState(), log: run.log).id(1)))
            try run.host.driver.push(erased, on: run.app.navigation)
            let named = try run.host.makeHostingController(rootView: ShopView(state: ShopState(), log: run.log).autoTrackScreen(name: "Shop home"))
            try run.host.driver.push(named, on: run.app.navigation)
            let names = run.sink.interactions.filter { $0.point == .screenView }.map { run.text($0.screen?.properties["$screen_name"]) }
            run.expect(.oneInteraction, "screen names", expected: ["ShopView", "Shop home"], observed: names)
        },
    ]
}

extension AppLogEntry.Kind {
    /// A variety view's action ran (its detail: which).
    static let varietyAction = Self("variety action")
}
