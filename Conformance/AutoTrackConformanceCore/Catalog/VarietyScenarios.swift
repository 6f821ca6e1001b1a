import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import AutoTrackTesting

/// Fixture variety the one-fixture-per-point scenarios miss — both list kinds, several
/// delegates of different classes, classes registered after install, several controls
/// events and recognizers per touch — and the values originals return to their callers
/// (`<point>-V<n>` and `<point>-R<n>`).
enum VarietyScenarios {
    static func scenario(
        _ id: String, _ point: InterceptionPoint, _ title: String, _ failure: String, _ rules: [ContractRule],
        body: @escaping @Sendable (ScenarioRun) throws -> Void
    ) -> Scenario {
        Scenario(id: id, point: point, title: title, failure: failure, rules: rules, body: body)
    }

    /// The same actions in an app without the hook, for comparison.
    static func baseline(_ run: ScenarioRun, _ actions: (ScenarioRun) throws -> Void) throws -> ScenarioRun {
        let baseline = try run.variant()
        try actions(baseline)
        return baseline
    }

    static let all: [Scenario] = sendAction + gestures + alerts + delegates + screenViews

    static let sendAction: [Scenario] = [
        scenario("SA-V1", .sendAction, "one touch sending touch-down and touch-up-inside actions", "A click per control event of one touch.", [.oneInteraction, .originalOnce]) { run in
            try run.install()
            let button = try run.host.makeControl("UIButton", title: "Hold", frame: Rect(x: 10, y: 500, width: 100, height: 40))
            run.app.listScreen.view.addSubview(button)
            try button.addTarget(run.app.listScreen, action: "editTapped:", for: .touchDown)
            try button.addTarget(run.app.listScreen, action: "buyTapped:", for: .touchUpInside)
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.tap(button)
            run.expectCounts(original: .buy, originals: 1, interactions: 1)
            run.expect(.originalOnce, "calls of edit", expected: 1, observed: run.log.count(.edit))
        },
        scenario("SA-V2", .sendAction, "two buttons tapped in turn, each with its own target", "State carried from one touch to the next: the second tap deduplicated away.", [.oneInteraction]) { run in
            try run.install()
            let first = try run.host.makeControl("UIButton", title: "One", frame: Rect(x: 10, y: 500, width: 100, height: 40))
            let second = try run.host.makeControl("UIButton", title: "Two", frame: Rect(x: 120, y: 500, width: 100, height: 40))
            for button in [first, second] { run.app.listScreen.view.addSubview(button) }
            try first.addTarget(run.app.listScreen, action: "buyTapped:", for: .touchUpInside)
            try second.addTarget(run.app.listScreen, action: "addTapped:", for: .touchUpInside)
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.tap(first)
            try run.host.driver.tap(second)
            run.expect(.oneInteraction, "interactions", expected: 2, observed: run.clicks)
            run.expect(.oneInteraction, "clicked elements", expected: ["One", "Two"], observed: run.sink.interactions.map { run.text($0.element?.properties["$element_content"]) })
        },
        scenario("SA-V3", .sendAction, "a switch flipped: value-changed and touch-up-inside in one touch", "A click per control event, or the switch's new state missing from the click.", [.oneInteraction, .originalOnce]) { run in
            try run.install()
            let toggle = try run.host.makeControl("UISwitch", frame: Rect(x: 10, y: 500, width: 50, height: 30))
            run.app.listScreen.view.addSubview(toggle)
            try toggle.addTarget(run.app.listScreen, action: "editTapped:", for: .valueChanged)
            try toggle.addTarget(run.app.listScreen, action: "buyTapped:", for: .touchUpInside)
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.tap(toggle)
            run.expectCounts(original: .buy, originals: 1, interactions: 1)
            run.expect(.originalOnce, "calls of edit", expected: 1, observed: run.log.count(.edit))
        },
        scenario("SA-V4", .sendAction, "a button wired with a closure (UIAction) and a target-action", "Closure-wired buttons (UIAction, menus, primary actions) produce no click at all, or one per action.", [.oneInteraction, .originalOnce]) { run in
            try run.install()
            let button = try run.host.makeControl("UIButton", title: "Share", frame: Rect(x: 10, y: 500, width: 100, height: 40))
            run.app.listScreen.view.addSubview(button)
            let log = run.log
            try button.addAction(title: "share", for: .touchUpInside) { _ in log.record(.share) }
            try button.addTarget(run.app.listScreen, action: "buyTapped:", for: .touchUpInside)
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.tap(button)
            run.expectCounts(original: .share, originals: 1, interactions: 1)
            run.expect(.originalOnce, "calls of buy", expected: 1, observed: run.log.count(.buy))
            run.expect(.oneInteraction, "the clicked element", expected: "Share", observed: run.text(run.sink.interactions.first?.element?.properties["$element_content"]))
        },
        scenario("SA-V5", .sendAction, "a closure action only, tapped, then sent by code", "Closure actions lost; or code-driven sends of them recorded as user clicks.", [.oneInteraction, .originalOnce, .filters]) { run in
            try run.install()
            let button = try run.host.makeControl("UIButton", title: "Menu", frame: Rect(x: 10, y: 500, width: 100, height: 40))
            run.app.listScreen.view.addSubview(button)
            let log = run.log
            try button.addAction(title: "menu", for: .touchUpInside) { _ in log.record(.menu) }
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.tap(button)
            try run.runtime.send(button, "sendActionsForControlEvents:", [.int(ControlEvents.touchUpInside.rawValue)])
            run.expectCounts(original: .menu, originals: 2, interactions: 1)
        },
        scenario("SA-V6", .sendAction, "a slider dragged through four values in one touch", "A click at the start of the drag with the old value, or one per value change.", [.oneInteraction, .originalOnce]) { run in
            try run.install()
            let slider = try run.host.makeControl("UISlider", frame: Rect(x: 10, y: 500, width: 300, height: 30))
            slider.value = 0.5
            run.app.listScreen.view.addSubview(slider)
            try slider.addTarget(run.app.listScreen, action: "buyTapped:", for: .valueChanged)
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.slide(slider, to: 0.25, steps: 4)
            run.expectCounts(original: .buy, originals: 4, interactions: 1)
            run.expect(.oneInteraction, "the value recorded", expected: "0.25", observed: run.text(run.sink.interactions.first?.element?.properties["$element_content"]))
        },
        scenario("SA-V7", .sendAction, "a stepper tapped twice", "Steppers recorded without their value, or not at all.", [.oneInteraction, .originalOnce]) { run in
            try run.install()
            let stepper = try run.host.makeControl("UIStepper", frame: Rect(x: 10, y: 500, width: 94, height: 32))
            run.app.listScreen.view.addSubview(stepper)
            try stepper.addTarget(run.app.listScreen, action: "buyTapped:", for: .valueChanged)
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.tap(stepper)
            try run.host.driver.tap(stepper)
            run.expectCounts(original: .buy, originals: 2, interactions: 2)
            run.expect(.oneInteraction, "the values recorded", expected: ["1", "2"], observed: run.sink.interactions.map { run.text($0.element?.properties["$element_content"]) })
        },
        scenario("SA-V8", .sendAction, "a tab bar item tapped (UIKit's private tab action)", "Tab taps lost to the private-action filter, or recorded without the tab's title and index.", [.oneInteraction, .originalOnce, .filters]) { run in
            try run.install()
            try run.app.launch()
            let tabs = run.app.accountTabs!
            try run.host.driver.present(tabs, from: run.app.navigation)
            run.resetCounts()
            try run.host.driver.selectTab(1, in: tabs)
            run.expectCounts(original: .viewDidAppear("ProfileViewController"), originals: 1, interactions: 1)
            let click = run.sink.interactions.first?.element?.properties
            run.expect(.oneInteraction, "the tab recorded", expected: ["Profile", "1"],
                       observed: [run.text(click?["$element_content"]), run.text(click?["$element_position"])])
        },
        scenario("SA-R1", .sendAction, "the application-level send answers its BOOL unchanged", "A wrapper returning void (or YES) for `sendAction:to:from:forEvent:` breaks callers that check whether the action was handled.", [.originalOnce, .transparency]) { run in
            @Sendable func answers(_ run: ScenarioRun) throws -> [String] {
                try run.app.launch()
                let button = try run.host.makeControl("UIButton", title: "Go")
                run.app.listScreen.view.addSubview(button)
                let event = try run.host.make(try run.host.lookUpClass("UIEvent"))
                let handled = try run.runtime.send(run.host.application, "sendAction:to:from:forEvent:",
                                                   [.selector("buyTapped:"), .object(run.app.listScreen), .object(button), .object(event)])
                let unhandled = try run.runtime.send(run.host.application, "sendAction:to:from:forEvent:",
                                                     [.selector("noSuchAction:"), .object(nil), .object(button), .object(event)])
                return ["\(handled)", "\(unhandled)"]
            }
            let expected = try answers(try run.variant())
            try run.install()
            run.expect(.transparency, "answers of sendAction:to:from:forEvent:", expected: expected, observed: try answers(run))
        },
    ]

