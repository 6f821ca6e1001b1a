import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import AutoTrackTesting

/// Scenarios at the application-level points: touches at `sendEvent:` (`TE-`), links
/// at the app delegate (`OU-`), notification responses at the notification center's
/// delegate (`NR-`).
enum ApplicationScenarios {
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

    static let openURLSelector: Selector = "application:openURL:options:"
    static let responseSelector: Selector = "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:"

    /// A delegate class of the scenario's own, made once per runtime: `methods` for
    /// `selector` (none: it does not implement it), under `superclass`.
    static func delegateClass(
        _ run: ScenarioRun, _ name: String, superclass: String = "UIResponder", methods: [(Selector, String, Implementation)]
    ) throws -> RuntimeObject {
        let cls = try run.runtime.lookUpClass(name)
            ?? run.runtime.defineClass(name, superclass: try run.host.lookUpClass(superclass), methods: methods)
        let delegate = try run.runtime.allocate(cls)
        run.keepAlive(delegate)
        return delegate
    }

    static let touches: [Scenario] = [
        scenario("TE-01", .touchEnd, "a finger on a button: its action runs once, one touch", "Hooks recording each phase of a touch: a tap is three.", [.oneInteraction, .originalOnce]) { run in
            let button = try run.host.makeControl("UIButton", title: "Buy now", frame: Rect(x: 10, y: 500, width: 100, height: 40))
            run.app.listScreen.view.addSubview(button)
            try button.addTarget(run.app.listScreen, action: "buyTapped:", for: .touchUpInside)
            try run.host.driver.touch(button)
            run.expectCounts(original: .buy, originals: 1, interactions: 1)
            run.expect(.oneInteraction, "the touched element", expected: "UIButton", observed: run.sink.interactions.first?.element?.typeName ?? "none")
        },
        scenario("TE-02", .touchEnd, "a touch on a view that does nothing is still one touch", "Hooks that note only touches something answers never see a dead tap.", [.oneInteraction]) { run in
            let label = try run.host.makeLabel("Free shipping")
            run.app.listScreen.view.addSubview(label)
            try run.host.driver.touch(label)
            run.expect(.oneInteraction, "touches", expected: 1, observed: run.clicks)
            run.expect(.oneInteraction, "the touched element's content", expected: "Free shipping",
                       observed: run.text(run.sink.interactions.first?.element?.properties["$element_content"]))
        },
        scenario("TE-03", .touchEnd, "an event with no touch goes straight on", "Hooks reading a touch that is not there crash on motion and remote-control events.", [.failOpen, .oneInteraction]) { run in
            let event = try run.host.make(try run.host.lookUpClass("UIEvent"))
            try run.runtime.send(run.host.application, "sendEvent:", MessageArguments(.object(event)))
            run.expect(.oneInteraction, "touches", expected: 0, observed: run.clicks)
        },
    ]

    static let links: [Scenario] = [
        scenario("OU-01", .openURL, "the delegate's answer comes back unchanged", "Hooks answering YES for the app open links the app refused.", [.transparency, .oneInteraction]) { run in
            let log = run.log
            let refusing = try delegateClass(run, "RefusingAppDelegate", methods: [
                (openURLSelector, "c@:@@@", Implementation("-[RefusingAppDelegate application:openURL:options:]") { _ in
                    log.record(.openLink("refused"))
                    return .bool(false)
                }),
            ])
            try run.runtime.send(run.host.application, "setDelegate:", MessageArguments(.object(refusing)))
            let answer = try run.host.driver.open(link: PointFixture.link)
            run.expect(.transparency, "the app's answer", expected: false, observed: answer)
            run.expectCounts(original: .openLink("refused"), originals: 1, interactions: 1)
        },
        scenario("OU-02", .openURL, "a delegate without the method gets none", "SDKs adding application:openURL:options: to a delegate make UIKit believe the app opens links.", [.transparency, .oneInteraction]) { run in
            let plain = try delegateClass(run, "PlainAppDelegate", methods: [])
            try run.runtime.send(run.host.application, "setDelegate:", MessageArguments(.object(plain)))
            run.expect(.transparency, "respondsToSelector: application:openURL:options:", expected: false,
                       observed: try run.runtime.responds(plain, to: openURLSelector))
            run.expect(.transparency, "opened", expected: false, observed: try run.host.driver.open(link: PointFixture.link))
            run.expect(.oneInteraction, "interactions", expected: 0, observed: run.clicks)
        },
        scenario("OU-03", .openURL, "a delegate subclass that overrides the method and calls super records once", "Both levels wrapped: a link is two deep-link events.", [.oneInteraction, .originalOnce]) { run in
            let log = run.log
            let cls: RuntimeClass
            if let existing = run.runtime.lookUpClass("SubAppDelegate") {
                cls = existing
            } else {
                cls = try run.runtime.allocateClassPair(superclass: try run.host.lookUpClass("AppDelegate"), name: "SubAppDelegate")
                run.runtime.addMethod(to: cls, openURLSelector, Implementation("-[SubAppDelegate application:openURL:options:]") { message throws(RuntimeError) in
                    log.record(.subclassOpen)
                    return try message.runtime.sendSuper(message.receiver, from: cls, openURLSelector, message.arguments)
                }, types: "c@:@@@")
                try run.runtime.registerClassPair(cls)
            }
            let sub = try run.runtime.allocate(cls)
            run.keepAlive(sub)
            try run.runtime.send(run.host.application, "setDelegate:", MessageArguments(.object(sub)))
            try run.host.driver.open(link: PointFixture.link)
            run.expect(.originalOnce, "calls of the subclass's override", expected: 1, observed: log.count(.subclassOpen))
            run.expectCounts(original: .openLink(PointFixture.link), originals: 1, interactions: 1)
        },
        scenario("OU-04", .openURL, "the link recorded is the one the app was given", "Hooks reading a cached or stale URL record the previous link.", [.oneInteraction]) { run in
            try run.host.driver.open(link: "shop://a")
            try run.host.driver.open(link: "shop://b?utm_campaign=spring")
            run.expect(.oneInteraction, "links recorded", expected: ["shop://a", "shop://b?utm_campaign=spring"],
                       observed: run.sink.interactions.map { $0.details.openedURL ?? "none" })
        },
    ]

