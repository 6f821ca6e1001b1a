import AutoTrackEvents
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackTesting
import AutoTrackRuntime
import Testing

@Suite("Send-action hooks on the reference host")
struct SendActionHookTests {
    static let strategies: [any InterceptionHook<ReferenceHost>] = [ControlSendActionHook(), ApplicationSendActionHook()]

    @Test("rules 1-3: one tap, the original once, one click recorded before it", arguments: strategies)
    func oneCall(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let button = try fixture.makeBuyButton()
        try fixture.host.driver.tap(button)
        #expect(fixture.app.log.all == [.click, .buy])
        let click = try #require(fixture.sink.interactions.first)
        #expect(click.point == .sendAction)
        #expect(click.details.actionName == "buyTapped:")
        #expect(click.element?.properties["$element_content"] == "Buy now")
        #expect(click.element?.properties["$element_title"] == "Buy now")
        #expect(click.screen?.typeName == "ViewController")
    }

    @Test("an app-assigned element id and properties reach the click", arguments: strategies)
    func customElementIDAndProperties(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let button = try fixture.makeBuyButton()
        button.customElementID = "buy-primary"
        button.customProperties = ["campaign": "winter", "$element_content": "Buy (custom)", "$screen_name": "Fake"]
        try fixture.host.driver.tap(button)
        let click = try #require(fixture.sink.interactions.first)
        #expect(click.element?.properties["$element_id"] == "buy-primary")
        #expect(click.element?.properties["campaign"] == "winter")
        #expect(click.element?.properties["$element_content"] != "Buy (custom)", "the SDK's $ properties keep the collected value")
        #expect(click.element?.properties["$screen_name"] == nil, "a custom property never stands in for the screen's")
    }

    @Test("an element the app marked ignored is counted as filtered, and its original still runs", arguments: strategies)
    func ignoredElement(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let button = try fixture.makeBuyButton()
        button.isIgnoredByAutoTrack = true
        try fixture.host.driver.tap(button)
        #expect(fixture.app.log.all == [.buy])
        #expect(fixture.sink.count == 0)
        #expect(fixture.context.diagnostics.filtered == 1)
        button.isIgnoredByAutoTrack = false
        try fixture.host.driver.tap(button)
        #expect(fixture.sink.count == 1)
    }

    @Test("a slider drag is one click, recorded when the finger lifts, with the value it ends at", arguments: strategies)
    func sliderDrag(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let slider = fixture.app.volumeSlider!
        try slider.addTarget(fixture.app.settingsScreen, action: "volumeChanged:", for: .touchUpInside)
        try fixture.host.driver.slide(slider, to: 0.8, steps: 4)
        #expect(fixture.app.log.count(.volumeChanged) == 5, "four value changes and the touch-up, every one delivered")
        #expect(fixture.sink.count == 1)
        let click = try #require(fixture.sink.interactions.first)
        #expect(click.element?.properties["$element_content"] == "0.8")
        #expect(click.element?.properties["$element_type"] == "UISlider")
        #expect(fixture.app.log.all.firstIndex(of: .click) == 3, "recorded at the last value change, before its original")
        #expect(fixture.context.diagnostics.filtered == 0, "the drag's middle is neither filtered nor a duplicate")
    }

    @Test("a stepper tap is one click with the stepped value", arguments: strategies)
    func stepperTap(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let stepper = fixture.app.quantityStepper!
        try fixture.host.driver.tap(stepper)
        try fixture.host.driver.tap(stepper)
        #expect(fixture.app.log.count(.quantityChanged) == 2)
        #expect(fixture.sink.interactions.map { $0.element?.properties["$element_content"] } == ["2", "3"])
    }

    @Test("a tab bar item tap is one click with the tab's title and index, on the screen being left", arguments: strategies)
    func tabBarItem(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let tabs = fixture.app.accountTabs!
        try fixture.host.driver.present(tabs, from: fixture.app.navigation)
        try fixture.host.driver.selectTab(1, in: tabs)
        #expect(tabs.selectedIndex == 1)
        #expect(fixture.sink.count == 1, "UIKit's private tab action does not hide the user's tap")
        let click = try #require(fixture.sink.interactions.first)
        #expect(click.element?.properties["$element_content"] == "Profile")
        #expect(click.element?.properties["$element_position"] == "1")
        #expect(click.element?.properties["$element_type"] == "UITabBarItem")
        #expect(click.element?.properties["$element_class_name"] == "UITabBarButton")
        #expect(click.screen?.typeName == "OrdersViewController")
    }

    @Test("rule 2: three targets for one touch are one click and three originals", arguments: strategies)
    func threeTargets(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let button = try fixture.host.makeControl("UIButton", title: "Go")
        fixture.app.listScreen.view.addSubview(button)
        // Targets are held weakly by controls: keep them alive.
        let targets = try (0..<3).map { _ in try fixture.runtime.allocate(fixture.app.listScreen.realClass) }
        for target in targets { try button.addTarget(target, action: "buyTapped:", for: .touchUpInside) }
        try fixture.host.driver.tap(button)
        #expect(fixture.app.log.count(.buy) == 3)
        #expect(fixture.sink.count == 1)
        withExtendedLifetime(targets) {}
    }