    static let gestures: [Scenario] = [
        scenario("GR-V1", .gesture, "a tap and a long press on one view", "A tracking target attached per view, not per recognizer: the long press is lost or doubled.", [.oneInteraction]) { run in
            try run.install()
            let view = try run.host.makeView("UIImageView", frame: Rect(x: 0, y: 500, width: 120, height: 120))
            run.app.listScreen.view.addSubview(view)
            view.addGestureRecognizer(try run.host.makeGestureRecognizer("UITapGestureRecognizer", target: run.app.listScreen, action: "bannerTapped:"))
            view.addGestureRecognizer(try run.host.makeGestureRecognizer("UILongPressGestureRecognizer", target: run.app.listScreen, action: "bannerPressed:"))
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.tap(gesturesOn: view)
            try run.host.driver.longPress(view, changes: 1)
            run.expect(.originalOnce, "calls of banner tap", expected: 1, observed: run.log.count(.bannerTap))
            run.expect(.oneInteraction, "interactions", expected: 2, observed: run.clicks)
        },
        scenario("GR-V2", .gesture, "recognizers on two views sharing one target", "A tracking target keyed by the app's target: the second view's taps recorded as the first's.", [.oneInteraction]) { run in
            try run.install()
            var views: [ViewObject] = []
            for (index, className) in ["UIImageView", "UILabel"].enumerated() {
                let view = try run.host.makeView(className, frame: Rect(x: Double(index) * 130, y: 500, width: 120, height: 120))
                run.app.listScreen.view.addSubview(view)
                view.addGestureRecognizer(try run.host.makeGestureRecognizer("UITapGestureRecognizer", target: run.app.listScreen, action: "bannerTapped:"))
                views.append(view)
            }
            try run.app.launch()
            run.resetCounts()
            for view in views { try run.host.driver.tap(gesturesOn: view) }
            run.expectCounts(original: .bannerTap, originals: 2, interactions: 2)
            run.expect(.oneInteraction, "clicked element types", expected: ["UIImageView", "UILabel"],
                       observed: run.sink.interactions.map { $0.element?.typeName ?? "none" })
        },
        scenario("GR-V3", .gesture, "one recognizer tapped three times", "Per-recognizer state that dedupes a second recognition: later taps lost.", [.oneInteraction, .originalOnce]) { run in
            try run.install()
            let view = try run.host.makeView("UIImageView", frame: Rect(x: 0, y: 500, width: 120, height: 120))
            run.app.listScreen.view.addSubview(view)
            view.addGestureRecognizer(try run.host.makeGestureRecognizer("UITapGestureRecognizer", target: run.app.listScreen, action: "bannerTapped:"))
            try run.app.launch()
            run.resetCounts()
            for _ in 0..<3 { try run.host.driver.tap(gesturesOn: view) }
            run.expectCounts(original: .bannerTap, originals: 3, interactions: 3)
        },
        scenario("GR-R1", .gesture, "initWithTarget:action: answers the recognizer it initialised", "A wrapper returning nil or its own object from an initializer: the app keeps a recognizer that is not attached.", [.transparency, .originalOnce]) { run in
            try run.install()
            let cls = try run.host.lookUpClass("UITapGestureRecognizer")
            let recognizer = try run.host.make(cls)
            let answer = try run.runtime.send(recognizer, "initWithTarget:action:", [.object(run.app.listScreen), .selector("bannerTapped:")])
            run.expectTrue(.transparency, "the initializer answers its receiver", answer.object === recognizer)
        },
    ]

