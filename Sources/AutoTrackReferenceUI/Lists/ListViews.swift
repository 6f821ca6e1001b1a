/// AutoTrackProperties: `ListPosition` appears in this file's public API.
public import AutoTrackProperties
/// AutoTrackRuntime: `RuntimeObject`, `Selector` appear in this file's public API.
public import AutoTrackRuntime

/// What a list shows: section sizes, the cell class per row and how to fill a cell.
/// The reference host keeps data on the Swift side; apps' data layers are not what
/// autotrack hooks.
public struct ListContent {
    /// Rows (or items) per section.
    public var rowsPerSection: [Int]
    /// The cell class name for an index path.
    public var cellClass: (IndexPath) -> String
    /// Fills a (new or reused) cell for an index path.
    public var configure: (CellObject, IndexPath) -> Void

    /// Creates list content.
    public init(
        rowsPerSection: [Int], cellClass: @escaping (IndexPath) -> String,
        configure: @escaping (CellObject, IndexPath) -> Void = { _, _ in }
    ) {
        self.rowsPerSection = rowsPerSection
        self.cellClass = cellClass
        self.configure = configure
    }

    /// Every index path, in order.
    public var indexPaths: [IndexPath] {
        rowsPerSection.enumerated().flatMap { section, rows in (0..<rows).map { IndexPath(item: $0, section: section) } }
    }
}

/// The Swift-side storage of a table or collection view.
public final class ListViewObject: ViewObject, @unchecked Sendable {
    // Safe by confinement to the UI thread.

    /// The delegate, held weakly as UIKit holds it.
    public internal(set) weak var delegate: RuntimeObject?
    /// The delegate's `respondsToSelector:` answers, taken when it was set.
    public internal(set) var delegateResponds: [Selector: Bool] = [:]
    /// What the list shows.
    public var content: ListContent?
    /// The cells on screen by index path.
    public internal(set) var visibleCells: [IndexPath: CellObject] = [:] { didSet { hierarchyVersion.bump() } }
    /// Cells waiting to be reused, by class name.
    var reusePool: [String: [CellObject]] = [:]
    /// How far the list has scrolled down: the bounds' vertical origin.
    public internal(set) var contentOffset: Double {
        get { boundsOrigin.y }
        set { boundsOrigin.y = newValue }
    }
    /// A table row's height, in points.
    public var rowHeight: Double = 44
    /// A collection's items per row (each a equal share of the width).
    public var itemsPerRow = 3
    /// A collection item's height, in points.
    public var itemHeight: Double = 120

    /// Where the row (or item) at `indexPath` sits in the list's content: rows one
    /// under another, section after section; items in rows of ``itemsPerRow``.
    public func frameForItem(at indexPath: IndexPath) -> Rect {
        let before = (content?.rowsPerSection.prefix(indexPath.section).reduce(0, +) ?? 0) + indexPath.item
        if role == .table { return Rect(x: 0, y: Double(before) * rowHeight, width: frame.width, height: rowHeight) }
        let columns = max(1, itemsPerRow)
        let width = frame.width / Double(columns)
        return Rect(x: Double(before % columns) * width, y: Double(before / columns) * itemHeight, width: width, height: itemHeight)
    }

    deinit {
        for cell in visibleCells.values { cell.listStorage = nil }
        for cells in reusePool.values { for cell in cells { cell.listStorage = nil } }
    }

    /// `tableView:didSelectRowAtIndexPath:` or `collectionView:didSelectItemAtIndexPath:`.
    public var didSelectSelector: Selector { role == .table ? ListSelectors.tableDidSelect : ListSelectors.collectionDidSelect }

    /// The cell at `indexPath`.
    public func cell(at indexPath: IndexPath) -> CellObject? { visibleCells[indexPath] }

    /// The index path of `cell`.
    public func indexPath(for cell: CellObject) -> IndexPath? {
        visibleCells.first { $0.value === cell }?.key
    }

    /// Places `cell` at `indexPath` without data-source involvement (for system lists).
    public func placeCell(_ cell: CellObject, at indexPath: IndexPath) {
        visibleCells[indexPath] = cell
        cell.listStorage = self
        if cell.superview !== self { insertSubviewStorage(cell, at: subviews.count) }
    }

    /// Sets the delegate through `setDelegate:` (hookable).
    public func setDelegate(_ delegate: RuntimeObject?) {
        _ = try? host.runtime.send(self, "setDelegate:", MessageArguments(.object(delegate)))
    }

    /// Reloads through `reloadData`.
    public func reloadData() {
        _ = try? host.runtime.send(self, "reloadData")
    }
}

/// The Swift-side storage of a table or collection cell.
public final class CellObject: ViewObject, @unchecked Sendable {
    // Safe by confinement to the UI thread.

    /// Not reference counted (a weak reference would put every retain of the list on
    /// the slow side-table path): set only while the list shows or pools the cell, and
    /// cleared when the list is released.
    unowned(unsafe) var listStorage: ListViewObject? { didSet { hierarchyVersion.bump() } }

    /// The list showing the cell.
    public var list: ListViewObject? { listStorage }
    /// The content view, where apps put their subviews.
    public internal(set) var contentView: ViewObject!

    /// The cell's position, when a list shows it.
    public override var listPosition: ListPosition? {
        guard let list, let indexPath = list.indexPath(for: self) else { return nil }
        return ListPosition(section: indexPath.section, index: indexPath.item)
    }
}

