import AutoTrackEvents
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackTesting
import AutoTrackRuntime
import Testing

@Suite("Gesture and alert-action hooks on the reference host")
struct GestureAndAlertHookTests {
    static let gestureStrategies: [any InterceptionHook<ReferenceHost>] = [GestureTargetHook(), AddGestureRecognizerHook()]

    /// An image view with a tap recognizer made after the hook is installed.
    func tappableImage(_ fixture: Fixture, kind: String = "UITapGestureRecognizer", action: Selector = "bannerTapped:") throws -> ViewObject {
        let image = try fixture.host.makeView("UIImageView", frame: Rect(x: 0, y: 300, width: 100, height: 100))
        image.imageName = "promo"
        fixture.app.listScreen.view.addSubview(image)
        image.addGestureRecognizer(try fixture.host.makeGestureRecognizer(kind, target: fixture.app.listScreen, action: action))
        return image
    }

    @Test("rules 1-3: a tap is one click, recorded before the app's action runs once", arguments: gestureStrategies)
    func tap(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let image = try tappableImage(fixture)
        try fixture.host.driver.tap(gesturesOn: image)
        #expect(fixture.app.log.all == [.click, .bannerTap])
        let click = try #require(fixture.sink.interactions.first)
        #expect(click.point == .gesture)
        #expect(click.details.gestureKind == .tap)
        #expect(click.details.actionName == "bannerTapped:")
        #expect(click.element?.typeName == "UIImageView")
        #expect(click.screen?.typeName == "ViewController")
    }

    @Test("a tap into a text view is typing, not a click: filtered, its action still runs, its text never read", arguments: gestureStrategies)
    func textViewTap(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let notes = try fixture.host.makeView("UITextView", frame: Rect(x: 0, y: 300, width: 300, height: 100))
        notes.text = "my private note"
        fixture.app.listScreen.view.addSubview(notes)
        notes.addGestureRecognizer(try fixture.host.makeGestureRecognizer("UITapGestureRecognizer", target: fixture.app.listScreen, action: "bannerTapped:"))
        try fixture.host.driver.tap(gesturesOn: notes)
        #expect(fixture.app.log.all == [.bannerTap])
        #expect(fixture.sink.count == 0)
        #expect(fixture.context.diagnostics.filtered == 1)
        #expect(ElementContentExtractor().content(of: fixture.app.listScreen.view)?.contains("private") == false)
    }

    @Test("rule 2: a long press is one click (at began), not one per state", arguments: gestureStrategies)
    func longPress(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let image = try tappableImage(fixture, kind: "UILongPressGestureRecognizer", action: "bannerPressed:")
        try fixture.host.driver.longPress(image, changes: 3)
        #expect(fixture.sink.count == 1)
        #expect(fixture.app.log.all == [.click, .bannerPress(.began), .bannerPress(.changed), .bannerPress(.changed), .bannerPress(.changed), .bannerPress(.ended)])
    }

    @Test("rule 2: N targets on one recognizer are one click per recognition", arguments: gestureStrategies)
    func manyTargets(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let image = try tappableImage(fixture)
        image.gestureRecognizers[0].addTarget(fixture.app.listScreen, action: "editTapped:")
        try fixture.host.driver.tap(gesturesOn: image)
        try fixture.host.driver.tap(gesturesOn: image)
        #expect(fixture.sink.count == 2)
        #expect(fixture.app.log.all == [.click, .bannerTap, .edit, .click, .bannerTap, .edit])
    }

    @Test("a recognizer created without initWithTarget: (storyboard) is tracked once targets are added", arguments: gestureStrategies)
    func storyboardRecognizer(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let recognizer = try fixture.host.makeGestureRecognizer("UITapGestureRecognizer", target: nil, action: nil)
        let view = try fixture.host.makeView()
        fixture.app.listScreen.view.addSubview(view)
        view.addGestureRecognizer(recognizer)
        recognizer.addTarget(fixture.app.listScreen, action: "bannerTapped:")
        try fixture.host.driver.tap(gesturesOn: view)
        #expect(fixture.app.log.all == [.click, .bannerTap])
    }

    @Test("rule 2: both gesture strategies stacked are one click; pan recognizers are left alone")
    func stackedAndPan() throws {
        let fixture = try Fixture()
        try fixture.install(GestureTargetHook())
        try fixture.install(AddGestureRecognizerHook())
        try fixture.host.driver.tap(gesturesOn: try tappableImage(fixture))
        #expect(fixture.sink.count == 1)
        let pan = try fixture.host.makeGestureRecognizer("UIPanGestureRecognizer", target: fixture.app.listScreen, action: "bannerTapped:")
        #expect(pan.targets.count == 1, "no tracking target on pans")
    }