    static let alerts: [Scenario] = [
        scenario("AA-V1", .alertAction, "two alerts answered in turn", "Alert context kept per hook rather than per action: the second click carries the first alert's texts.", [.oneInteraction]) { run in
            try run.install()
            try run.app.launch()
            run.resetCounts()
            let first = try run.app.makeAlert()
            try run.host.driver.present(first, from: run.app.listScreen)
            try run.host.driver.tapAlertAction(titled: "Cancel")
            let second = try run.host.makeAlert(title: "Rate us", message: "Five stars?")
            let log = run.log
            try run.runtime.call(second, "addAction:", try run.host.makeAlertAction(title: "Sure") { _ in log.record(.alertSure) })
            try run.host.driver.present(second, from: run.app.listScreen)
            try run.host.driver.tapAlertAction(titled: "Sure")
            run.expect(.originalOnce, "calls of the handlers", expected: [1, 1], observed: [log.count(.alertCancel), log.count(.alertSure)])
            run.expect(.oneInteraction, "clicked actions", expected: ["Cancel", "Sure"],
                       observed: run.sink.interactions.map { run.text($0.element?.properties["$element_content"]) })
        },
        scenario("AA-V2", .alertAction, "an alert answered, paths in the HubbleData style", "The handler runs after dismissal: a path taken then has lost its UIWindow(0)_ root and differs from the one a person picks on screen (a tutorial's hook).", [.oneInteraction]) { run in
            let hubble = try run.variant(pathStyle: .hubble)
            defer { run.adopt(hubble) }
            try hubble.install()
            try hubble.app.launch()
            let alert = try hubble.app.makeAlert()
            try hubble.host.driver.present(alert, from: hubble.app.listScreen)
            let picked = alert.view.descendants { ($0 as? AlertActionViewObject)?.action?.title == "OK" }.first
                .map { hubble.context.snapshot(of: $0).properties }
            try hubble.host.driver.tapAlertAction(titled: "OK")
            let recorded = hubble.sink.interactions.first?.element?.properties
            hubble.expect(.oneInteraction, "recorded path and id against the picked ones",
                          expected: [hubble.text(picked?["$element_path"]), hubble.text(picked?["$element_id"])],
                          observed: [hubble.text(recorded?["$element_path"]), hubble.text(recorded?["$element_id"])])
        },
        scenario("AA-R1", .alertAction, "+actionWithTitle:style:handler: answers an action with the app's title and style", "A factory wrapper that drops the title or style, or answers another object.", [.transparency, .originalOnce]) { run in
            @Sendable func made(_ run: ScenarioRun) throws -> String {
                let action = try run.host.makeAlertAction(title: "Delete", style: .destructive) { _ in }
                return "\(action.title ?? "nil") \(action.style)"
            }
            let expected = try made(try run.variant())
            try run.install()
            run.expect(.transparency, "the action made", expected: expected, observed: try made(run))
        },
    ]

