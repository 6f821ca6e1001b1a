import AutoTrackEvents
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackTesting
import AutoTrackRuntime
import Testing

@Suite("Delegate-selection hooks: method exchange, dynamic subclass, forwarding proxy")
struct DelegateSelectionHookTests {
    static let strategies: [any InterceptionHook<ReferenceHost>] = [ExchangeDelegateHook(), SubclassDelegateHook(), ProxyDelegateHook()]

    /// A table made after the hook is installed, with rows "Row 0" …, and `delegate`.
    func makeTable(_ fixture: Fixture, delegate: RuntimeObject?) throws -> ListViewObject {
        let host = fixture.host
        let table = try host.makeList("UITableView", content: ListContent(rowsPerSection: [6], cellClass: { _ in "MyTableViewCell" }) { cell, indexPath in
            let content: ViewObject = cell.contentView
            if content.subviews.isEmpty, let label = try? host.makeLabel("") { content.addSubview(label) }
            content.subviews[0].text = "Row \(indexPath.row)"
        })
        fixture.app.listScreen.view.addSubview(table)
        table.setDelegate(delegate)
        table.reloadData()
        return table
    }

    @Test("rules 1-3: one selection is one click with the cell's snapshot, recorded before the original runs once", arguments: strategies)
    func oneSelection(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let delegate = try fixture.runtime.allocate(try fixture.host.lookUpClass("MyTableDelegate"))
        let table = try makeTable(fixture, delegate: delegate)
        try fixture.host.driver.select(IndexPath(row: 5, section: 0), in: table)
        #expect(fixture.app.log.all == [.click, .delegateSelect(IndexPath(row: 5, section: 0))])
        let click = try #require(fixture.sink.interactions.first)
        #expect(click.point == .delegateSelection)
        #expect(click.element?.properties["$element_position"] == "0:5")
        #expect(click.element?.properties["$element_content"] == "Row 5")
        #expect(click.screen?.typeName == "ViewController")
    }

    @Test("the sample app's own table: the tutorials' values through the hook", arguments: strategies)
    func sampleTable(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture(launch: false)
        try fixture.install(hook)
        fixture.app.table.setDelegate(fixture.app.listScreen) // as the app does at load
        try fixture.app.launch()
        fixture.app.log.clear()
        try fixture.host.driver.select(IndexPath(row: 5, section: 0), in: fixture.app.table)
        #expect(fixture.app.log.all == [.click, .listSelect(IndexPath(row: 5, section: 0))])
        let properties = try #require(fixture.sink.interactions.first?.element?.properties)
        #expect(properties["$element_content"] == "CELL-Buy")
        #expect(properties["$element_position"] == "0:5")
        #expect(fixture.sink.interactions.first?.screen?.typeName == "ViewController", "never the generated subclass's name")
    }

    @Test("rule 2: a delegate subclass calling super is one click; both originals run once", arguments: strategies)
    func subclassCallingSuper(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        // The superclass is hooked too: a plain MyTableDelegate is set on another table first.
        let superDelegate = try fixture.runtime.allocate(try fixture.host.lookUpClass("MyTableDelegate"))
        let other = try makeTable(fixture, delegate: superDelegate)
        let delegate = try fixture.runtime.allocate(try fixture.host.lookUpClass("MySubTableDelegate"))
        let table = try makeTable(fixture, delegate: delegate)
        try fixture.host.driver.select(IndexPath(row: 2, section: 0), in: table)
        #expect(fixture.app.log.all == [.click, .subclassSelect(IndexPath(row: 2, section: 0)), .delegateSelect(IndexPath(row: 2, section: 0))])
        try fixture.host.driver.select(IndexPath(row: 1, section: 0), in: other)
        #expect(fixture.sink.count == 2)
        #expect(fixture.context.diagnostics.deduplicated <= 1)
    }

    @Test("a nil delegate, then a delegate, then another, then nil again", arguments: strategies)
    func changedAndReset(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let table = try makeTable(fixture, delegate: nil)
        try fixture.host.driver.select(IndexPath(row: 0, section: 0), in: table)
        let first = try fixture.runtime.allocate(try fixture.host.lookUpClass("MyTableDelegate"))
        table.setDelegate(first)
        try fixture.host.driver.select(IndexPath(row: 1, section: 0), in: table)
        let second = try fixture.runtime.allocate(try fixture.host.lookUpClass("MySubTableDelegate"))
        table.setDelegate(second)
        try fixture.host.driver.select(IndexPath(row: 2, section: 0), in: table)
        table.setDelegate(nil)
        try fixture.host.driver.select(IndexPath(row: 3, section: 0), in: table)
        #expect(fixture.app.log.all == [.click, .delegateSelect(IndexPath(row: 1, section: 0)), .click, .subclassSelect(IndexPath(row: 2, section: 0)), .delegateSelect(IndexPath(row: 2, section: 0))])
        withExtendedLifetime((first, second)) {}
    }

