import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import AutoTrackTesting

/// Delegate-selection scenarios (`DS-`).
enum DelegateScenarios {
    static func scenario(_ id: String, _ title: String, _ failure: String, _ rules: [ContractRule], body: @escaping @Sendable (ScenarioRun) throws -> Void) -> Scenario {
        Scenario(id: id, point: .delegateSelection, title: title, failure: failure, rules: rules) { run in
            try run.install()
            try run.app.launch()
            run.resetCounts()
            try body(run)
        }
    }

    /// A delegate of `className`, kept alive for the run.
    static func delegate(_ run: ScenarioRun, _ className: String = "MyTableDelegate") throws -> RuntimeObject {
        let object = try run.runtime.allocate(try run.host.lookUpClass(className))
        run.keepAlive(object)
        return object
    }

    static func select(_ run: ScenarioRun, _ row: Int, in table: ListViewObject) throws {
        try run.host.driver.select(IndexPath(row: row, section: 0), in: table)
    }

    /// `MyTableDelegate`'s other subclass, a sibling of `MySubTableDelegate`.
    static func siblingClass(_ run: ScenarioRun) throws -> RuntimeClass {
        try run.runtime.lookUpClass("SiblingDelegate") ?? run.runtime.defineClass("SiblingDelegate", superclass: try run.host.lookUpClass("MyTableDelegate"))
    }

    /// An RxCocoa-style forwarding delegate proxy: implements nothing itself, forwards
    /// every message to the real delegate, answers `respondsToSelector:` from it.
    static func rxProxyClass(_ run: ScenarioRun) throws -> RuntimeClass {
        if let existing = run.runtime.lookUpClass("RxTableViewDelegateProxy") { return existing }
        let log = run.log
        return try run.runtime.defineClass("RxTableViewDelegateProxy", methods: [
            (Selectors.forwardingTarget, "@@::", Implementation("rx forwardingTarget") { message in
                log.record(.rx)
                return .object(message.runtime.associatedObject(for: AssociationKey("rx.forward"), on: message.receiver) as? RuntimeObject)
            }),
            (Selectors.respondsToSelector, "c@::", Implementation("rx responds") { message throws(RuntimeError) in
                let target = message.runtime.associatedObject(for: AssociationKey("rx.forward"), on: message.receiver) as? RuntimeObject
                return .bool(try message.runtime.responds(target, to: try message.selector(at: 0)))
            }),
        ])
    }

    static func rxProxy(_ run: ScenarioRun, forwardingTo target: RuntimeObject) throws -> RuntimeObject {
        let proxy = try run.runtime.allocate(try rxProxyClass(run))
        run.runtime.setAssociatedObject(target, for: AssociationKey("rx.forward"), on: proxy, policy: .assign)
        run.keepAlive(proxy)
        return proxy
    }