    static let delegates: [Scenario] = [
        scenario("DS-V1", .delegateSelection, "a collection view's item selection", "Hooks written for tables only: collection views lose every click.", [.oneInteraction, .originalOnce]) { run in
            try run.install()
            let host = run.host
            let collection = try host.makeList("UICollectionView", content: ListContent(rowsPerSection: [6], cellClass: { _ in "MyCollectionViewCell" }) { cell, indexPath in
                let content: ViewObject = cell.contentView
                if content.subviews.isEmpty, let label = try? host.makeLabel("") { content.addSubview(label) }
                content.subviews[0].text = "Tile \(indexPath.item)"
            })
            run.app.collectionScreen.view.addSubview(collection)
            collection.setDelegate(run.app.collectionScreen)
            collection.reloadData()
            try run.app.launch()
            try run.host.driver.push(run.app.collectionScreen, on: run.app.navigation)
            run.resetCounts()
            try run.host.driver.select(IndexPath(item: 3, section: 0), in: collection)
            run.expectCounts(original: .collectionSelect(IndexPath(item: 3, section: 0)), originals: 1, interactions: 1)
            run.expect(.oneInteraction, "the position", expected: "0:3", observed: run.text(run.sink.interactions.first?.element?.properties["$element_position"]))
        },
        scenario("DS-V2", .delegateSelection, "two tables whose delegates are of different classes", "Per-class state of the first delegate class applied to the second: its clicks lost.", [.oneInteraction, .originalOnce]) { run in
            try run.install()
            let delegate = try run.runtime.allocate(try run.host.lookUpClass("MyTableDelegate"))
            let first = try PointFixture.makeTable(run, delegate: delegate)
            let second = try PointFixture.makeTable(run, delegate: run.app.listScreen)
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.select(IndexPath(row: 1, section: 0), in: first)
            try run.host.driver.select(IndexPath(row: 4, section: 0), in: second)
            run.expect(.originalOnce, "calls of the delegates", expected: [1, 1], observed: [run.log.count(.delegateSelect(IndexPath(row: 1, section: 0))), run.log.count(.listSelect(IndexPath(row: 4, section: 0)))])
            run.expect(.oneInteraction, "interactions", expected: 2, observed: run.clicks)
            withExtendedLifetime(delegate) {}
        },
        scenario("DS-V4", .delegateSelection, "a delegate subclass whose didSelect does not call super", "Hooks that record only in the superclass's method lose the subclass's selections; or record twice when both are hooked.", [.oneInteraction, .originalOnce]) { run in
            try run.install()
            let log = run.log
            let base = try run.host.lookUpClass("MyTableDelegate")
            let cls = try run.runtime.allocateClassPair(superclass: base, name: "OwnSelectionDelegate")
            run.runtime.addMethod(to: cls, ListSelectors.tableDidSelect, .procedure("-[OwnSelectionDelegate tableView:didSelectRowAtIndexPath:]") {
                (_: Message, _: RuntimeObject?, indexPath: IndexPath) in log.record(.ownSelect(row: indexPath.row))
            }, types: "v@:@@")
            try run.runtime.registerClassPair(cls)
            let delegate = try run.runtime.allocate(cls)
            let table = try PointFixture.makeTable(run, delegate: delegate)
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.select(IndexPath(row: 3, section: 0), in: table)
            run.expectCounts(original: .ownSelect(row: 3), originals: 1, interactions: 1)
            run.expect(.originalOnce, "calls of the superclass's method", expected: 0, observed: run.log.count(.delegateSelect(IndexPath(row: 3, section: 0))))
            withExtendedLifetime(delegate) {}
        },
        scenario("DS-V3", .delegateSelection, "a delegate class registered after install", "Hooks that only prepare classes present at install: delegate classes loaded later (a framework, a plugin) are never tracked.", [.oneInteraction, .originalOnce]) { run in
            try run.install()
            let log = run.log
            let cls = try run.host.defineClass("LateDelegate", superclass: "NSObject", methods: [
                (ListSelectors.tableDidSelect, "v@:@@", .procedure("-[LateDelegate tableView:didSelectRowAtIndexPath:]") {
                    (_: Message, _: RuntimeObject?, indexPath: IndexPath) in log.record(.lateSelect(row: indexPath.row))
                }),
            ])
            let delegate = try run.runtime.allocate(cls)
            let table = try PointFixture.makeTable(run, delegate: delegate)
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.select(IndexPath(row: 2, section: 0), in: table)
            run.expectCounts(original: .lateSelect(row: 2), originals: 1, interactions: 1)
            withExtendedLifetime(delegate) {}
        },
    ]