    @Test("one delegate shared by two lists: each selection is one click", arguments: strategies)
    func sharedDelegate(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let delegate = try fixture.runtime.allocate(try fixture.host.lookUpClass("MyTableDelegate"))
        let first = try makeTable(fixture, delegate: delegate)
        let second = try makeTable(fixture, delegate: delegate)
        try fixture.host.driver.select(IndexPath(row: 1, section: 0), in: first)
        try fixture.host.driver.select(IndexPath(row: 2, section: 0), in: second)
        #expect(fixture.app.log.all == [.click, .delegateSelect(IndexPath(row: 1, section: 0)), .click, .delegateSelect(IndexPath(row: 2, section: 0))])
    }

    @Test("a delegate released while set: no original to run, no click, no crash", arguments: strategies)
    func delegateReleased(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        var delegate: RuntimeObject? = try fixture.runtime.allocate(try fixture.host.lookUpClass("MyTableDelegate"))
        let table = try makeTable(fixture, delegate: delegate)
        delegate = nil
        try fixture.host.driver.select(IndexPath(row: 1, section: 0), in: table)
        #expect(fixture.app.log.all.isEmpty)
        #expect(fixture.sink.count == 0)
        #expect(try fixture.runtime.call(table, "delegate", returning: RuntimeObject?.self) == nil)
    }

    @Test("rule 3: a list reloaded inside didSelect: the snapshot is the tapped cell's", arguments: strategies)
    func reloadInsideSelection(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let log = fixture.app.log
        let cls = try fixture.runtime.defineClass("ReloadingDelegate", methods: [
            (ListSelectors.tableDidSelect, "v@:@@", .procedure("reload") { (_: Message, table: ListViewObject, indexPath: IndexPath) in
                log.record(.reloadingSelect(row: indexPath.row))
                table.content?.configure = { cell, _ in cell.contentView.subviews.first?.text = "reloaded" }
                table.reloadData()
            }),
        ])
        let delegate = try fixture.runtime.allocate(cls)
        let table = try makeTable(fixture, delegate: delegate)
        let tapped = try #require(table.cell(at: IndexPath(row: 3, section: 0)))
        try fixture.host.driver.select(IndexPath(row: 3, section: 0), in: table)
        #expect(table.cell(at: IndexPath(row: 3, section: 0)) !== tapped, "the original reloaded the list")
        #expect(fixture.sink.interactions.first?.element?.properties["$element_content"] == "Row 3")
    }

    @Test("rule 5: the delegate getter, class, responds(to:) and unintercepted messages are the app's", arguments: strategies)
    func transparency(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        try fixture.install(hook)
        let log = fixture.app.log
        let cls = try fixture.runtime.defineClass("HeightDelegate", superclass: try fixture.host.lookUpClass("MyTableDelegate"), methods: [
            (ListSelectors.tableHeight, "d@:@@", .returning("height") { (_: Message, _: RuntimeObject?, _: IndexPath) in
                log.record(.height)
                return 61.5
            }),
        ])
        let delegate = try fixture.runtime.allocate(cls)
        let table = try makeTable(fixture, delegate: delegate)
        #expect(try fixture.runtime.call(table, "delegate", returning: RuntimeObject?.self) === delegate)
        #expect(try fixture.runtime.reportedClass(of: delegate)?.name == "HeightDelegate")
        #expect(table.delegateResponds[ListSelectors.tableHeight] == true)
        #expect(table.delegateResponds[ListSelectors.tableWillDisplay] == false, "an unimplemented optional method stays unimplemented")
        #expect(table.delegateResponds[ListSelectors.scrollViewDidScroll] == false)
        #expect(log.count(.height) == 6, "height asked once per row, through whatever the list holds")
        let direct = try fixture.runtime.send(table.delegate, ListSelectors.tableHeight, [.object(table), .value(IndexPath(row: 0, section: 0))])
        if case .double(61.5) = direct {} else { Issue.record("the result changed: \(direct.kind)") }
    }

    @Test("rule 6: installing twice is once; uninstalling restores the app's delegate and behaviour", arguments: strategies)
    func installUninstall(hook: any InterceptionHook<ReferenceHost>) throws {
        let fixture = try Fixture()
        let handle = try fixture.install(hook)
        _ = try fixture.install(hook)
        let delegate = try fixture.runtime.allocate(try fixture.host.lookUpClass("MyTableDelegate"))
        let delegateClass = delegate.realClass
        let table = try makeTable(fixture, delegate: delegate)
        try fixture.host.driver.select(IndexPath(row: 1, section: 0), in: table)
        #expect(fixture.sink.count == 1)
        try handle.uninstall()
        #expect(handle.state == .uninstalled)
        try fixture.host.driver.select(IndexPath(row: 2, section: 0), in: table)
        #expect(fixture.sink.count == 1)
        #expect(fixture.app.log.all == [.click, .delegateSelect(IndexPath(row: 1, section: 0)), .delegateSelect(IndexPath(row: 2, section: 0))])
        #expect(table.delegate === delegate, "the list holds the app's delegate again")
        #expect(delegate.realClass.name == "MyTableDelegate" || delegate.realClass === delegateClass)
        // Reinstall: a new delegate is tracked again.
        try fixture.install(hook)
        let fresh = try fixture.runtime.allocate(try fixture.host.lookUpClass("MyTableDelegate"))
        table.setDelegate(fresh)
        try fixture.host.driver.select(IndexPath(row: 3, section: 0), in: table)
        #expect(fixture.sink.count == 2)
    }