    static let all: [Scenario] = [
        scenario("DS-01", "a delegate subclass whose didSelect calls super", "Both the subclass and its superclass hooked: two clicks per selection.", [.oneInteraction, .originalOnce]) { run in
            let superDelegate = try delegate(run)
            _ = try PointFixture.makeTable(run, delegate: superDelegate) // hooks the superclass too
            let table = try PointFixture.makeTable(run, delegate: try delegate(run, "MySubTableDelegate"))
            try select(run, 3, in: table)
            run.expectCounts(original: .delegateSelect(IndexPath(row: 3, section: 0)), originals: 1, interactions: 1)
            run.expect(.originalOnce, "calls of the override", expected: 1, observed: run.log.count(.subclassSelect(IndexPath(row: 3, section: 0))))
        },
        scenario("DS-02", "a selection method only inherited: sibling classes unaffected", "Exchanging the Method found by an inherited lookup hooked every sibling class of the delegate.", [.filters, .transparency]) { run in
            let inheriting = try run.runtime.lookUpClass("InheritingDelegate")
                ?? run.runtime.defineClass("InheritingDelegate", superclass: try run.host.lookUpClass("MyTableDelegate"))
            let object = try run.runtime.allocate(inheriting)
            run.keepAlive(object)
            let table = try PointFixture.makeTable(run, delegate: object)
            try select(run, 1, in: table)
            run.expectCounts(original: .delegateSelect(IndexPath(row: 1, section: 0)), originals: 1, interactions: 1)
            let sibling = try run.runtime.allocate(try siblingClass(run))
            run.resetCounts()
            try run.runtime.call(sibling, ListSelectors.tableDidSelect, table, IndexPath(row: 4, section: 0))
            run.expectCounts(original: .delegateSelect(IndexPath(row: 4, section: 0)), originals: 1, interactions: 0)
        },
        scenario("DS-03", "the delegate getter returns the app's delegate", "A forwarding proxy leaking out of `tableView.delegate` breaks `delegate === self` checks.", [.transparency]) { run in
            let app = try delegate(run)
            let table = try PointFixture.makeTable(run, delegate: app)
            let got = try run.runtime.call(table, "delegate", returning: RuntimeObject?.self)
            run.expectTrue(.transparency, "getter returns the app's delegate", got === app)
        },
        scenario("DS-04", "respondsToSelector: unchanged, including unimplemented optional methods", "A proxy answering YES for every delegate method makes UIKit call methods the app never wrote.", [.transparency]) { run in
            let table = try PointFixture.makeTable(run, delegate: try delegate(run))
            run.expect(.transparency, "didSelect answer", expected: true, observed: table.delegateResponds[ListSelectors.tableDidSelect] ?? false)
            run.expect(.transparency, "heightForRow answer", expected: false, observed: table.delegateResponds[ListSelectors.tableHeight] ?? true)
            run.expect(.transparency, "scrollViewDidScroll answer", expected: false, observed: table.delegateResponds[ListSelectors.scrollViewDidScroll] ?? true)
        },
        scenario("DS-05", "other delegate messages forwarded once with the same result", "Proxies that forget `forwardingTargetForSelector:` drop heightForRow and scroll callbacks.", [.transparency, .originalOnce]) { run in
            let log = run.log
            let cls = try run.runtime.lookUpClass("HeightDelegate") ?? run.runtime.defineClass("HeightDelegate", superclass: try run.host.lookUpClass("MyTableDelegate"), methods: [
                (ListSelectors.tableHeight, "d@:@@", .returning("height") { (_: Message, _: RuntimeObject?, _: IndexPath) in
                    log.record(.height)
                    return 61.5
                }),
                (ListSelectors.scrollViewDidScroll, "v@:@", Implementation("scroll") { _ in log.record(.scroll); return .void }),
            ])
            let app = try run.runtime.allocate(cls)
            run.keepAlive(app)
            let table = try PointFixture.makeTable(run, delegate: app, rows: 4)
            try run.host.driver.scroll(table, by: 40)
            run.expect(.transparency, "heightForRow calls", expected: 4, observed: log.count(.height))
            run.expect(.transparency, "scroll callbacks", expected: 1, observed: log.count(.scroll))
            let result = try run.runtime.call(table.delegate, ListSelectors.tableHeight, table, IndexPath(row: 0, section: 0), returning: Double.self)
            run.expect(.transparency, "heightForRow result through the list's delegate", expected: 61.5, observed: result)
        },
        scenario("DS-06", "the delegate set to nil", "Hooks dereferencing a nil delegate crash at `setDelegate:nil`.", [.failOpen]) { run in
            let table = try PointFixture.makeTable(run, delegate: nil)
            try select(run, 1, in: table)
            run.expectCounts(original: .delegateSelect(IndexPath(row: 1, section: 0)), originals: 0, interactions: 0)
        },
        scenario("DS-07", "the delegate changed, then reset", "Clicks still attributed to (or only to) the first delegate after a change.", [.oneInteraction, .originalOnce]) { run in
            let first = try delegate(run)
            let table = try PointFixture.makeTable(run, delegate: first)
            table.setDelegate(try delegate(run, "MySubTableDelegate"))
            try select(run, 2, in: table)
            table.setDelegate(first)
            try select(run, 3, in: table)
            run.expect(.originalOnce, "calls of the second delegate", expected: 1, observed: run.log.count(.subclassSelect(IndexPath(row: 2, section: 0))))
            run.expect(.originalOnce, "calls of the first delegate", expected: 1, observed: run.log.count(.delegateSelect(IndexPath(row: 3, section: 0))))
            run.expect(.oneInteraction, "interactions", expected: 2, observed: run.clicks)
        },
        scenario("DS-08", "one delegate shared by two lists", "Per-delegate state assuming one list: the second list's taps vanish or double.", [.oneInteraction]) { run in
            let shared = try delegate(run)
            let first = try PointFixture.makeTable(run, delegate: shared)
            let second = try PointFixture.makeTable(run, delegate: shared)
            try select(run, 1, in: first)
            try select(run, 2, in: second)
            run.expect(.oneInteraction, "interactions", expected: 2, observed: run.clicks)
            run.expect(.originalOnce, "originals", expected: 2, observed: run.log.count(of: .delegateSelect))
        },
        scenario("DS-09", "the delegate deallocated while set", "A proxy or subclass keeping a dead delegate's selection alive: clicks for code that never ran.", [.failOpen, .oneInteraction]) { run in
            var object: RuntimeObject? = try run.runtime.allocate(try run.host.lookUpClass("MyTableDelegate"))
            let table = try PointFixture.makeTable(run, delegate: object)
            object = nil
            try select(run, 1, in: table)
            run.expectCounts(original: .delegateSelect(IndexPath(row: 1, section: 0)), originals: 0, interactions: 0)
        },
        scenario("DS-10", "an RxCocoa-style proxy set over the delegate after our hook", "RxCocoa's delegate proxy and an autotrack proxy fighting over `delegate`: lost or doubled selections.", [.oneInteraction, .originalOnce]) { run in
            let app = try delegate(run)
            let table = try PointFixture.makeTable(run, delegate: try rxProxy(run, forwardingTo: app))
            try select(run, 2, in: table)
            run.expectCounts(original: .delegateSelect(IndexPath(row: 2, section: 0)), originals: 1, interactions: 1)
        },
        scenario("DS-11", "an RxCocoa-style proxy installing itself under our hook", "A library that swizzles setDelegate: first to insert its proxy, with our hook installed after.", [.oneInteraction, .originalOnce]) { run in
            // The other library, installed after ours: its setDelegate: wraps the app's delegate in its proxy.
            let proxyClass = try rxProxyClass(run)
            let tableClass = try run.host.lookUpClass("UITableView")
            let setDelegate = try requireMethod(run.runtime.method("setDelegate:", in: tableClass))
            let original = setDelegate.implementation
            let runtime = run.runtime
            runtime.setImplementation(of: setDelegate, to: Implementation("rx setDelegate:") { message throws(RuntimeError) in
                guard let target = message.arguments.first?.object else { return try original.body(message) }
                let proxy = try runtime.allocate(proxyClass)
                runtime.setAssociatedObject(target, for: AssociationKey("rx.forward"), on: proxy, policy: .assign)
                runtime.setAssociatedObject(proxy, for: AssociationKey("rx.keep"), on: message.receiver)
                return try original.body(message.replacingArguments([.object(proxy)]))
            })
            let table = try PointFixture.makeTable(run, delegate: try delegate(run))
            try select(run, 4, in: table)
            run.expectCounts(original: .delegateSelect(IndexPath(row: 4, section: 0)), originals: 1, interactions: 1)
        },
        scenario("DS-12", "the list reloaded inside didSelect", "Snapshotting after the original: the reloaded list gives another row's content.", [.recordThenForward]) { run in
            let log = run.log
            let cls = try run.runtime.lookUpClass("ReloadingDelegate") ?? run.runtime.defineClass("ReloadingDelegate", methods: [
                (ListSelectors.tableDidSelect, "v@:@@", .procedure("reload") { (_: Message, table: ListViewObject, indexPath: IndexPath) in
                    log.record(.reloadSelect(row: indexPath.row))
                    table.content?.configure = { cell, _ in cell.contentView.subviews.first?.text = "replaced" }
                    table.reloadData()
                }),
            ])
            let object = try run.runtime.allocate(cls)
            run.keepAlive(object)
            let table = try PointFixture.makeTable(run, delegate: object)
            try select(run, 3, in: table)
            run.expect(.recordThenForward, "snapshot content", expected: "Row 3", observed: run.text(run.sink.interactions.first?.element?.properties["$element_content"]))
            run.expectCounts(original: .reloadSelect(row: 3), originals: 1, interactions: 1)
        },
        scenario("DS-13", "a delegate observed with KVO before it is set, observation removed, selected again", "Dynamic subclasses built on the observed class report NSKVONotifying_ names, make the app's removeObserver throw, or stop recording once KVO leaves.", [.transparency, .oneInteraction]) { run in
            let app = try delegate(run)
            let token = try run.runtime.addObservation(of: "title", on: app) { _, _ in }
            let table = try PointFixture.makeTable(run, delegate: app)
            try select(run, 2, in: table)
            run.expectCounts(original: .delegateSelect(IndexPath(row: 2, section: 0)), originals: 1, interactions: 1)
            run.expect(.transparency, "reported class", expected: "MyTableDelegate", observed: (try run.runtime.reportedClass(of: app))?.name ?? "none")
            do {
                try run.runtime.removeObservation(token)
                run.expect(.transparency, "the app's removeObserver", expected: "succeeds", observed: "succeeds")
            } catch {
                run.expect(.transparency, "the app's removeObserver", expected: "succeeds", observed: "throws \(error)")
            }
            run.expectTrue(.transparency, "KVO's class gone with its last observer", !app.realClass.name.contains("NSKVONotifying"))
            try select(run, 3, in: table)
            run.expect(.oneInteraction, "interactions after KVO left", expected: 2, observed: run.clicks)
            run.expect(.originalOnce, "calls of the original after KVO left", expected: 1, observed: run.log.count(.delegateSelect(IndexPath(row: 3, section: 0))))
        },
        scenario("DS-14", "a delegate observed with KVO after it is set, twice, removed last to first", "KVO on an isa-swizzled delegate reports the hook's class, is restored to the wrong class on removal, or drops the hook.", [.transparency, .oneInteraction]) { run in
            let app = try delegate(run)
            let table = try PointFixture.makeTable(run, delegate: app)
            let before = app.realClass
            let first = try run.runtime.addObservation(of: "title", on: app) { _, _ in }
            let second = try run.runtime.addObservation(of: "rowHeight", on: app) { _, _ in }
            try select(run, 2, in: table)
            run.expectCounts(original: .delegateSelect(IndexPath(row: 2, section: 0)), originals: 1, interactions: 1)
            run.expect(.transparency, "reported class while observed", expected: "MyTableDelegate", observed: (try run.runtime.reportedClass(of: app))?.name ?? "none")
            for token in [second, first] {
                do {
                    try run.runtime.removeObservation(token)
                } catch {
                    run.expect(.transparency, "the app's removeObserver", expected: "succeeds", observed: "throws \(error)")
                }
            }
            run.expectTrue(.transparency, "class restored after KVO removal", app.realClass === before)
            try select(run, 3, in: table)
            run.expect(.oneInteraction, "interactions after KVO left", expected: 2, observed: run.clicks)
        },
        scenario("DS-15", "the delegate reports the app's class", "A tutorial's dynamic subclass reported $screen_name as cn.SensorsDataViewController.", [.transparency]) { run in
            let app = try delegate(run)
            _ = try PointFixture.makeTable(run, delegate: app)
            run.expect(.transparency, "reported class", expected: "MyTableDelegate", observed: (try run.runtime.reportedClass(of: app))?.name ?? "none")
        },
        scenario("DS-16", "two delegates of one class on two lists", "Object-level hooks applied to the first instance only.", [.oneInteraction]) { run in
            let first = try PointFixture.makeTable(run, delegate: try delegate(run))
            let second = try PointFixture.makeTable(run, delegate: try delegate(run))
            try select(run, 1, in: first)
            try select(run, 2, in: second)
            run.expect(.oneInteraction, "interactions", expected: 2, observed: run.clicks)
        },
        scenario("DS-17", "didSelect called with a non-list argument", "Hooks casting the first argument crash on custom list classes.", [.failOpen, .originalOnce]) { run in
            let app = try delegate(run)
            _ = try PointFixture.makeTable(run, delegate: app)
            run.resetCounts()
            let notAList = try run.runtime.allocate(run.runtime.rootClass)
            try run.runtime.call(app, ListSelectors.tableDidSelect, notAList, IndexPath(row: 1, section: 0))
            run.expect(.failOpen, "calls of the original", expected: 1, observed: run.log.count(.delegateSelect(IndexPath(row: 1, section: 0))))
        },
        scenario("DS-18", "a delegate without didSelect", "Adding didSelect to delegates that lacked it changes UIKit's behaviour (selection now calls app code).", [.transparency]) { run in
            let plain = try run.runtime.lookUpClass("PlainDelegate") ?? run.runtime.defineClass("PlainDelegate")
            let object = try run.runtime.allocate(plain)
            run.keepAlive(object)
            let table = try PointFixture.makeTable(run, delegate: object)
            try select(run, 1, in: table)
            run.expect(.transparency, "didSelect answer", expected: false, observed: table.delegateResponds[ListSelectors.tableDidSelect] ?? true)
            run.expect(.oneInteraction, "interactions", expected: 0, observed: run.clicks)
        },
    ]
}

/// Unwraps a method the scenario needs, or fails the scenario with a typed error.
func requireMethod(_ method: RuntimeMethod?) throws -> RuntimeMethod {
    guard let method else { throw RuntimeError.exception(name: "Scenario", reason: "a method the scenario needs is missing") }
    return method
}