    /// A controller class defined now, whose `viewDidAppear:` logs and then calls
    /// super, or not.
    static func lateController(_ run: ScenarioRun, _ name: String, callsSuper: Bool) throws -> ViewControllerObject {
        let log = run.log
        let base = try run.host.lookUpClass("UIViewController")
        let cls = try run.runtime.allocateClassPair(superclass: base, name: name)
        run.runtime.addMethod(to: cls, "viewDidAppear:", .procedure("-[\(name) viewDidAppear:]") { (message: Message, animated: Bool) throws(RuntimeError) in
            log.record(.viewDidAppear(name))
            if callsSuper { try message.runtime.sendSuper(message.receiver, from: cls, "viewDidAppear:", [.bool(animated)]) }
        }, types: "v@:c")
        try run.runtime.registerClassPair(cls)
        return try run.host.makeController(name, title: name)
    }

    static let screenViews: [Scenario] = [
        scenario("SV-V1", .screenView, "a controller class registered after install overriding viewDidAppear:", "Overrides wrapped only for classes present at install: later screens recorded after their own code.", [.oneInteraction, .recordThenForward]) { run in
            try run.install()
            let controller = try lateController(run, "LateViewController", callsSuper: true)
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.push(controller, on: run.app.navigation)
            run.expectCounts(original: .viewDidAppear("LateViewController"), originals: 1, interactions: 1)
            let order = run.log.all.filter { $0 == .click || $0 == .viewDidAppear("LateViewController") }
            run.expect(.recordThenForward, "order", expected: [.click, .viewDidAppear("LateViewController")], observed: order)
        },
        scenario("SV-V2", .screenView, "an override of viewDidAppear: that never calls super", "Hooks on UIViewController alone lose every screen whose override forgets super.", [.oneInteraction, .originalOnce]) { run in
            try run.install()
            let controller = try lateController(run, "NoSuperViewController", callsSuper: false)
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.push(controller, on: run.app.navigation)
            run.expectCounts(original: .viewDidAppear("NoSuperViewController"), originals: 1, interactions: 1)
        },
    ]
}
