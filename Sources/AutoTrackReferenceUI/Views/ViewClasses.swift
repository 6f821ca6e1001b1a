import AutoTrackProperties
import AutoTrackRuntime

/// `UIResponder`, `UIView`, `UIWindow`, `UILabel`, `UIImageView`, `UIScrollView`, `UITextView`.
enum ViewClasses {
    static func define(in host: ReferenceHost) throws(RuntimeError) {
        let runtime = host.runtime
        let responder = try runtime.defineClass("UIResponder")
        host.register(responder, storage: nil)
        let view = try runtime.defineClass("UIView", superclass: responder, methods: [
            ("addSubview:", "v@:@", .procedure("-[UIView addSubview:]") { (message: Message, child: ViewObject) in
                guard let parent = message.receiver as? ViewObject else { return }
                parent.insertSubviewStorage(child, at: parent.subviews.count)
            }),
            ("insertSubview:atIndex:", "v@:@q", .procedure("-[UIView insertSubview:atIndex:]") { (message: Message, child: ViewObject, index: Int) in
                (message.receiver as? ViewObject)?.insertSubviewStorage(child, at: index)
            }),
            ("removeFromSuperview", "v@:", .procedure("-[UIView removeFromSuperview]") { message in
                (message.receiver as? ViewObject)?.removeFromSuperviewStorage()
            }),
            ("addGestureRecognizer:", "v@:@", .procedure("-[UIView addGestureRecognizer:]") { (message: Message, recognizer: GestureRecognizerObject) in
                guard let view = message.receiver as? ViewObject else { return }
                recognizer.view?.gestureRecognizers.removeAll { $0 === recognizer }
                view.gestureRecognizers.append(recognizer)
                recognizer.view = view
            }),
            ("removeGestureRecognizer:", "v@:@", .procedure("-[UIView removeGestureRecognizer:]") { (message: Message, recognizer: GestureRecognizerObject) in
                guard let view = message.receiver as? ViewObject else { return }
                view.gestureRecognizers.removeAll { $0 === recognizer }
                if recognizer.view === view { recognizer.view = nil }
            }),
        ])
        host.register(view, storage: .view(.view))
        host.register(try runtime.defineClass("UIWindow", superclass: view), storage: .view(.window))
        host.register(try runtime.defineClass("UILabel", superclass: view), storage: .view(.label))
        host.register(try runtime.defineClass("UIImageView", superclass: view), storage: .view(.image))
        let scroll = try runtime.defineClass("UIScrollView", superclass: view)
        host.register(scroll, storage: .view(.scrollView))
        host.register(try runtime.defineClass("UITextView", superclass: scroll), storage: .view(.textView))
        host.register(try runtime.defineClass("UINavigationBar", superclass: view), storage: .view(.navigationBar))
        host.register(try runtime.defineClass("UITabBar", superclass: view), storage: .view(.view))
        host.register(try runtime.defineClass("UITableViewCellContentView", superclass: view), storage: .view(.cellContentView))
        host.register(try runtime.defineClass("_UIPageContainerScrollView", superclass: scroll), storage: .view(.pageContainer))
        host.register(try runtime.defineClass("_UIAlertControllerView", superclass: view), storage: .view(.view))
    }
}
