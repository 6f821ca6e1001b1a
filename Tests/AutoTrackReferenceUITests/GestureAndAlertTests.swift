import AutoTrackEvents
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import Testing

@Suite("Gesture recognizers and alerts")
struct GestureAndAlertTests {
    let app: SampleApp
    init() throws {
        app = try SampleApp()
        try app.launch()
        app.log.clear()
    }

    @Test("a tap recognizer calls every target-action once per recognition; initWithTarget: and addTarget: both register")
    func tapTargets() throws {
        let host = app.host
        let recognizer = try host.makeGestureRecognizer("UITapGestureRecognizer", target: app.listScreen, action: "bannerTapped:")
        recognizer.addTarget(app.listScreen, action: "editTapped:")
        recognizer.addTarget(app.listScreen, action: "editTapped:") // a duplicate pair is not added twice
        let view = try host.makeView("UIView")
        view.addGestureRecognizer(recognizer)
        try host.driver.tap(gesturesOn: view)
        #expect(app.log.all == [.bannerTap, .edit])
        #expect(recognizer.view === view)
    }

    @Test("a long press calls its targets at began, each changed, and ended")
    func longPressStates() throws {
        try app.host.driver.longPress(app.bannerImage, changes: 3)
        #expect(app.log.all == [.bannerPress(.began), .bannerPress(.changed), .bannerPress(.changed), .bannerPress(.changed), .bannerPress(.ended)])
    }

    @Test("a recognizer made with init (as from a storyboard) has no targets until addTarget:action:")
    func storyboardRecognizer() throws {
        let host = app.host
        let recognizer = try host.makeGestureRecognizer("UITapGestureRecognizer", target: nil, action: nil)
        #expect(recognizer.targets.isEmpty)
        let view = try host.makeView()
        view.addGestureRecognizer(recognizer)
        try host.driver.tap(gesturesOn: view)
        #expect(app.log.all.isEmpty)
        recognizer.addTarget(app.listScreen, action: "bannerTapped:")
        try host.driver.tap(gesturesOn: view)
        #expect(app.log.all == [.bannerTap])
    }

    @Test("removeTarget:action: stops a pair")
    func removeTarget() throws {
        let recognizer = app.bannerImage.gestureRecognizers.first { $0.kind == .tap }!
        recognizer.removeTarget(app.listScreen, action: "bannerTapped:")
        try app.host.driver.tap(gesturesOn: app.bannerImage)
        #expect(app.log.all.isEmpty)
    }

    @Test("+[UIAlertAction actionWithTitle:style:handler:] is a class method storing the block; a tap dismisses, then runs it once")
    func alertAction() throws {
        let host = app.host
        let factory = CallCounter("actionWithTitle:style:handler:", in: try host.lookUpClass("UIAlertAction").metaclass, runtime: host.runtime)
        let alert = try app.makeAlert()
        #expect(factory.count == 2)
        #expect(alert.alertActions.map(\.title) == ["Cancel", "OK"])
        #expect(alert.alertActions.allSatisfy { $0.handler != nil && $0.alertController === alert })
        try host.driver.present(alert, from: app.listScreen)
        #expect(host.visibleController === alert)
        #expect(app.listScreen.isVisible, "an alert does not cover its presenter")
        try host.driver.tapAlertAction(titled: "OK")
        #expect(app.log.count(.alertOK) == 1)
        #expect(app.log.count(.alertCancel) == 0)
        #expect(host.visibleController === app.listScreen, "dismissed")
        #expect(throws: RuntimeError.self) { try host.driver.tapAlertAction(titled: "OK") }
    }

    @Test("an action with a nil handler can be tapped; it dismisses and runs nothing")
    func nilHandler() throws {
        let host = app.host
        let alert = try host.makeAlert(title: "Note", message: nil)
        try host.runtime.call(alert, "addAction:", try host.makeAlertAction(title: "OK", handler: nil))
        try host.driver.present(alert, from: app.listScreen)
        try host.driver.tapAlertAction(titled: "OK")
        #expect(host.visibleController === app.listScreen)
    }

    @Test("the presented alert shows one action view per action, carrying its alert")
    func alertViews() throws {
        let host = app.host
        let alert = try app.makeAlert()
        try host.driver.present(alert, from: app.listScreen)
        let actionViews = alert.view.descendants { $0 is AlertActionViewObject }
        #expect(actionViews.count == 2)
        let context = try #require(actionViews[1].alertContext)
        #expect(context.title == "退群" && context.message == "確認退出群聊嗎？" && context.actionTitle == "OK" && context.actionStyle == "default")
    }
}