    static let notifications: [Scenario] = [
        scenario("NR-01", .notificationResponse, "the completion handler runs exactly once: the app's call", "Hooks calling the handler themselves as well as the app: UIKit raises on the second call.", [.originalOnce, .transparency]) { run in
            let completions = try run.host.driver.openNotification(title: "Sale", body: "50% off today")
            run.expect(.originalOnce, "completion handler calls", expected: 1, observed: completions ?? 0)
            run.expectCounts(original: .openNotification("Sale"), originals: 1, interactions: 1)
        },
        scenario("NR-02", .notificationResponse, "a delegate set after the install is hooked too", "Hooks that wrap only the delegate present at start miss an app that sets it later.", [.oneInteraction, .lifecycle]) { run in
            let log = run.log
            let late = try delegateClass(run, "LateNotificationDelegate", superclass: "NSObject", methods: [
                (responseSelector, "v@:@@@?", Implementation("-[LateNotificationDelegate …]") { message throws(RuntimeError) in
                    log.record(.openNotification("late"))
                    if case .block(let completion?) = message.arguments[2] { _ = try completion.invoke([]) }
                    return .void
                }),
            ])
            try run.runtime.send(run.host.notificationCenter, "setDelegate:", MessageArguments(.object(late)))
            let completions = try run.host.driver.openNotification(title: "Back in stock", body: nil)
            run.expect(.originalOnce, "completion handler calls", expected: 1, observed: completions ?? 0)
            run.expectCounts(original: .openNotification("late"), originals: 1, interactions: 1)
            run.expect(.oneInteraction, "the title recorded", expected: "Back in stock",
                       observed: run.sink.interactions.first?.details.notification?.title ?? "none")
        },
        scenario("NR-03", .notificationResponse, "a delegate without the method gets none", "SDKs adding the response method to a delegate change what the app is told.", [.transparency, .oneInteraction]) { run in
            let plain = try delegateClass(run, "PlainNotificationDelegate", superclass: "NSObject", methods: [])
            try run.runtime.send(run.host.notificationCenter, "setDelegate:", MessageArguments(.object(plain)))
            run.expect(.transparency, "respondsToSelector:", expected: false, observed: try run.runtime.responds(plain, to: responseSelector))
            run.expect(.transparency, "the response taken", expected: true, observed: try run.host.driver.openNotification(title: "Sale", body: nil) == nil)
            run.expect(.oneInteraction, "interactions", expected: 0, observed: run.clicks)
        },
        scenario("NR-04", .notificationResponse, "a dismissed notification opens nothing", "Hooks counting every response as an open report pushes the user swiped away.", [.filters, .originalOnce]) { run in
            let completions = try run.host.driver.openNotification(title: "Sale", body: nil, action: NotificationResponseObject.dismissActionIdentifier)
            run.expect(.originalOnce, "completion handler calls", expected: 1, observed: completions ?? 0)
            run.expectCounts(original: .openNotification("Sale"), originals: 1, interactions: 0)
        },
        Scenario(
            id: "NR-05", point: .notificationResponse, title: "uninstalled under another library's setDelegate: hook, reinstalled, a new delegate class, uninstalled again: nothing records",
            failure: "A re-enabled setter wrapper still feeding the previous installation's wrappers: a delegate wrapped then is never unwrapped.",
            rules: [.lifecycle]
        ) { run in
            let first = try run.install()
            OtherLibraryHooks.exchange(HookedMethod("UNUserNotificationCenter", "setDelegate:"), as: .otherLibrary, runtime: run.runtime, log: run.log)
            try first.uninstall()
            let second = try run.install()
            let log = run.log
            let late = try delegateClass(run, "ReinstalledNotificationDelegate", superclass: "NSObject", methods: [
                (responseSelector, "v@:@@@?", Implementation("-[ReinstalledNotificationDelegate …]") { message throws(RuntimeError) in
                    log.record(.openNotification("reinstalled"))
                    if case .block(let completion?) = message.arguments[2] { _ = try completion.invoke([]) }
                    return .void
                }),
            ])
            try run.runtime.send(run.host.notificationCenter, "setDelegate:", MessageArguments(.object(late)))
            try second.uninstall()
            run.resetCounts()
            try run.host.driver.openNotification(title: "After", body: nil)
            run.expectCounts(original: .openNotification("reinstalled"), originals: 1, interactions: 0)
        },
    ]

    static let all = touches + links + notifications
}

extension AppLogEntry {
    /// `SubAppDelegate`'s override of `application:openURL:options:` ran.
    static let subclassOpen = AppLogEntry("subclass open")
}
