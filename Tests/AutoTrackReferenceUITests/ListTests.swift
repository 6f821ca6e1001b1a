import AutoTrackEvents
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import Testing

@Suite("Table and collection views: delegate caching, selection, other messages, reuse")
struct ListTests {
    let app: SampleApp
    init() throws {
        app = try SampleApp()
        try app.launch()
        app.log.clear()
    }

    @Test("selection calls didSelect on the delegate with the list and index path")
    func selection() throws {
        try app.host.driver.select(IndexPath(row: 5, section: 0), in: app.table)
        try app.host.driver.select(IndexPath(item: 2, section: 0), in: app.collection)
        #expect(app.log.all == [.listSelect(IndexPath(row: 5, section: 0)), .collectionSelect(IndexPath(item: 2, section: 0))])
    }

    @Test("respondsToSelector: answers are taken when the delegate is set; setting it again refreshes them")
    func cachedResponds() throws {
        let host = app.host
        let table = try host.makeList("UITableView", content: app.table.content)
        let delegate = try host.runtime.allocate(try host.lookUpClass("MyTableDelegate"))
        let asks = CallCounter("respondsToSelector:", in: host.runtime.rootClass, runtime: host.runtime)
        table.setDelegate(delegate)
        let asked = asks.count
        #expect(asked == 4, "didSelect, height, willDisplay, scrollViewDidScroll")
        try host.driver.select(IndexPath(row: 1, section: 0), in: table)
        try host.driver.select(IndexPath(row: 2, section: 0), in: table)
        #expect(asks.count == asked, "selection uses the cached answer")
        #expect(app.log.all == [.delegateSelect(IndexPath(row: 1, section: 0)), .delegateSelect(IndexPath(row: 2, section: 0))])
        // Remove the method: the cached answer still says yes until the delegate is set again.
        let plain = try host.runtime.allocate(try host.runtime.defineClass("PlainDelegate"))
        table.setDelegate(plain)
        try host.driver.select(IndexPath(row: 1, section: 0), in: table)
        #expect(app.log.all.count == 2, "didSelect is sent only if implemented")
        #expect(asks.count == asked * 2)
    }

    @Test("height and willDisplay are asked during reload, scrollViewDidScroll on scroll, only when implemented")
    func otherDelegateMessages() throws {
        let host = app.host
        let log = app.log
        let cls = try host.runtime.defineClass("RichDelegate", methods: [
            (ListSelectors.tableHeight, "d@:@@", .returning("height") { (_: Message, _: RuntimeObject?, _: IndexPath) in
                log.record(.height)
                return 44.0
            }),
            (ListSelectors.tableWillDisplay, "v@:@@@", Implementation("willDisplay") { _ in
                log.record(.willDisplay)
                return .void
            }),
            (ListSelectors.scrollViewDidScroll, "v@:@", Implementation("scroll") { _ in
                log.record(.scroll)
                return .void
            }),
        ])
        let delegate = try host.runtime.allocate(cls)
        let table = try host.makeList("UITableView", content: ListContent(rowsPerSection: [2], cellClass: { _ in "UITableViewCell" }))
        table.setDelegate(delegate)
        table.reloadData()
        try host.driver.scroll(table, by: 100)
        try host.driver.select(IndexPath(row: 0, section: 0), in: table)
        #expect(log.all == [.height, .willDisplay, .height, .willDisplay, .scroll])
    }

    @Test("the delegate is held weakly: a released delegate gets nothing")
    func weakDelegate() throws {
        let host = app.host
        let table = try host.makeList("UITableView", content: app.table.content)
        do {
            let delegate = try host.runtime.allocate(try host.lookUpClass("MyTableDelegate"))
            table.setDelegate(delegate)
            #expect(try host.runtime.call(table, "delegate", returning: RuntimeObject?.self) === delegate)
        }
        #expect(try host.runtime.call(table, "delegate", returning: RuntimeObject?.self) == nil)
        try host.driver.select(IndexPath(row: 0, section: 0), in: table)
        #expect(app.log.all.isEmpty)
    }

    @Test("reload reuses cells: a row may get another cell object, content is refilled")
    func reuse() throws {
        let before = try #require(app.table.cell(at: IndexPath(row: 0, section: 0)))
        let count = app.table.visibleCells.count
        app.table.reloadData()
        let after = try #require(app.table.cell(at: IndexPath(row: 0, section: 0)))
        #expect(before !== after, "row 0 got another cell object")
        #expect(app.table.visibleCells.count == count)
        #expect(Set(app.table.visibleCells.values.map(ObjectIdentifier.init)).count == count, "no cell shown twice")
        #expect(ElementContentExtractor().content(of: after) == "CELL-Buy")
    }

    @Test("from the element model alone, a cell yields the tutorials' values")
    func seedValuesFromModel() throws {
        let cell = try #require(app.table.cell(at: IndexPath(row: 5, section: 0)))
        let properties = ClickProperties(device: .current(appVersion: "1.0")).collect(for: cell)
        #expect(properties["$element_content"] == "CELL-Buy")
        #expect(properties["$element_position"] == "0:5")
        #expect(properties["$screen_name"] == "ViewController")
        #expect(properties["$title"] == "Products")
        #expect(properties["$element_path"]
            == "ViewController[0]/UIView[0]/UITableView[0]/MyTableViewCell#[0,5]")
    }
}
