import AutoTrackProperties
import AutoTrackRuntime

/// `UIViewController` and the containers: navigation, tabs, pages and alerts.
enum ControllerClasses {
    static func define(in host: ReferenceHost) throws(RuntimeError) {
        let runtime = host.runtime
        let responder = runtime.lookUpClass("UIResponder")!
        let noOp: (String) -> Implementation = { name in .procedure(name) { (_: Message, _: Bool) in } }
        let controller = try runtime.defineClass("UIViewController", superclass: responder, methods: [
            ("loadView", "v@:", .procedure("-[UIViewController loadView]") { message in
                guard let controller = message.receiver as? ViewControllerObject else { return }
                controller.installView(controller.host.frameworkObject("UIView", as: ViewObject.self))
            }),
            ("viewDidLoad", "v@:", .procedure("-[UIViewController viewDidLoad]") { _ in }),
            ("viewWillAppear:", "v@:c", noOp("-[UIViewController viewWillAppear:]")),
            ("viewDidAppear:", "v@:c", noOp("-[UIViewController viewDidAppear:]")),
            ("viewWillDisappear:", "v@:c", noOp("-[UIViewController viewWillDisappear:]")),
            ("viewDidDisappear:", "v@:c", noOp("-[UIViewController viewDidDisappear:]")),
            ("addChildViewController:", "v@:@", .procedure("-[UIViewController addChildViewController:]") {
                (message: Message, child: ViewControllerObject) in
                guard let parent = message.receiver as? ViewControllerObject else { return }
                child.parent?.children.removeAll { $0 === child }
                parent.children.append(child)
                child.parent = parent
            }),
            ("removeFromParentViewController", "v@:", .procedure("-[UIViewController removeFromParentViewController]") { message in
                guard let child = message.receiver as? ViewControllerObject else { return }
                child.parent?.children.removeAll { $0 === child }
                child.parent = nil
            }),
            ("presentViewController:animated:completion:", "v@:@c@?", Implementation("-[UIViewController presentViewController:animated:completion:]") {
                message throws(RuntimeError) in
                guard let presenting = message.receiver as? ViewControllerObject,
                      let presented = try message.object(at: 0) as? ViewControllerObject else { return .void }
                try presenting.host.transitions.present(presented, from: presenting, animated: try message.bool(at: 1))
                return .void
            }),
            ("dismissViewControllerAnimated:completion:", "v@:c@?", Implementation("-[UIViewController dismissViewControllerAnimated:completion:]") {
                message throws(RuntimeError) in
                guard let controller = message.receiver as? ViewControllerObject else { return .void }
                try controller.host.transitions.dismiss(controller, animated: try message.bool(at: 0))
                return .void
            }),
        ])
        host.register(controller, storage: .controller(.plain))

        let navigation = try runtime.defineClass("UINavigationController", superclass: controller, methods: [
            ("loadView", "v@:", .procedure("-[UINavigationController loadView]") { message in
                guard let navigation = message.receiver as? ViewControllerObject else { return }
                let host = navigation.host
                let container = host.frameworkObject("UILayoutContainerView", as: ViewObject.self)
                let transition = host.frameworkObject("UINavigationTransitionView", as: ViewObject.self)
                transition.addSubview(host.frameworkObject("UIViewControllerWrapperView", as: ViewObject.self))
                container.addSubview(transition)
                let bar = host.frameworkObject("UINavigationBar", as: ViewObject.self)
                bar.frame = Rect(x: 0, y: 44, width: host.screenBounds.width, height: 44)
                container.addSubview(bar)
                navigation.navigationBar = bar
                navigation.installView(container)
            }),
            ("pushViewController:animated:", "v@:@c", .procedure("-[UINavigationController pushViewController:animated:]") {
                (message: Message, pushed: ViewControllerObject, animated: Bool) throws(RuntimeError) in
                guard let navigation = message.receiver as? ViewControllerObject else { return }
                try navigation.host.transitions.push(pushed, on: navigation, animated: animated)
            }),
            ("popViewControllerAnimated:", "@@:c", .returning("-[UINavigationController popViewControllerAnimated:]") {
                (message: Message, animated: Bool) throws(RuntimeError) -> RuntimeObject? in
                guard let navigation = message.receiver as? ViewControllerObject else { return nil }
                return try navigation.host.transitions.pop(from: navigation, animated: animated)
            }),
        ])
        host.register(navigation, storage: .controller(.navigation))
        for name in ["UILayoutContainerView", "UINavigationTransitionView", "UIViewControllerWrapperView"] {
            host.register(try runtime.defineClass(name, superclass: runtime.lookUpClass("UIView")!), storage: .view(.view))
        }

        host.register(try runtime.defineClass("UITabBarController", superclass: controller, methods: [
            ("setSelectedIndex:", "v@:Q", .procedure("-[UITabBarController setSelectedIndex:]") { (message: Message, index: Int) throws(RuntimeError) in
                guard let tabs = message.receiver as? ViewControllerObject else { return }
                try tabs.host.transitions.select(index, in: tabs)
            }),
            // What a tab bar button's touch-up-inside calls: select the tab it stands for.
            ("_tabBarItemClicked:", "v@:@", .procedure("-[UITabBarController _tabBarItemClicked:]") {
                (message: Message, sender: RuntimeObject?) throws(RuntimeError) in
                guard let tabs = message.receiver as? ViewControllerObject, let button = sender as? ControlObject,
                      let index = button.tabIndex else { return }
                try message.runtime.call(tabs, "setSelectedIndex:", index)
            }),
        ]), storage: .controller(.tabs))

        host.register(try runtime.defineClass("UIPageViewController", superclass: controller, methods: [
            ("loadView", "v@:", .procedure("-[UIPageViewController loadView]") { message in
                guard let pages = message.receiver as? ViewControllerObject else { return }
                let root = pages.host.frameworkObject("UIView", as: ViewObject.self)
                let scroll = pages.host.frameworkObject("_UIPageContainerScrollView", as: ViewObject.self)
                scroll.frame = pages.host.screenBounds
                root.addSubview(scroll)
                pages.pageScrollView = scroll
                pages.installView(root)
            }),
            ("_scrollToPage:", "v@:Q", .procedure("-[UIPageViewController _scrollToPage:]") { (message: Message, page: Int) throws(RuntimeError) in
                guard let pages = message.receiver as? ViewControllerObject else { return }
                try pages.host.transitions.select(page, in: pages)
            }),
        ]), storage: .controller(.pages))

        let alert = try runtime.defineClass("UIAlertController", superclass: controller, methods: [
            ("loadView", "v@:", .procedure("-[UIAlertController loadView]") { message in
                guard let alert = message.receiver as? ViewControllerObject else { return }
                alert.installView(alert.host.frameworkObject("_UIAlertControllerView", as: ViewObject.self))
            }),
            ("addAction:", "v@:@", .procedure("-[UIAlertController addAction:]") { (message: Message, action: AlertActionObject) in
                guard let alert = message.receiver as? ViewControllerObject else { return }
                alert.alertActions.append(action)
                action.alertController = alert
            }),
            // Private: what tapping an action button does — dismiss, then run the
            // handler once.
            ("_dismissAnimated:triggeringAction:", "v@:c@", .procedure("-[UIAlertController _dismissAnimated:triggeringAction:]") {
                (message: Message, animated: Bool, action: AlertActionObject) throws(RuntimeError) in
                guard let alert = message.receiver as? ViewControllerObject else { return }
                try alert.host.transitions.dismiss(alert, animated: animated)
                try action.handler?.invoke([.object(action)])
            }),
        ], classMethods: [
            ("alertControllerWithTitle:message:preferredStyle:", "@@:@@q", Implementation("+[UIAlertController alertControllerWithTitle:message:preferredStyle:]") {
                message throws(RuntimeError) in
                guard let cls = message.receiver as? RuntimeClass,
                      let host = ReferenceHost.host(of: message.runtime) else { return .object(nil) }
                let alert = try host.make(cls, as: ViewControllerObject.self)
                alert.title = try String?.fromRuntimeValue(try message.argument(at: 0), selector: message.selector)
                alert.message = try String?.fromRuntimeValue(try message.argument(at: 1), selector: message.selector)
                return .object(alert)
            }),
        ])
        host.register(alert, storage: .controller(.alert))
    }
}
