import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import AutoTrackTesting

/// Send-action scenarios (`SA-`).
enum SendActionScenarios {
    static func button(_ run: ScenarioRun, title: String = "Buy now") throws -> ControlObject {
        let button = try run.host.makeControl("UIButton", title: title, frame: Rect(x: 10, y: 500, width: 100, height: 40))
        run.app.listScreen.view.addSubview(button)
        return button
    }

    static func scenario(_ id: String, _ title: String, _ failure: String, _ rules: [ContractRule], body: @escaping @Sendable (ScenarioRun) throws -> Void) -> Scenario {
        Scenario(id: id, point: .sendAction, title: title, failure: failure, rules: rules) { run in
            try run.install()
            try run.app.launch()
            run.resetCounts()
            try body(run)
        }
    }

    static let all: [Scenario] = [
        scenario("SA-01", "three target-action pairs for one touch", "One $AppClick per target: a button wired to three targets counts three clicks.", [.oneInteraction, .originalOnce]) { run in
            let button = try button(run)
            let targets = try (0..<3).map { _ in try run.runtime.allocate(run.app.listScreen.realClass) }
            for target in targets { try button.addTarget(target, action: "buyTapped:", for: .touchUpInside) }
            try run.host.driver.tap(button)
            run.expectCounts(original: .buy, originals: 3, interactions: 1)
            run.keepAlive(targets as AnyObject)
        },
        scenario("SA-02", "a UIButton subclass overriding sendAction:to:forEvent: and calling super", "Hooks on the subclass and on UIControl both firing: two clicks per tap.", [.oneInteraction, .originalOnce]) { run in
            let log = run.log
            let cls = try run.host.lookUpClass("UIButton")
            let sub = try run.runtime.allocateClassPair(superclass: cls, name: "FancyButton")
            run.runtime.addMethod(to: sub, "sendAction:to:forEvent:", Implementation("-[FancyButton sendAction:to:forEvent:]") { message throws(RuntimeError) in
                log.record(.override)
                return try message.runtime.sendSuper(message, from: sub)
            }, types: "v@::@@")
            try run.runtime.registerClassPair(sub)
            let fancy = try run.host.make(sub, as: ControlObject.self)
            fancy.title = "Fancy"
            run.app.listScreen.view.addSubview(fancy)
            try fancy.addTarget(run.app.listScreen, action: "buyTapped:", for: .touchUpInside)
            try run.host.driver.tap(fancy)
            run.expectCounts(original: .buy, originals: 1, interactions: 1)
            run.expect(.originalOnce, "calls of the override", expected: 1, observed: log.count(.override))
        },
        scenario("SA-03", "another tracker's hook selector", "GrowingIO's growingHookTouch_ actions reach UIControl and were counted as user clicks.", [.filters, .originalOnce]) { run in
            let log = run.log
            let cls = try run.runtime.defineClass("GrowingTarget", methods: [
                ("growingHookTouch_onClick:", "v@:@", Implementation("growing") { _ in log.record(.growing); return .void }),
            ])
            let target = try run.runtime.allocate(cls)
            let button = try button(run)
            try button.addTarget(target, action: "growingHookTouch_onClick:", for: .touchUpInside)
            try run.host.driver.tap(button)
            run.expectCounts(original: .growing, originals: 1, interactions: 0)
            run.keepAlive(target)
        },
        scenario("SA-04", "a private system action", "UIKit's underscore actions (`_searchFieldBeginEditing`) flood the data with non-clicks.", [.filters, .originalOnce]) { run in
            try run.host.driver.type("a", into: run.app.searchField)
            run.expect(.filters, "interactions other than end of editing", expected: 1, observed: run.clicks)
        },
        Scenario(id: "SA-05", point: .sendAction, title: "an ignored element type", failure: "Elements the app asked to ignore still produce events.", rules: [.filters, .originalOnce]) { outer in
            let run = try outer.variant(exclusions: TrackingExclusions(elementTypes: ["IgnoredButton"]))
            let cls = try run.runtime.defineClass("IgnoredButton", superclass: try run.host.lookUpClass("UIButton"))
            try run.install()
            try run.app.launch()
            run.resetCounts()
            let ignored = try run.host.make(cls, as: ControlObject.self)
            run.app.listScreen.view.addSubview(ignored)
            try ignored.addTarget(run.app.listScreen, action: "buyTapped:", for: .touchUpInside)
            try run.host.driver.tap(ignored)
            run.expectCounts(original: .buy, originals: 1, interactions: 0)
            outer.adopt(run)
        },
        Scenario(id: "SA-06", point: .sendAction, title: "a sender of the wrong type", failure: "A hook casting the sender to UIControl crashes on a custom responder.", rules: [.failOpen, .originalOnce]) { run in
            // A probe stands for the original implementation of each hooked method.
            for hooked in run.subject.hookedMethods { OtherLibraryHooks.replace(hooked, as: .original, runtime: run.runtime, log: run.log) }
            try run.install()
            try run.app.launch()
            run.resetCounts()
            let log = run.log
            let bare = try run.runtime.allocate(try run.host.lookUpClass("UIButton")) // no host storage behind it
            let cls = try run.runtime.defineClass("BareTarget", methods: [
                ("bareAction:", "v@:@", Implementation("bare") { _ in log.record(.bare); return .void }),
            ])
            let target = try run.runtime.allocate(cls)
            if run.subject.hookedMethods.contains(where: { $0.className == "UIApplication" }) {
                try run.runtime.send(run.host.application, "sendAction:to:from:forEvent:",
                                     [.selector("bareAction:"), .object(target), .object(bare), .object(nil)])
            } else {
                try run.runtime.call(bare, "sendAction:to:forEvent:", Selector("bareAction:"), target, RuntimeObject?.none)
            }
            run.expect(.failOpen, "calls of the original", expected: 1, observed: log.count(of: .original))
            run.expect(.oneInteraction, "interactions", expected: 0, observed: run.clicks)
            run.keepAlive(target)
        },
        scenario("SA-07", "an action that taps another control (re-entrant original)", "A re-entrancy guard that is too wide swallows the second, genuine click.", [.oneInteraction, .recordThenForward]) { run in
            let log = run.log
            let inner = try button(run, title: "Inner")
            try inner.addTarget(run.app.listScreen, action: "editTapped:", for: .touchUpInside)
            let host = run.host
            let cls = try run.runtime.defineClass("OuterTarget", methods: [
                ("outer:", "v@:@", Implementation("outer") { _ throws(RuntimeError) in
                    log.record(.outer)
                    try host.driver.tap(inner)
                    return .void
                }),
            ])
            let target = try run.runtime.allocate(cls)
            let outer = try button(run, title: "Outer")
            try outer.addTarget(target, action: "outer:", for: .touchUpInside)
            try run.host.driver.tap(outer)
            run.expect(.recordThenForward, "order", expected: [.click, .outer, .click, .edit], observed: log.all)
            run.keepAlive(target)
        },
        scenario("SA-08", "a switch: touch-down, value-changed and touch-up in one touch", "Controls firing several events per touch count several clicks.", [.oneInteraction]) { run in
            let log = run.log
            try run.app.notificationsSwitch.addTarget(run.app.settingsScreen, action: "switchChanged:", for: [.touchDown, .touchUpInside])
            try run.host.driver.tap(run.app.notificationsSwitch)
            run.expectCounts(original: .switchChanged, originals: 3, interactions: 1)
            _ = log
        },
        scenario("SA-09", "typing into plain and secure text fields", "Typed text (passwords) leaking into analytics through editing events.", [.filters, .originalOnce]) { run in
            try run.host.driver.type("abc", into: run.app.nameField)
            try run.host.driver.type("pw", into: run.app.passwordField)
            run.expect(.originalOnce, "calls of name", expected: 3, observed: run.log.count(.nameChanged))
            run.expect(.filters, "interactions", expected: 0, observed: run.clicks)
        },
        scenario("SA-10", "a nil target found along the responder chain", "Hooks reading the target argument crash or drop actions sent to the first responder.", [.originalOnce, .oneInteraction]) { run in
            let button = try button(run)
            try button.addTarget(nil, action: "editTapped:", for: .touchUpInside)
            try run.host.driver.tap(button)
            run.expectCounts(original: .edit, originals: 1, interactions: 1)
        },
        scenario("SA-11", "a programmatic sendActionsForControlEvents:", "Code-driven actions (no touch) recorded as user clicks.", [.filters, .originalOnce]) { run in
            let button = try button(run)
            try button.addTarget(run.app.listScreen, action: "buyTapped:", for: .touchUpInside)
            try run.runtime.call(button, "sendActionsForControlEvents:", ControlEvents.touchUpInside.rawValue)
            run.expectCounts(original: .buy, originals: 1, interactions: 0)
        },
        scenario("SA-12", "the click's element is the tapped control on its screen", "Clicks attributed to the wrong screen or element after navigation.", [.oneInteraction, .transparency]) { run in
            let button = try button(run, title: "Checkout")
            try button.addTarget(run.app.listScreen, action: "buyTapped:", for: .touchUpInside)
            try run.host.driver.tap(button)
            let click = run.sink.interactions.first
            run.expect(.oneInteraction, "element content", expected: "Checkout", observed: run.text(click?.element?.properties["$element_content"]))
            run.expect(.transparency, "screen", expected: "ViewController", observed: click?.screen?.typeName ?? "none")
        },
    ]
}
