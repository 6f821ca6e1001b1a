/// AutoTrackInterception: `InterceptionPoint` appears in this file's public API.
public import AutoTrackInterception
import AutoTrackProperties
/// AutoTrackReferenceUI: `ListViewObject` appears in this file's public API.
public import AutoTrackReferenceUI
/// AutoTrackRuntime: `RuntimeObject` appears in this file's public API.
public import AutoTrackRuntime
/// AutoTrackSampleApp: `AppLogEntry` appears in this file's public API.
public import AutoTrackSampleApp

/// One user action at an interception point, on the sample app: how to build what it
/// needs (after the hook is installed, as an app builds its UI after SDK setup), how
/// to perform it, and what the original logs when it runs.
public struct PointFixture: Sendable {
    /// Builds the element (and resets the counts).
    public let prepare: @Sendable (ScenarioRun) throws -> Void
    /// Performs one user action.
    public let trigger: @Sendable (ScenarioRun) throws -> Void
    /// The log entry of the original the action runs.
    public let original: AppLogEntry

    /// The fixture of `point`.
    public static func of(_ point: InterceptionPoint) -> PointFixture {
        switch point {
        case .sendAction: sendAction
        case .gesture: gesture
        case .alertAction: alertAction
        case .delegateSelection: delegateSelection
        case .screenView: screenView
        case .swiftUITap: swiftUITap
        case .touchEnd: touchEnd
        case .openURL: openURL
        case .notificationResponse: notificationResponse
        default: missing(point)
        }
    }

    /// Why a scenario could not run: the kit has no fixture for a point a host added.
    public struct MissingFixture: Error, Hashable, Sendable, CustomStringConvertible {
        /// The point.
        public let point: InterceptionPoint
        /// What went wrong.
        public var description: String { "the kit has no user action at the point '\(point)' to run this scenario with" }
    }

    /// A fixture whose every step reports ``MissingFixture``.
    static func missing(_ point: InterceptionPoint) -> PointFixture {
        PointFixture(prepare: { _ in throw MissingFixture(point: point) }, trigger: { _ in throw MissingFixture(point: point) }, original: .noOriginal)
    }

    static let sendAction = PointFixture(
        prepare: { run in
            let button = try run.host.makeControl("UIButton", title: "Buy now", frame: Rect(x: 10, y: 500, width: 100, height: 40))
            run.app.listScreen.view.addSubview(button)
            try button.addTarget(run.app.listScreen, action: "buyTapped:", for: .touchUpInside)
            run.preparedAction = { run in try run.host.driver.tap(button) }
            try run.app.launch()
            run.resetCounts()
        },
        trigger: { run in try run.preparedAction?(run) },
        original: .buy)

    static let gesture = PointFixture(
        prepare: { run in
            let image = try run.host.makeView("UIImageView", frame: Rect(x: 0, y: 500, width: 120, height: 120))
            run.app.listScreen.view.addSubview(image)
            image.addGestureRecognizer(try run.host.makeGestureRecognizer("UITapGestureRecognizer", target: run.app.listScreen, action: "bannerTapped:"))
            run.preparedAction = { run in try run.host.driver.tap(gesturesOn: image) }
            try run.app.launch()
            run.resetCounts()
        },
        trigger: { run in try run.preparedAction?(run) },
        original: .bannerTap)

    static let alertAction = PointFixture(
        prepare: { run in
            try run.app.launch()
            run.resetCounts()
        },
        trigger: { run in
            let alert = try run.app.makeAlert()
            try run.host.driver.present(alert, from: run.app.listScreen)
            try run.host.driver.tapAlertAction(titled: "OK")
        },
        original: .alertOK)

    static let delegateSelection = PointFixture(
        prepare: { run in
            let delegate = try run.runtime.allocate(try run.host.lookUpClass("MyTableDelegate"))
            let table = try makeTable(run, delegate: delegate)
            run.preparedAction = { run in
                withExtendedLifetime(delegate) {}
                try run.host.driver.select(IndexPath(row: 2, section: 0), in: table)
            }
            try run.app.launch()
            run.resetCounts()
        },
        trigger: { run in try run.preparedAction?(run) },
        original: .delegateSelect(IndexPath(row: 2, section: 0)))

    static let screenView = PointFixture(
        prepare: { run in
            try run.app.launch()
            run.resetCounts()
        },
        trigger: { run in
            try run.host.driver.push(try run.host.makeController("SettingsViewController", title: "Settings"), on: run.app.navigation)
        },
        original: .viewDidAppear("SettingsViewController"))

    /// A tap on the SwiftUI shop's "Add to cart" button, the shop pushed on the
    /// navigation stack.
    static let swiftUITap = PointFixture(
        prepare: { run in
            try run.app.launch()
            let shop = try run.app.makeShopScreen()
            try run.host.driver.push(shop, on: run.app.navigation)
            run.preparedAction = { run in try run.host.driver.tap("Add to cart", in: try shop.requireHostingView()) }
            run.resetCounts()
        },
        trigger: { run in try run.preparedAction?(run) },
        original: .addToCart)

    /// A finger's tap on the list screen's banner, through `-[UIApplication
    /// sendEvent:]`: its tap recognizer runs `bannerTapped:`.
    static let touchEnd = PointFixture(
        prepare: { run in
            try run.app.launch()
            run.resetCounts()
        },
        trigger: { run in try run.host.driver.touch(run.app.bannerImage) },
        original: .bannerTap)

    /// The link every open-url scenario opens.
    public static let link = "shop://product/42?utm_source=newsletter"

    /// The app delegate is asked to open ``link``.
    static let openURL = PointFixture(
        prepare: { run in
            try run.app.launch()
            run.resetCounts()
        },
        trigger: { run in try run.host.driver.open(link: link) },
        original: .openLink(link))

    /// The user opens a notification titled "Sale".
    static let notificationResponse = PointFixture(
        prepare: { run in
            try run.app.launch()
            run.resetCounts()
        },
        trigger: { run in try run.host.driver.openNotification(title: "Sale", body: "50% off today") },
        original: .openNotification("Sale"))

    /// A table on the list screen with rows `Row 0` …, and `delegate`.
    public static func makeTable(_ run: ScenarioRun, delegate: RuntimeObject?, rows: Int = 6) throws -> ListViewObject {
        let host = run.host
        let table = try host.makeList("UITableView", content: ListContent(rowsPerSection: [rows], cellClass: { _ in "MyTableViewCell" }) { cell, indexPath in
            let content: ViewObject = cell.contentView
            if content.subviews.isEmpty, let label = try? host.makeLabel("") { content.addSubview(label) }
            content.subviews[0].text = "Row \(indexPath.row)"
        })
        run.app.listScreen.view.addSubview(table)
        table.setDelegate(delegate)
        table.reloadData()
        return table
    }
}
