import AutoTrackEvents
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackTesting
import AutoTrackRuntime
import Testing

@Suite("Screen-view hook")
struct ScreenViewHookTests {
    func screens(_ fixture: Fixture) -> [String] { fixture.sink.interactions.map { $0.screen?.typeName ?? "?" } }

    @Test("launch records the list screen once, not the navigation container; recorded before viewDidAppear's original")
    func launch() throws {
        let fixture = try Fixture(launch: false)
        try fixture.install(ScreenViewAppearHook())
        try fixture.app.launch()
        #expect(screens(fixture) == ["ViewController"])
        #expect(fixture.app.log.all == [.viewWillAppear("ViewController"), .click, .viewDidAppear("ViewController")])
        let view = try #require(fixture.sink.interactions.first)
        #expect(view.point == .screenView)
        #expect(view.screen?.properties["$title"] == "Products")
        #expect(view.details.screenViewReason == .appear)
    }

    @Test("installed twice: one handle, and one screen view on return from the background")
    func installedTwiceForeground() throws {
        let fixture = try Fixture(launch: false)
        let first = try fixture.install(ScreenViewAppearHook())
        let second = try fixture.install(ScreenViewAppearHook())
        #expect(first === second)
        try fixture.app.launch()
        fixture.host.driver.background()
        fixture.host.driver.foreground()
        #expect(screens(fixture) == ["ViewController", "ViewController"])
        #expect(fixture.sink.interactions.last?.details.screenViewReason == .foreground)
    }

    @Test("push, pop and a tab of pages: one screen view per appearance")
    func navigation() throws {
        let fixture = try Fixture(launch: false)
        try fixture.install(ScreenViewAppearHook())
        try fixture.app.launch()
        try fixture.host.driver.push(fixture.app.settingsScreen, on: fixture.app.navigation)
        try fixture.host.driver.pop(fixture.app.navigation)
        try fixture.host.driver.push(fixture.app.pagesScreen, on: fixture.app.navigation)
        try fixture.host.driver.swipe(toPage: 2, in: fixture.app.pagesScreen)
        #expect(screens(fixture) == ["ViewController", "SettingsViewController", "ViewController", "PageChildViewController", "PageChildViewController"])
        #expect(fixture.sink.interactions.suffix(2).map { $0.screen?.properties["$title"] } == ["Page 0", "Page 2"])
    }

    @Test("a cancelled swipe back records no duplicate")
    func cancelledSwipe() throws {
        let fixture = try Fixture(launch: false)
        try fixture.install(ScreenViewAppearHook())
        try fixture.app.launch()
        try fixture.host.driver.push(fixture.app.settingsScreen, on: fixture.app.navigation)
        let before = fixture.sink.count
        try fixture.host.driver.cancelledSwipeBack(fixture.app.navigation)
        #expect(fixture.sink.count == before)
        #expect(fixture.app.log.count(.viewDidAppear("SettingsViewController")) == 2, "the original still ran")
    }

    @Test("returning from the background records the visible screen again")
    func foreground() throws {
        let fixture = try Fixture(launch: false)
        try fixture.install(ScreenViewAppearHook())
        try fixture.app.launch()
        fixture.host.driver.background()
        fixture.host.driver.foreground()
        #expect(screens(fixture) == ["ViewController", "ViewController"])
        #expect(fixture.sink.interactions.last?.details.screenViewReason == .foreground)
    }

    @Test("a child contained in an ordinary screen is not a screen of its own")
    func containedChild() throws {
        let fixture = try Fixture(launch: false)
        try fixture.install(ScreenViewAppearHook())
        let parent = try fixture.host.makeController("SettingsViewController")
        let child = try fixture.host.makeController("CollectionViewController")
        try fixture.runtime.call(parent, "addChildViewController:", child)
        parent.view.addSubview(child.view)
        try fixture.host.transitions.setRoot(parent)
        #expect(screens(fixture) == ["SettingsViewController"])
        #expect(fixture.app.log.count(.viewDidAppear("CollectionViewController")) == 1)
    }

    @Test("ignored screens and their subclasses record nothing")
    func ignored() throws {
        let app = try SampleApp()
        let sink = recordingSink()
        let context = InteractionContext(sink: sink, exclusions: TrackingExclusions(screenTypes: TrackingExclusions.systemScreenTypes.union(["ViewController"])))
        _ = try ScreenViewAppearHook().install(on: app.host, context: context)
        try app.launch()
        try app.host.driver.push(app.settingsScreen, on: app.navigation)
        #expect(sink.interactions.map { $0.screen?.typeName } == ["SettingsViewController"])
    }

    @Test("rule 6: uninstalled: appearances run their originals and record nothing, foreground included")
    func uninstall() throws {
        let fixture = try Fixture(launch: false)
        let handle = try fixture.install(ScreenViewAppearHook())
        try handle.uninstall()
        try fixture.app.launch()
        fixture.host.driver.background()
        fixture.host.driver.foreground()
        #expect(fixture.sink.count == 0)
        #expect(fixture.app.log.count(.viewDidAppear("ViewController")) == 1)
    }
}
