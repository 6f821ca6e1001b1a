import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import AutoTrackTesting

/// Gesture (`GR-`) and alert-action (`AA-`) scenarios.
enum GestureAndAlertScenarios {
    static func scenario(
        _ id: String, _ point: InterceptionPoint, _ title: String, _ failure: String, _ rules: [ContractRule],
        body: @escaping @Sendable (ScenarioRun) throws -> Void
    ) -> Scenario {
        Scenario(id: id, point: point, title: title, failure: failure, rules: rules) { run in
            try run.install()
            try run.app.launch()
            run.resetCounts()
            try body(run)
        }
    }

    static func image(_ run: ScenarioRun) throws -> ViewObject {
        let image = try run.host.makeView("UIImageView", frame: Rect(x: 0, y: 500, width: 100, height: 100))
        run.app.listScreen.view.addSubview(image)
        return image
    }

    static let gestures: [Scenario] = [
        scenario("GR-01", .gesture, "a tap recognizer with two target-actions", "One click per target of a recognizer.", [.oneInteraction, .originalOnce]) { run in
            let view = try image(run)
            let recognizer = try run.host.makeGestureRecognizer("UITapGestureRecognizer", target: run.app.listScreen, action: "bannerTapped:")
            recognizer.addTarget(run.app.listScreen, action: "editTapped:")
            view.addGestureRecognizer(recognizer)
            try run.host.driver.tap(gesturesOn: view)
            run.expectCounts(original: .bannerTap, originals: 1, interactions: 1)
            run.expect(.originalOnce, "calls of edit", expected: 1, observed: run.log.count(.edit))
        },
        scenario("GR-02", .gesture, "a long press: began, changed three times, ended", "Long-press actions run at every state: five clicks for one press.", [.oneInteraction, .originalOnce]) { run in
            let view = try image(run)
            view.addGestureRecognizer(try run.host.makeGestureRecognizer("UILongPressGestureRecognizer", target: run.app.listScreen, action: "bannerPressed:"))
            try run.host.driver.longPress(view, changes: 3)
            run.expect(.originalOnce, "calls of the action", expected: 5, observed: run.log.count(of: .bannerPress))
            run.expect(.oneInteraction, "interactions", expected: 1, observed: run.clicks)
        },
        scenario("GR-03", .gesture, "a tap recognizer created without initWithTarget:action: (storyboard)", "Hooks at initWithTarget: miss recognizers decoded from storyboards.", [.oneInteraction]) { run in
            let view = try image(run)
            let recognizer = try run.host.makeGestureRecognizer("UITapGestureRecognizer", target: nil, action: nil)
            view.addGestureRecognizer(recognizer)
            recognizer.addTarget(run.app.listScreen, action: "bannerTapped:")
            try run.host.driver.tap(gesturesOn: view)
            run.expectCounts(original: .bannerTap, originals: 1, interactions: 1)
        },
        scenario("GR-04", .gesture, "a pan recognizer is not a click", "Hooking every UIGestureRecognizer made scrolling and pans count as clicks.", [.filters]) { run in
            let view = try image(run)
            view.addGestureRecognizer(try run.host.makeGestureRecognizer("UIPanGestureRecognizer", target: run.app.listScreen, action: "bannerTapped:"))
            try run.runtime.call(view.gestureRecognizers[0], "_setState:", GestureState.ended.rawValue)
            run.expectCounts(original: .bannerTap, originals: 1, interactions: 0)
        },
        scenario("GR-05", .gesture, "a recognizer whose only target was removed", "A tracking target left on a recognizer records taps that run no app code.", [.oneInteraction]) { run in
            let view = try image(run)
            let recognizer = try run.host.makeGestureRecognizer("UITapGestureRecognizer", target: run.app.listScreen, action: "bannerTapped:")
            view.addGestureRecognizer(recognizer)
            recognizer.removeTarget(run.app.listScreen, action: "bannerTapped:")
            try run.host.driver.tap(gesturesOn: view)
            run.expectCounts(original: .bannerTap, originals: 0, interactions: 0)
        },
        scenario("GR-06", .gesture, "the action method called directly by app code", "A tutorial exchanged the target class's action method: every direct call became a click.", [.filters, .originalOnce]) { run in
            let view = try image(run)
            view.addGestureRecognizer(try run.host.makeGestureRecognizer("UITapGestureRecognizer", target: run.app.listScreen, action: "bannerTapped:"))
            try run.runtime.call(run.app.listScreen, "bannerTapped:", view.gestureRecognizers[0])
            run.expectCounts(original: .bannerTap, originals: 1, interactions: 0)
        },
    ]

    static let alerts: [Scenario] = [
        scenario("AA-01", .alertAction, "an action with a nil handler", "Wrapping only non-nil handlers loses every \"OK\" without code.", [.oneInteraction]) { run in
            let alert = try run.host.makeAlert(title: "Saved", message: "Your changes were saved")
            try run.runtime.call(alert, "addAction:", try run.host.makeAlertAction(title: "OK", handler: nil))
            try run.host.driver.present(alert, from: run.app.listScreen)
            try run.host.driver.tapAlertAction(titled: "OK")
            run.expect(.oneInteraction, "interactions", expected: 1, observed: run.clicks)
        },
        scenario("AA-02", .alertAction, "two alerts with the same action titles", "\"OK\" in every alert shares one event id: the data cannot tell which question was answered.", [.oneInteraction, .transparency]) { run in
            for message in ["Delete the photo?", "Leave the group?"] {
                let alert = try run.host.makeAlert(title: "Confirm", message: message)
                try run.runtime.call(alert, "addAction:", try run.host.makeAlertAction(title: "OK", handler: nil))
                try run.host.driver.present(alert, from: run.app.listScreen)
                try run.host.driver.tapAlertAction(titled: "OK")
            }
            let messages = run.sink.interactions.map { $0.details.alert?.message ?? "none" }
            run.expect(.oneInteraction, "alert messages", expected: ["Delete the photo?", "Leave the group?"], observed: messages)
            let ids = Set(run.sink.interactions.map { run.text($0.element?.properties["$element_id"]) })
            run.expect(.transparency, "distinct element ids", expected: 2, observed: ids.count)
        },
        scenario("AA-03", .alertAction, "cancel in an alert with two actions", "Clicks attributed to the wrong action of an alert.", [.oneInteraction, .originalOnce]) { run in
            let alert = try run.app.makeAlert()
            try run.host.driver.present(alert, from: run.app.listScreen)
            try run.host.driver.tapAlertAction(titled: "Cancel")
            run.expectCounts(original: .alertCancel, originals: 1, interactions: 1)
            run.expect(.originalOnce, "calls of the other action", expected: 0, observed: run.log.count(.alertOK))
            run.expect(.oneInteraction, "action title", expected: "Cancel", observed: run.sink.interactions.first?.details.alert?.actionTitle ?? "none")
        },
    ]
}
