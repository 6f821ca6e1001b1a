import AutoTrackProperties
/// AutoTrackReferenceUI: `ReferenceHost`, `ViewControllerObject`, `ControlObject` … appear in this file's public API.
public import AutoTrackReferenceUI
/// AutoTrackRuntime: `RuntimeError` appears in this file's public API.
public import AutoTrackRuntime

/// The sample app the tests and the demo share, declared in the runtime as an iOS app
/// would declare it:
///
/// - `MyNavigationController` (a `UINavigationController`) holding
/// - `ViewController`: a table with 3 sections of `MyTableViewCell`s (a label and a
///   "Buy" button each), a tap-gesture image view with a long press too, and two bar
///   buttons ("Edit", "Add"); it is its table's delegate;
/// - `CollectionViewController`: a collection of `MyCollectionViewCell`s;
/// - `SettingsViewController`: a switch, a segmented control, a text field, a secure
///   field and a search field;
/// - `PagesViewController`: a page container with four `PageChildViewController`s;
/// - `MyTabBarController`: tabs `OrdersViewController` and `ProfileViewController`,
///   with a tab bar of `UITabBarButton`s;
/// - `FilterViewController`: a sheet (`.pageSheet`) with one label;
/// - `AppDelegate`: the application's and the notification center's delegate, opening
///   links and notifications;
/// - `ShopView`: a SwiftUI screen in a `UIHostingController` (``shopScreen``);
/// - an alert with "Cancel" and "OK";
/// - `MyTableDelegate` and `MySubTableDelegate` (a subclass that calls super), for
///   delegate scenarios.
///
/// Everything the app's own code does is recorded in ``log``.
public final class SampleApp {
    /// The host.
    public let host: ReferenceHost
    /// The app's own record of its originals.
    public let log = AppLog()
    /// The root navigation controller.
    public private(set) var navigation: ViewControllerObject!
    /// The list screen (`ViewController`).
    public private(set) var listScreen: ViewControllerObject!
    /// Its table.
    public private(set) var table: ListViewObject!
    /// Its tap- and long-press-gesture image view.
    public private(set) var bannerImage: ViewObject!
    /// The collection screen.
    public private(set) var collectionScreen: ViewControllerObject!
    /// Settings' Share button, wired with a closure action (`UIAction`).
    public private(set) var shareButton: ControlObject!
    /// Its collection.
    public private(set) var collection: ListViewObject!
    /// The settings screen.
    public private(set) var settingsScreen: ViewControllerObject!
    /// The filter sheet, presented as a page sheet.
    public private(set) var filterSheet: ViewControllerObject!
    /// Settings controls.
    public private(set) var notificationsSwitch: ControlObject!
    /// The segmented control.
    public private(set) var themeSegments: ControlObject!
    /// The volume slider (value 0…1, continuous).
    public private(set) var volumeSlider: ControlObject!
    /// The quantity stepper.
    public private(set) var quantityStepper: ControlObject!
    /// The plain text field.
    public private(set) var nameField: ControlObject!
    /// The secure field.
    public private(set) var passwordField: ControlObject!
    /// The search field (inside a search bar).
    public private(set) var searchField: ControlObject!
    /// The page container.
    public private(set) var pagesScreen: ViewControllerObject!
    /// A tab bar controller (`MyTabBarController`) with "Orders" and "Profile" tabs,
    /// presented from the list.
    public private(set) var accountTabs: ViewControllerObject!
    /// The app delegate (`AppDelegate`), also the notification center's delegate.
    public internal(set) var appDelegate: RuntimeObject!
    /// The SwiftUI shop (`ShopView` in a `UIHostingController`), and its state.
    public private(set) var shopScreen: ViewControllerObject!
    /// The state the shop screen shows.
    public let shopState = ShopState()

    /// Builds the app's classes and screens in `host`; call ``launch()`` to show it.
    public init(host: ReferenceHost) throws(RuntimeError) {
        self.host = host
        try defineClasses()
        try defineAppDelegate()
        try buildScreens()
        try connectAppDelegate()
        shopScreen = try makeShopScreen(state: shopState)
    }

    /// Builds the app in a fresh host.
    public convenience init() throws(RuntimeError) {
        try self.init(host: try ReferenceHost())
    }