    @Test("rule 2: a switch's touch-down, value-changed and touch-up are one click, recorded at the first")
    func switchIsOneClick() throws {
        let fixture = try Fixture()
        try fixture.install(ControlSendActionHook())
        try fixture.app.notificationsSwitch.addTarget(fixture.app.settingsScreen, action: "switchChanged:", for: [.touchDown, .touchUpInside])
        try fixture.host.driver.tap(fixture.app.notificationsSwitch)
        #expect(fixture.app.log.count(.switchChanged) == 3, "the merged pair is sent once per event, as UIKit does")
        #expect(fixture.sink.count == 1)
        // Recorded at touch-down, before any original ran and before the switch flipped.
        #expect(fixture.sink.interactions[0].element?.properties["$element_content"] == "unchecked")
        #expect(fixture.sink.interactions[0].element?.properties["$element_switch_state"] == false)
    }

    @Test("rule 2: with only a value-changed target, the click shows the switch's new state")
    func switchValueChanged() throws {
        let fixture = try Fixture()
        try fixture.install(ControlSendActionHook())
        try fixture.host.driver.tap(fixture.app.notificationsSwitch)
        #expect(fixture.app.log.all == [.click, .switchChanged])
        #expect(fixture.sink.interactions[0].element?.properties["$element_content"] == "checked")
    }

    @Test("rule 2: two stacked hooks of ours are one click")
    func stacked() throws {
        let fixture = try Fixture()
        try fixture.install(ControlSendActionHook())
        try fixture.install(ApplicationSendActionHook())
        let button = try fixture.makeBuyButton()
        let second = try fixture.runtime.allocate(fixture.app.listScreen.realClass)
        try button.addTarget(second, action: "buyTapped:", for: .touchUpInside)
        try fixture.host.driver.tap(button)
        #expect(fixture.app.log.all == [.click, .buy, .buy])
        #expect(fixture.sink.count == 1)
        #expect(fixture.context.diagnostics.deduplicated == 3, "2 pairs × 2 hooks: 1 records, 3 are duplicates")
        withExtendedLifetime(second) {}
    }

    @Test("rule 6: installing twice takes effect once and returns the same handle", arguments: strategies)
    func installTwice(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        let first = try fixture.install(hook)
        let second = try fixture.install(hook)
        #expect(first === second)
        try fixture.host.driver.tap(try fixture.makeBuyButton())
        #expect(fixture.sink.count == 1)
        #expect(fixture.app.log.count(.buy) == 1)
    }

    @Test("rule 6: uninstalling in either order restores the original implementations", arguments: [false, true])
    func uninstallOrders(controlFirst: Bool) throws {
        let fixture = try Fixture()
        let controlMethod = try #require(fixture.runtime.method("sendAction:to:forEvent:", in: try fixture.host.lookUpClass("UIControl")))
        let originalName = controlMethod.implementation.name
        let control = try fixture.install(ControlSendActionHook())
        let application = try fixture.install(ApplicationSendActionHook())
        for handle in controlFirst ? [control, application] : [application, control] { try handle.uninstall() }
        #expect(control.state == .uninstalled && application.state == .uninstalled)
        #expect(controlMethod.implementation.name == originalName)
        try fixture.host.driver.tap(try fixture.makeBuyButton())
        #expect(fixture.app.log.all == [.buy])
        // Reinstall works again.
        try fixture.install(ControlSendActionHook())
        try fixture.host.driver.tap(try fixture.makeBuyButton())
        #expect(fixture.sink.count == 1)
    }

    @Test("rule 6: another library's exchange hook installed before ours: both fire once, the original once")
    func foreignBefore() throws {
        let fixture = try Fixture()
        let cls = try fixture.host.lookUpClass("UIControl")
        installForeignExchangeHook(on: cls, selector: "sendAction:to:forEvent:", prefix: "other", runtime: fixture.runtime, log: fixture.app.log, entry: .other)
        let handle = try fixture.install(ControlSendActionHook())
        try fixture.host.driver.tap(try fixture.makeBuyButton())
        #expect(fixture.app.log.all == [.click, .other, .buy])
        try handle.uninstall()
        #expect(handle.state == .uninstalled)
        try fixture.host.driver.tap(try fixture.makeBuyButton())
        #expect(Array(fixture.app.log.all.dropFirst(3)) == [.other, .buy])
    }