    /// When KVO observations are added to a delegate, relative to the hook taking it
    /// over at `setDelegate:`, and the order in which they are removed.
    enum ObservationOrder: String, CaseIterable, Sendable {
        case observedBeforeHook, observedAfterHook, twoObserversRemovedFirstToLast, twoObserversRemovedLastToFirst
    }

    static let kvoCases: [(Int, ObservationOrder)] = strategies.indices.flatMap { index in ObservationOrder.allCases.map { (index, $0) } }

    @Test("KVO on a delegate coexists with every technique in every order: removal succeeds, clicks continue, class is the app's",
          arguments: kvoCases)
    func observedDelegate(strategy: Int, order: ObservationOrder) throws {
        let fixture = try Fixture()
        try fixture.install(Self.strategies[strategy])
        let delegate = try fixture.runtime.allocate(try fixture.host.lookUpClass("MyTableDelegate"))
        var tokens: [ObservationToken] = []
        if order != .observedAfterHook { tokens.append(try fixture.runtime.addObservation(of: "title", on: delegate) { _, _ in }) }
        if order == .twoObserversRemovedFirstToLast || order == .twoObserversRemovedLastToFirst {
            tokens.append(try fixture.runtime.addObservation(of: "rowHeight", on: delegate) { _, _ in })
        }
        let table = try makeTable(fixture, delegate: delegate)
        if order == .observedAfterHook { tokens.append(try fixture.runtime.addObservation(of: "title", on: delegate) { _, _ in }) }
        try fixture.host.driver.select(IndexPath(row: 4, section: 0), in: table)
        #expect(fixture.app.log.all == [.click, .delegateSelect(IndexPath(row: 4, section: 0))])
        #expect(try fixture.runtime.reportedClass(of: delegate)?.name == "MyTableDelegate")
        if order == .twoObserversRemovedLastToFirst { tokens.reverse() }
        for token in tokens {
            try fixture.runtime.removeObservation(token)
            try fixture.host.driver.select(IndexPath(row: 1, section: 0), in: table)
        }
        #expect(!fixture.runtime.isObserved(delegate))
        #expect(!delegate.realClass.name.contains("NSKVONotifying"), "KVO's class is gone once its observers are")
        #expect(try fixture.runtime.reportedClass(of: delegate)?.name == "MyTableDelegate")
        #expect(fixture.sink.count == 1 + tokens.count, "a click per selection, before and after each removal")
        #expect(fixture.app.log.count(.delegateSelect(IndexPath(row: 1, section: 0))) == tokens.count)
    }

    @Test("rule 2: two delegate strategies stacked are one click", arguments: [
        (0, 1), (0, 2), (1, 2),
    ])
    func stacked(first: Int, second: Int) throws {
        let fixture = try Fixture()
        try fixture.install(Self.strategies[first])
        try fixture.install(Self.strategies[second])
        let delegate = try fixture.runtime.allocate(try fixture.host.lookUpClass("MySubTableDelegate"))
        let table = try makeTable(fixture, delegate: delegate)
        try fixture.host.driver.select(IndexPath(row: 1, section: 0), in: table)
        #expect(fixture.app.log.all == [.click, .subclassSelect(IndexPath(row: 1, section: 0)), .delegateSelect(IndexPath(row: 1, section: 0))])
    }

    @Test("rule 6: another library's exchange hook on the delegate class, before or after ours: each fires once", arguments: strategies)
    func foreignExchange(hook: any InterceptionHook<ReferenceHost>) throws {
        for foreignFirst in [true, false] {
            let fixture = try Fixture()
            let cls = try fixture.host.lookUpClass("MyTableDelegate")
            let delegate = try fixture.runtime.allocate(cls)
            if foreignFirst {
                installForeignExchangeHook(on: cls, selector: ListSelectors.tableDidSelect, prefix: "rx", runtime: fixture.runtime, log: fixture.app.log, entry: .other)
                try fixture.install(hook)
            } else {
                try fixture.install(hook)
            }
            let table = try makeTable(fixture, delegate: delegate)
            if !foreignFirst {
                installForeignExchangeHook(on: cls, selector: ListSelectors.tableDidSelect, prefix: "rx", runtime: fixture.runtime, log: fixture.app.log, entry: .other)
            }
            try fixture.host.driver.select(IndexPath(row: 2, section: 0), in: table)
            #expect(fixture.app.log.count(.other) == 1, "foreign first: \(foreignFirst)")
            #expect(fixture.app.log.count(.click) == 1, "foreign first: \(foreignFirst)")
            #expect(fixture.app.log.count(.delegateSelect(IndexPath(row: 2, section: 0))) == 1, "foreign first: \(foreignFirst)")
        }
    }
}