    /// Makes the navigation controller the window's root: the list screen appears,
    /// within the first turn of the main run loop.
    public func launch() throws(RuntimeError) {
        let confinement = host.enterUIThread("launch")
        defer { host.leaveUIThread(confinement) }
        try host.transitions.setRoot(navigation)
    }

    // MARK: Classes

    /// A method that records `entry` then calls super (from `cls`) with its bool.
    private func appearance(_ selector: Selector, _ cls: RuntimeClass, _ entry: AppLogEntry) -> (Selector, String, Implementation) {
        let log = self.log
        return (selector, "v@:c", .procedure("-[\(cls.name) \(selector)]") { (message: Message, animated: Bool) throws(RuntimeError) in
            log.record(entry, selector: selector.name, receiver: message.receiver, arguments: [.bool(animated)])
            try message.runtime.sendSuper(message.receiver, from: cls, selector, [.bool(animated)])
        })
    }

    private func recorder(_ selector: Selector, _ entry: AppLogEntry, types: String = "v@:@") -> (Selector, String, Implementation) {
        let log = self.log
        return (selector, types, Implementation("app \(selector)") { message in
            log.record(entry, selector: selector.name, receiver: message.receiver, arguments: Array(message.arguments))
            return .void
        })
    }

    func define(_ name: String, superclass: String, methods: (RuntimeClass) -> [(Selector, String, Implementation)]) throws(RuntimeError) {
        guard let parent = host.runtime.lookUpClass(superclass) else { throw .classNotFound(superclass) }
        let cls = try host.runtime.allocateClassPair(superclass: parent, name: name)
        for (selector, types, implementation) in methods(cls) {
            host.runtime.addMethod(to: cls, selector, implementation, types: types)
        }
        try host.runtime.registerClassPair(cls)
    }

    private func defineClasses() throws(RuntimeError) {
        let log = self.log
        try define("MyNavigationController", superclass: "UINavigationController") { _ in [] }
        try define("MyTabBarController", superclass: "UITabBarController") { _ in [] }
        for screen in [
            "ViewController", "CollectionViewController", "SettingsViewController", "PagesViewController", "PageChildViewController",
            "OrdersViewController", "ProfileViewController", "FilterViewController",
        ] {
            let superclass = screen == "PagesViewController" ? "UIPageViewController" : "UIViewController"
            try define(screen, superclass: superclass) { [unowned self] cls in
                var methods = [
                    appearance("viewDidAppear:", cls, .viewDidAppear(screen)),
                    appearance("viewWillAppear:", cls, .viewWillAppear(screen)),
                ]
                if screen == "ViewController" {
                    methods += [
                        (ListSelectors.tableDidSelect, "v@:@@", .procedure("-[ViewController tableView:didSelectRowAtIndexPath:]") {
                            (message: Message, table: RuntimeObject?, indexPath: IndexPath) in
                            log.record(.listSelect(indexPath), selector: ListSelectors.tableDidSelect.name,
                                       receiver: message.receiver, arguments: [.object(table), .value(indexPath)])
                        }),
                        recorder("buyTapped:", .buy), recorder("editTapped:", .edit), recorder("addTapped:", .add),
                        recorder("bannerTapped:", .bannerTap),
                        (Selector("bannerPressed:"), "v@:@", .procedure("-[ViewController bannerPressed:]") { (message: Message, recognizer: GestureRecognizerObject) in
                            log.record(.bannerPress(recognizer.state), selector: "bannerPressed:", receiver: message.receiver,
                                       arguments: [.object(recognizer), .value(recognizer.state)])
                        }),
                    ]
                }
                if screen == "CollectionViewController" {
                    methods.append((ListSelectors.collectionDidSelect, "v@:@@", .procedure("-[CollectionViewController collectionView:didSelectItemAtIndexPath:]") {
                        (message: Message, collection: RuntimeObject?, indexPath: IndexPath) in
                        log.record(.collectionSelect(indexPath), selector: ListSelectors.collectionDidSelect.name,
                                   receiver: message.receiver, arguments: [.object(collection), .value(indexPath)])
                    }))
                }
                if screen == "SettingsViewController" {
                    methods += [
                        recorder("switchChanged:", .switchChanged), recorder("themeChanged:", .themeChanged),
                        recorder("nameChanged:", .nameChanged), recorder("passwordChanged:", .passwordChanged),
                        recorder("volumeChanged:", .volumeChanged), recorder("quantityChanged:", .quantityChanged),
                    ]
                }
                return methods
            }
        }
        try define("MyTableViewCell", superclass: "UITableViewCell") { _ in [] }
        try define("MyCollectionViewCell", superclass: "UICollectionViewCell") { _ in [] }
        try define("MyTableDelegate", superclass: "NSObject") { _ in
            [(ListSelectors.tableDidSelect, "v@:@@", .procedure("-[MyTableDelegate tableView:didSelectRowAtIndexPath:]") {
                (message: Message, table: RuntimeObject?, indexPath: IndexPath) in
                log.record(.delegateSelect(indexPath), selector: ListSelectors.tableDidSelect.name,
                           receiver: message.receiver, arguments: [.object(table), .value(indexPath)])
            })]
        }
        try define("MySubTableDelegate", superclass: "MyTableDelegate") { cls in
            [(ListSelectors.tableDidSelect, "v@:@@", .procedure("-[MySubTableDelegate tableView:didSelectRowAtIndexPath:]") {
                (message: Message, table: RuntimeObject?, indexPath: IndexPath) throws(RuntimeError) in
                log.record(.subclassSelect(indexPath))
                try message.runtime.sendSuper(message.receiver, from: cls, ListSelectors.tableDidSelect, [.object(table), .value(indexPath)])
            })]
        }
    }

