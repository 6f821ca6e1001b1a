import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackRuntime
import AutoTrackSampleApp

/// The app's side of a session: the classes it defines, the controls it makes and the
/// delegates it gives its tables.
extension ReferenceHostWorld {
    func defineAppClasses() throws {
        let log = app.log
        try host.defineClass("ThrowingTarget", superclass: "NSObject", methods: [
            ("failTapped:", "v@:@", Implementation("-[ThrowingTarget failTapped:]") { message throws(RuntimeError) in
                log.record(.failTapped, selector: "failTapped:", receiver: message.receiver, arguments: Array(message.arguments))
                throw .exception(name: "AppError", reason: "the payment failed")
            }),
        ])
        try host.defineClass("NestingTarget", superclass: "NSObject", methods: [
            ("nestTapped:", "v@:@", Implementation("-[NestingTarget nestTapped:]") { message throws(RuntimeError) in
                log.record(.nestTapped, selector: "nestTapped:", receiver: message.receiver, arguments: Array(message.arguments))
                let inner = message.runtime.associatedObject(for: Self.innerKey, on: message.receiver) as? RuntimeObject
                try message.runtime.call(inner, "sendActionsForControlEvents:", ControlEvents.touchUpInside.rawValue)
                return .void
            }),
        ])
        try host.defineClass("RaisingTableDelegate", superclass: "NSObject", methods: [
            (ListSelectors.tableDidSelect, "v@:@@", .procedure("-[RaisingTableDelegate tableView:didSelectRowAtIndexPath:]") {
                (message: Message, table: RuntimeObject?, indexPath: IndexPath) throws(RuntimeError) in
                log.record(AppLogEntry(.raisingSelect, detail: "\(indexPath.row)"), selector: ListSelectors.tableDidSelect.name,
                           receiver: message.receiver, arguments: [.object(table), .value(indexPath)])
                throw .exception(name: "AppError", reason: "the row is gone")
            }),
        ])
        let deep = try runtime.allocateClassPair(superclass: try host.lookUpClass("MySubTableDelegate"), name: "DeepTableDelegate")
        runtime.addMethod(to: deep, ListSelectors.tableDidSelect, .procedure("-[DeepTableDelegate tableView:didSelectRowAtIndexPath:]") {
            (message: Message, table: RuntimeObject?, indexPath: IndexPath) throws(RuntimeError) in
            log.record(AppLogEntry(.deepSelect, detail: "\(indexPath.row)"), selector: ListSelectors.tableDidSelect.name,
                       receiver: message.receiver, arguments: [.object(table), .value(indexPath)])
            try message.runtime.sendSuper(message.receiver, from: deep, ListSelectors.tableDidSelect, [.object(table), .value(indexPath)])
        }, types: "v@:@@")
        try runtime.registerClassPair(deep)
    }

    func makeButton(_ title: String) throws -> ControlObject {
        let frame = Rect(x: 10 + Double(buttons.count % 3) * 120, y: 480 + Double(buttons.count / 3) * 44, width: 110, height: 40)
        let button = try host.makeControl("UIButton", title: title, frame: frame)
        app.listScreen.view.addSubview(button)
        return button
    }

    func setDelegate(of index: Int, to choice: ReferenceHostStep.DelegateChoice) throws {
        var table = tables[index]
        let (delegate, original): (RuntimeObject?, (@Sendable (Int) -> AppLogEntry)?) = switch choice {
        case .none: (nil, nil)
        case .plain: (try runtime.allocate(try host.lookUpClass("MyTableDelegate")), { .delegateSelect(IndexPath(row: $0, section: 0)) })
        case .subclass: (try runtime.allocate(try host.lookUpClass("MySubTableDelegate")), { .subclassSelect(IndexPath(row: $0, section: 0)) })
        case .listScreen: (app.listScreen, { .listSelect(IndexPath(row: $0, section: 0)) })
        case .defined(let number):
            definedClasses.indices.contains(number)
                ? (try runtime.allocate(definedClasses[number]), { AppLogEntry(.definedSelect, detail: "\(number) \($0)") }) : (nil, nil)
        case .bare: (try runtime.allocate(try host.lookUpClass("NSObject")), nil)
        case .raising: (try runtime.allocate(try host.lookUpClass("RaisingTableDelegate")), { AppLogEntry(.raisingSelect, detail: "\($0)") })
        case .deep: (try runtime.allocate(try host.lookUpClass("DeepTableDelegate")), { AppLogEntry(.deepSelect, detail: "\($0)") })
        }
        if let delegate { keptAlive.append(delegate) }
        if let previous = table.delegate, previous !== app.listScreen {
            released.append(("table \(index)'s delegate before", WeakReference(previous)))
            keptAlive.removeAll { $0 === previous }
        }
        table.delegate = delegate
        table.implementsSelection = original != nil
        table.original = original
        table.wiredWhileInstalled = isInstalled
        tables[index] = table
        table.list.setDelegate(delegate)
    }

    func defineScreen(callsSuper: Bool) throws {
        let name = "DefinedScreen\(definedScreens.count)"
        let parent = try host.lookUpClass("UIViewController")
        let log = self.log
        let cls = try runtime.allocateClassPair(superclass: parent, name: name)
        runtime.addMethod(to: cls, "viewDidAppear:", .procedure("-[\(name) viewDidAppear:]") { (message: Message, animated: Bool) throws(RuntimeError) in
            log.record(.viewDidAppear(name), selector: "viewDidAppear:", receiver: message.receiver, arguments: [.bool(animated)])
            if callsSuper { try message.runtime.sendSuper(message.receiver, from: cls, "viewDidAppear:", [.bool(animated)]) }
        }, types: "v@:c")
        try runtime.registerClassPair(cls)
        definedScreens.append(name)
    }

    func defineDelegateSubclass(callsSuper: Bool) throws {
        let number = definedClasses.count
        let parent = try host.lookUpClass("MyTableDelegate")
        let log = self.log
        let cls = try runtime.allocateClassPair(superclass: parent, name: "DefinedDelegate\(number)")
        runtime.addMethod(to: cls, ListSelectors.tableDidSelect, .procedure("-[DefinedDelegate\(number) tableView:didSelectRowAtIndexPath:]") {
            (message: Message, table: RuntimeObject?, indexPath: IndexPath) throws(RuntimeError) in
            log.record(AppLogEntry(.definedSelect, detail: "\(number) \(indexPath.row)"), selector: ListSelectors.tableDidSelect.name,
                       receiver: message.receiver, arguments: [.object(table), .value(indexPath)])
            if callsSuper {
                try message.runtime.sendSuper(message.receiver, from: cls, ListSelectors.tableDidSelect, [.object(table), .value(indexPath)])
            }
        }, types: "v@:@@")
        try runtime.registerClassPair(cls)
        definedClasses.append(cls)
    }
}
