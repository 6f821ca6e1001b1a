import AutoTrackEvents
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import Dispatch
import Testing

@Suite("View controller lifecycle in UIKit order")
struct LifecycleTests {
    let host: ReferenceHost
    let log = Transcript()

    init() throws {
        host = try ReferenceHost()
        for name in ["A", "B", "C", "Modal"] { try defineLifecycleLoggingClass(name, in: host, log: log) }
        try defineLifecycleLoggingClass("Nav", superclass: "UINavigationController", in: host, log: log)
        try defineLifecycleLoggingClass("Tabs", superclass: "UITabBarController", in: host, log: log)
    }

    func navigation(root: String) throws -> (ViewControllerObject, ViewControllerObject) {
        let navigation = try host.makeController("Nav")
        let first = try host.makeController(root)
        try host.runtime.call(navigation, "addChildViewController:", first)
        try host.transitions.setRoot(navigation)
        return (navigation, first)
    }

    @Test("launch loads the view (viewDidLoad) and forwards appearance from the container to the top")
    func launch() throws {
        _ = try navigation(root: "A")
        #expect(log.all == ["Nav.DidLoad", "A.DidLoad", "Nav.WillAppear", "A.WillAppear", "Nav.DidAppear", "A.DidAppear"])
    }

    @Test("push and pop")
    func pushPop() throws {
        let (navigation, _) = try navigation(root: "A")
        log.clear()
        try host.driver.push(try host.makeController("B"), on: navigation)
        #expect(log.all == ["B.DidLoad", "A.WillDisappear", "B.WillAppear", "A.DidDisappear", "B.DidAppear"])
        log.clear()
        try host.driver.pop(navigation)
        #expect(log.all == ["B.WillDisappear", "A.WillAppear", "B.DidDisappear", "A.DidAppear"])
    }

    @Test("a swipe back cancelled half-way: the top appears again, the one below appears and disappears")
    func cancelledSwipeBack() throws {
        let (navigation, _) = try navigation(root: "A")
        try host.driver.push(try host.makeController("B"), on: navigation)
        log.clear()
        try host.driver.cancelledSwipeBack(navigation)
        #expect(log.all == ["B.WillDisappear", "A.WillAppear", "A.WillDisappear", "A.DidDisappear", "B.WillAppear", "B.DidAppear"])
        #expect(navigation.topViewController?.typeName == "B")
    }

    @Test("present and dismiss full screen")
    func presentDismiss() throws {
        let (_, first) = try navigation(root: "A")
        let modal = try host.makeController("Modal")
        log.clear()
        try host.driver.present(modal, from: first)
        #expect(log.all == ["Modal.DidLoad", "A.WillDisappear", "Modal.WillAppear", "A.DidDisappear", "Modal.DidAppear"])
        log.clear()
        try host.driver.dismiss(modal)
        #expect(log.all == ["Modal.WillDisappear", "A.WillAppear", "Modal.DidDisappear", "A.DidAppear"])
    }

    @Test("tab switch")
    func tabs() throws {
        let tabs = try host.makeController("Tabs")
        for name in ["A", "B"] { try host.runtime.call(tabs, "addChildViewController:", try host.makeController(name)) }
        try host.transitions.setRoot(tabs)
        log.clear()
        try host.driver.selectTab(1, in: tabs)
        #expect(log.all == ["B.DidLoad", "A.WillDisappear", "B.WillAppear", "A.DidDisappear", "B.DidAppear"])
    }

    @Test("a contained child appears with its parent")
    func childContainment() throws {
        let parent = try host.makeController("A")
        let child = try host.makeController("C")
        try host.runtime.call(parent, "addChildViewController:", child)
        parent.view.addSubview(child.view)
        try host.transitions.setRoot(parent)
        #expect(log.all == ["A.DidLoad", "C.DidLoad", "A.WillAppear", "C.WillAppear", "A.DidAppear", "C.DidAppear"])
    }

    @Test("observers may be added from many threads at once (hooks install from any thread)")
    func concurrentObservers() throws {
        let notifications = Transcript()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<50 {
                host.addObserver(for: .didEnterBackground) { _ in notifications.record("\(thread).\(index)") }
            }
        }
        host.driver.background()
        #expect(Set(notifications.all).count == 400)
    }

    @Test("background and foreground send notifications, never appearance callbacks")
    func backgroundForeground() throws {
        _ = try navigation(root: "A")
        let notifications = Transcript()
        for name in ApplicationNotification.allCases { host.addObserver(for: name) { notifications.record($0.rawValue) } }
        log.clear()
        host.driver.background()
        host.driver.foreground()
        #expect(log.all.isEmpty)
        #expect(notifications.all == [
            "UIApplicationDidEnterBackgroundNotification", "UIApplicationWillEnterForegroundNotification",
            "UIApplicationDidBecomeActiveNotification",
        ])
    }

    @Test("the sample app's page container loads pages in the order visited and places them by page")
    func pages() throws {
        let app = try SampleApp()
        try app.launch()
        try app.host.driver.push(app.pagesScreen, on: app.navigation)
        for page in [2, 3, 1] { try app.host.driver.swipe(toPage: page, in: app.pagesScreen) }
        let scroll = try #require(app.pagesScreen.pageScrollView)
        #expect(scroll.subviews.map(\.frame.origin.x) == [0, 780, 1170, 390])
        #expect(app.log.count(.viewDidAppear("PageChildViewController")) == 4)
        #expect(app.host.visibleController?.title == "Page 1")
    }
}