    // MARK: Screens

    private func buildScreens() throws(RuntimeError) {
        navigation = try host.makeController("MyNavigationController")
        listScreen = try host.makeController("ViewController", title: "商品列表")
        listScreen.navigationTitle = "Products"
        let list = listScreen!
        listScreen.rightBarButtonItems = [
            BarButtonItem(title: "Edit", target: list, action: "editTapped:"),
            BarButtonItem(title: "Add", target: list, action: "addTapped:"),
        ]
        try host.runtime.call(navigation, "addChildViewController:", listScreen)

        let root = listScreen.view
        bannerImage = try host.makeView("UIImageView", frame: Rect(x: 0, y: 88, width: 390, height: 120))
        bannerImage.imageName = "banner"
        root.addSubview(bannerImage)
        bannerImage.addGestureRecognizer(try host.makeGestureRecognizer("UITapGestureRecognizer", target: list, action: "bannerTapped:"))
        bannerImage.addGestureRecognizer(try host.makeGestureRecognizer("UILongPressGestureRecognizer", target: list, action: "bannerPressed:"))

        let host = self.host
        table = try host.makeList("UITableView", content: ListContent(rowsPerSection: [6, 4, 3], cellClass: { _ in "MyTableViewCell" }) {
            cell, indexPath in
            let content: ViewObject = cell.contentView
            // A data source cannot throw: the cell's views are the framework's own classes.
            if content.subviews.isEmpty, let label = try? host.makeLabel(""),
               let buy = try? host.makeControl("UIButton", title: "Buy", frame: Rect(x: 300, y: 8, width: 60, height: 28)) {
                content.addSubview(label)
                try? buy.addTarget(list, action: "buyTapped:", for: .touchUpInside)
                content.addSubview(buy)
            }
            content.subviews[0].text = indexPath.section == 0 ? "CELL" : "Item \(indexPath.section)-\(indexPath.row)"
        })
        table.frame = Rect(x: 0, y: 208, width: 390, height: 636)
        // 13 rows of 60 points: the last two start below the fold.
        table.rowHeight = 60
        root.addSubview(table)
        table.setDelegate(listScreen)
        table.reloadData()

        filterSheet = try host.makeController("FilterViewController", title: "Filter")
        filterSheet.modalPresentationStyle = .pageSheet
        filterSheet.view.addSubview(try host.makeLabel("Sort by price"))

        collectionScreen = try host.makeController("CollectionViewController", title: "Collection")
        collection = try host.makeList("UICollectionView", content: ListContent(rowsPerSection: [8], cellClass: { _ in "MyCollectionViewCell" }) {
            cell, indexPath in
            let content: ViewObject = cell.contentView
            if content.subviews.isEmpty, let label = try? host.makeLabel("") { content.addSubview(label) }
            content.subviews[0].text = "Tile \(indexPath.item)"
        })
        collection.frame = Rect(x: 0, y: 88, width: 390, height: 756)
        collectionScreen.view.addSubview(collection)
        collection.setDelegate(collectionScreen)
        collection.reloadData()

        settingsScreen = try host.makeController("SettingsViewController", title: "Settings")
        let settings = settingsScreen!
        let settingsRoot = settingsScreen.view
        notificationsSwitch = try host.makeControl("UISwitch", frame: Rect(x: 300, y: 100, width: 51, height: 31))
        try notificationsSwitch.addTarget(settings, action: "switchChanged:", for: .valueChanged)
        themeSegments = try host.makeControl("UISegmentedControl", frame: Rect(x: 16, y: 150, width: 358, height: 32))
        themeSegments.segmentTitles = ["Light", "Dark", "Auto"]
        try themeSegments.addTarget(settings, action: "themeChanged:", for: .valueChanged)
        nameField = try host.makeControl("UITextField", frame: Rect(x: 16, y: 200, width: 358, height: 34))
        try nameField.addTarget(settings, action: "nameChanged:", for: .editingChanged)
        passwordField = try host.makeControl("UITextField", frame: Rect(x: 16, y: 250, width: 358, height: 34))
        passwordField.isSecureTextEntry = true
        try passwordField.addTarget(settings, action: "passwordChanged:", for: .editingChanged)
        let searchBar = try host.makeView("UISearchBar", frame: Rect(x: 0, y: 300, width: 390, height: 56))
        searchField = try host.makeControl("UISearchBarTextField", frame: Rect(x: 8, y: 10, width: 374, height: 36))
        try searchField.addTarget(searchBar, action: "_searchFieldBeginEditing", for: .editingDidBegin)
        try searchField.addTarget(searchBar, action: "_searchFieldEndEditing", for: .editingDidEnd)
        searchBar.addSubview(searchField)
        // A button wired with a closure (UIAction), as iOS 14+ apps do.
        shareButton = try host.makeControl("UIButton", title: "Share", frame: Rect(x: 16, y: 380, width: 120, height: 44))
        let log = self.log
        try shareButton.addAction(title: "share", for: .touchUpInside) { _ in log.record(.share) }
        volumeSlider = try host.makeControl("UISlider", frame: Rect(x: 16, y: 440, width: 358, height: 31))
        volumeSlider.value = 0.5
        try volumeSlider.addTarget(settings, action: "volumeChanged:", for: .valueChanged)
        quantityStepper = try host.makeControl("UIStepper", frame: Rect(x: 16, y: 490, width: 94, height: 32))
        quantityStepper.value = 1
        try quantityStepper.addTarget(settings, action: "quantityChanged:", for: .valueChanged)
        for view in [notificationsSwitch!, themeSegments!, nameField!, passwordField!] as [ViewObject]
            + [searchBar, shareButton!, volumeSlider!, quantityStepper!] {
            settingsRoot.addSubview(view)
        }

        pagesScreen = try host.makeController("PagesViewController", title: "Pages")
        for index in 0..<4 {
            let page = try host.makeController("PageChildViewController", title: "Page \(index)")
            try host.runtime.call(pagesScreen, "addChildViewController:", page)
            page.view.addSubview(try host.makeLabel("Page \(index) content"))
        }

        accountTabs = try host.makeController("MyTabBarController", title: "Account")
        for (screen, title) in [("OrdersViewController", "Orders"), ("ProfileViewController", "Profile")] {
            let tab = try host.makeController(screen, title: title)
            try host.runtime.call(accountTabs, "addChildViewController:", tab)
            tab.view.addSubview(try host.makeLabel("\(title) content"))
        }
    }

    /// An alert titled "退群" with "Cancel" and "OK" actions that record their taps.
    public func makeAlert() throws(RuntimeError) -> ViewControllerObject {
        let alert = try host.makeAlert(title: "退群", message: "確認退出群聊嗎？")
        let log = self.log
        for (title, style, entry) in [("Cancel", AlertActionStyle.cancel, AppLogEntry.alertCancel), ("OK", .default, .alertOK)] {
            let action = try host.makeAlertAction(title: title, style: style) { action in
                log.record(entry, selector: "handler", receiver: action, arguments: [])
            }
            try host.runtime.call(alert, "addAction:", action)
        }
        return alert
    }
}