    @Test("rule 6: after uninstalling, recognitions run the originals once and record nothing", arguments: gestureStrategies)
    func uninstall(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        let handle = try fixture.install(hook)
        let before = try tappableImage(fixture)
        try handle.uninstall()
        let after = try tappableImage(fixture)
        try fixture.host.driver.tap(gesturesOn: before)
        try fixture.host.driver.tap(gesturesOn: after)
        #expect(fixture.app.log.all == [.bannerTap, .bannerTap])
        #expect(fixture.sink.count == 0)
    }

    // MARK: Alerts

    @Test("an alert action's recorded path and id are the ones on screen, in both path styles", arguments: [ViewPathStyle.slash, .hubble])
    func alertPathAsOnScreen(style: ViewPathStyle) throws {
        let fixture = try Fixture()
        let context = InteractionContext(sink: fixture.sink, pathStyle: style)
        _ = try AlertActionBlockHook().install(on: fixture.host, context: context)
        let alert = try fixture.app.makeAlert()
        try fixture.host.driver.present(alert, from: fixture.app.listScreen)
        let views = alert.view.descendants { ($0 as? AlertActionViewObject)?.action?.title == "OK" }
        let view = try #require(views.first)
        let picked = context.snapshot(of: view).properties
        try fixture.host.driver.tapAlertAction(titled: "OK")
        let click = try #require(fixture.sink.interactions.first)
        #expect(click.element?.properties["$element_path"] == picked["$element_path"])
        #expect(click.element?.properties["$element_id"] == picked["$element_id"])
        if style == .hubble, case .string(let path)? = picked["$element_path"] { #expect(path.hasPrefix("UIWindow(0)_")) }
    }

    @Test("rules 1-3: an alert action is one click carrying the alert, recorded before its handler runs once")
    func alertAction() throws {
        let fixture = try Fixture()
        try fixture.install(AlertActionBlockHook())
        let alert = try fixture.app.makeAlert()
        try fixture.host.driver.present(alert, from: fixture.app.listScreen)
        try fixture.host.driver.tapAlertAction(titled: "OK")
        #expect(fixture.app.log.all == [.click, .alertOK])
        let click = try #require(fixture.sink.interactions.first)
        #expect(click.point == .alertAction)
        #expect(click.details.alert == AlertContext(
            controllerType: "UIAlertController", title: "退群", message: "確認退出群聊嗎？", actionTitle: "OK", actionStyle: "default"))
        #expect(click.element?.properties["$element_content"] == "OK")
        #expect(click.element?.properties["$alert_title"] == "退群")
        #expect(click.screen?.typeName == "ViewController")
        let path = try #require(click.element?.properties["$element_path"])
        #expect(path.description.contains("_UIAlertControllerActionView"))
    }

    @Test("a nil handler still yields one click")
    func nilHandler() throws {
        let fixture = try Fixture()
        try fixture.install(AlertActionBlockHook())
        let alert = try fixture.host.makeAlert(title: "Note", message: "Saved")
        try fixture.runtime.call(alert, "addAction:", try fixture.host.makeAlertAction(title: "OK", handler: nil))
        try fixture.host.driver.present(alert, from: fixture.app.listScreen)
        try fixture.host.driver.tapAlertAction(titled: "OK")
        #expect(fixture.sink.count == 1)
        #expect(fixture.sink.interactions[0].details.alert?.message == "Saved")
    }

    @Test("two alerts with the same action titles are told apart by their message and title")
    func sameTitles() throws {
        let fixture = try Fixture()
        try fixture.install(AlertActionBlockHook())
        for message in ["first", "second"] {
            let alert = try fixture.host.makeAlert(title: "Confirm", message: message)
            try fixture.runtime.call(alert, "addAction:", try fixture.host.makeAlertAction(title: "OK", handler: nil))
            try fixture.host.driver.present(alert, from: fixture.app.listScreen)
            try fixture.host.driver.tapAlertAction(titled: "OK")
        }
        #expect(fixture.sink.interactions.map { $0.details.alert?.message } == ["first", "second"])
        let ids = fixture.sink.interactions.compactMap { $0.element?.properties["$element_id"] }
        #expect(ids.count == 2 && ids[0] != ids[1], "the alert is part of the element identity")
    }

    @Test("rule 6: after uninstalling, new actions run their handler once and record nothing; installing twice is once")
    func alertUninstall() throws {
        let fixture = try Fixture()
        let first = try fixture.install(AlertActionBlockHook())
        #expect(try fixture.install(AlertActionBlockHook()) === first)
        try first.uninstall()
        let alert = try fixture.app.makeAlert()
        try fixture.host.driver.present(alert, from: fixture.app.listScreen)
        try fixture.host.driver.tapAlertAction(titled: "Cancel")
        #expect(fixture.app.log.all == [.alertCancel])
        #expect(fixture.sink.count == 0)
    }
}