/// The delegate selectors lists send.
public enum ListSelectors {
    /// `tableView:didSelectRowAtIndexPath:`
    public static let tableDidSelect = Selector("tableView:didSelectRowAtIndexPath:")
    /// `collectionView:didSelectItemAtIndexPath:`
    public static let collectionDidSelect = Selector("collectionView:didSelectItemAtIndexPath:")
    /// `tableView:heightForRowAtIndexPath:`
    public static let tableHeight = Selector("tableView:heightForRowAtIndexPath:")
    /// `tableView:willDisplayCell:forRowAtIndexPath:`
    public static let tableWillDisplay = Selector("tableView:willDisplayCell:forRowAtIndexPath:")
    /// `collectionView:willDisplayCell:forItemAtIndexPath:`
    public static let collectionWillDisplay = Selector("collectionView:willDisplayCell:forItemAtIndexPath:")
    /// `scrollViewDidScroll:`
    public static let scrollViewDidScroll = Selector("scrollViewDidScroll:")
}

/// `UITableView`, `UICollectionView` and their cells.
enum ListClasses {
    static func define(in host: ReferenceHost) throws(RuntimeError) {
        let runtime = host.runtime
        let scroll = runtime.lookUpClass("UIScrollView")!
        let view = runtime.lookUpClass("UIView")!
        for (name, role) in [("UITableView", ElementRole.table), ("UICollectionView", .collection)] {
            let isTable = role == .table
            let delegateSelectors = isTable
                ? [ListSelectors.tableDidSelect, ListSelectors.tableHeight, ListSelectors.tableWillDisplay, ListSelectors.scrollViewDidScroll]
                : [ListSelectors.collectionDidSelect, ListSelectors.collectionWillDisplay, ListSelectors.scrollViewDidScroll]
            let cls = try runtime.defineClass(name, superclass: scroll, methods: [
                // UIKit asks the delegate what it implements once, here, and caches it.
                ("setDelegate:", "v@:@", .procedure("-[\(name) setDelegate:]") { (message: Message, delegate: RuntimeObject?) throws(RuntimeError) in
                    guard let list = message.receiver as? ListViewObject else { return }
                    list.delegate = delegate
                    var answers: [Selector: Bool] = [:]
                    for selector in delegateSelectors { answers[selector] = try message.runtime.responds(delegate, to: selector) }
                    list.delegateResponds = answers
                }),
                ("delegate", "@@:", .returning("-[\(name) delegate]") { (message: Message) -> RuntimeObject? in
                    (message.receiver as? ListViewObject)?.delegate
                }),
                ("reloadData", "v@:", .procedure("-[\(name) reloadData]") { message throws(RuntimeError) in
                    guard let list = message.receiver as? ListViewObject else { return }
                    try reload(list, isTable: isTable, runtime: message.runtime)
                }),
                // Private: a user's tap on a row, after highlighting.
                ("_userSelectItemAtIndexPath:", "v@:@", .procedure("-[\(name) _userSelectItemAtIndexPath:]") {
                    (message: Message, indexPath: IndexPath) throws(RuntimeError) in
                    guard let list = message.receiver as? ListViewObject, list.delegateResponds[list.didSelectSelector] == true,
                          let delegate = list.delegate else { return }
                    try message.runtime.call(delegate, list.didSelectSelector, list, indexPath)
                }),
                ("_scrollBy:", "v@:d", .procedure("-[\(name) _scrollBy:]") { (message: Message, distance: Double) throws(RuntimeError) in
                    guard let list = message.receiver as? ListViewObject else { return }
                    list.contentOffset += distance
                    if list.delegateResponds[ListSelectors.scrollViewDidScroll] == true, let delegate = list.delegate {
                        try message.runtime.call(delegate, ListSelectors.scrollViewDidScroll, list)
                    }
                }),
            ])
            host.register(cls, storage: .list(role))
        }
        host.register(try runtime.defineClass("UITableViewCell", superclass: view), storage: .cell(.tableCell))
        host.register(try runtime.defineClass("UICollectionViewCell", superclass: view), storage: .cell(.collectionCell))
        host.register(try runtime.defineClass("_UIAlertControllerCollectionViewCell", superclass: runtime.lookUpClass("UICollectionViewCell")!),
                      storage: .cell(.collectionCell))
    }

    /// Reuses cells: every shown cell goes back to the pool, and rows take cells from
    /// the end of the pool — so after a reload a row may get another cell object, as
    /// in UIKit. Asks the delegate for heights and announces displays when it said it
    /// implements them.
    static func reload(_ list: ListViewObject, isTable: Bool, runtime: Runtime) throws(RuntimeError) {
        guard let content = list.content else { return }
        for (_, cell) in list.visibleCells.sorted(by: { $0.key < $1.key }) {
            cell.removeFromSuperviewStorage()
            list.reusePool[cell.realClass.name, default: []].append(cell)
        }
        list.visibleCells.removeAll()
        for indexPath in content.indexPaths {
            let className = content.cellClass(indexPath)
            let cell: CellObject
            if let reused = list.reusePool[className]?.popLast() {
                cell = reused
            } else {
                cell = try list.host.makeCell(className)
            }
            content.configure(cell, indexPath)
            list.placeCell(cell, at: indexPath)
            cell.frame = list.frameForItem(at: indexPath)
            let delegate = list.delegate
            if isTable {
                if list.delegateResponds[ListSelectors.tableHeight] == true {
                    try runtime.send(delegate, ListSelectors.tableHeight, MessageArguments(.object(list), .value(indexPath)))
                }
                if list.delegateResponds[ListSelectors.tableWillDisplay] == true {
                    try runtime.send(delegate, ListSelectors.tableWillDisplay, MessageArguments(.object(list), .object(cell), .value(indexPath)))
                }
            } else if list.delegateResponds[ListSelectors.collectionWillDisplay] == true {
                try runtime.send(delegate, ListSelectors.collectionWillDisplay, MessageArguments(.object(list), .object(cell), .value(indexPath)))
            }
        }
    }
}