    @Test("rule 6: another library's exchange hook installed after ours: both fire once; uninstalling ours leaves a pass-through")
    func foreignAfter() throws {
        let fixture = try Fixture()
        let cls = try fixture.host.lookUpClass("UIControl")
        let handle = try fixture.install(ControlSendActionHook())
        installForeignExchangeHook(on: cls, selector: "sendAction:to:forEvent:", prefix: "other", runtime: fixture.runtime, log: fixture.app.log, entry: .other)
        try fixture.host.driver.tap(try fixture.makeBuyButton())
        #expect(fixture.app.log.all == [.other, .click, .buy])
        try handle.uninstall()
        #expect(handle.state == .passThrough)
        fixture.app.log.clear()
        try fixture.host.driver.tap(try fixture.makeBuyButton())
        #expect(fixture.app.log.all == [.other, .buy], "theirs still works, ours records nothing")
        removeForeignExchangeHook(on: cls, selector: "sendAction:to:forEvent:", prefix: "other", runtime: fixture.runtime)
        try fixture.install(ControlSendActionHook()) // re-enables the pass-through
        try fixture.host.driver.tap(try fixture.makeBuyButton())
        #expect(fixture.sink.count == 2)
    }

    @Test("rule 7: filtered actions — another tracker's selector, private actions, text typing — run the original once and record nothing")
    func filtered() throws {
        let fixture = try Fixture()
        try fixture.install(ControlSendActionHook())
        let log = fixture.app.log
        let cls = try fixture.runtime.defineClass("OtherTracker", methods: [
            ("growingHookTouch_buy:", "v@:@", Implementation("other tracker") { _ in
                log.record(.growing)
                return .void
            }),
        ])
        let button = try fixture.host.makeControl("UIButton", title: "X")
        let otherTracker = try fixture.runtime.allocate(cls)
        try button.addTarget(otherTracker, action: "growingHookTouch_buy:", for: .touchUpInside)
        try fixture.host.driver.tap(button)
        try fixture.host.driver.type("ab", into: fixture.app.nameField)
        try fixture.host.driver.type("pw", into: fixture.app.passwordField)
        #expect(log.all == [.growing, .nameChanged, .nameChanged, .passwordChanged, .passwordChanged])
        #expect(fixture.sink.count == 0)
        #expect(fixture.context.diagnostics.filtered >= 3)
        withExtendedLifetime(otherTracker) {}
    }

    @Test("rule 7: a search field records only at end of editing, with its text")
    func searchEndEditing() throws {
        let fixture = try Fixture()
        try fixture.install(ControlSendActionHook())
        try fixture.host.driver.type("shoes", into: fixture.app.searchField)
        #expect(fixture.sink.count == 1)
        #expect(fixture.sink.interactions[0].details.actionName == "_searchFieldEndEditing")
        #expect(fixture.sink.interactions[0].element?.properties["$search_text"] == "shoes")
    }

    @Test("rule 4: a sink that throws: the original runs once, nothing crashes, the failure is counted")
    func throwingSink() throws {
        let failing = InMemoryInteractionSink(failingWith: InMemoryInteractionSink.Failure())
        let fixture = try Fixture(sink: failing)
        try fixture.install(ControlSendActionHook())
        try fixture.host.driver.tap(try fixture.makeBuyButton())
        #expect(fixture.app.log.all == [.buy])
        #expect(fixture.context.diagnostics.sinkFailures == 1)
    }

    @Test("rule 4: a receiver of the wrong type: the original runs once, the bookkeeping failure is counted")
    func wrongReceiver() throws {
        let fixture = try Fixture()
        try fixture.install(ControlSendActionHook())
        let bare = try fixture.runtime.allocate(try fixture.host.lookUpClass("UIButton")) // not host storage
        // A touch (a programmatic send, with no event, is never captured at all).
        let touch = try fixture.host.make(try fixture.host.lookUpClass("UIEvent"))
        try fixture.runtime.call(bare, "sendAction:to:forEvent:", Selector("buyTapped:"), fixture.app.listScreen, touch)
        #expect(fixture.sink.count == 0)
        #expect(fixture.context.diagnostics.bookkeepingFailures == 1)
    }

    @Test("rule 1: tracking disabled at run time: the original once, no click")
    func disabled() throws {
        let fixture = try Fixture()
        try fixture.install(ControlSendActionHook())
        fixture.context.isEnabled = false
        try fixture.host.driver.tap(try fixture.makeBuyButton())
        #expect(fixture.app.log.all == [.buy])
        #expect(fixture.context.diagnostics.disabledSkips == 1)
        fixture.context.isEnabled = true
        try fixture.host.driver.tap(try fixture.makeBuyButton())
        #expect(fixture.sink.count == 1)
    }

    @Test("rule 1: a programmatic send (no event) is not a touch: the original once, no click")
    func programmatic() throws {
        let fixture = try Fixture()
        try fixture.install(ControlSendActionHook())
        try fixture.runtime.call(try fixture.makeBuyButton(), "sendActionsForControlEvents:", ControlEvents.touchUpInside.rawValue)
        #expect(fixture.app.log.all == [.buy])
        #expect(fixture.sink.count == 0)
    }
}
