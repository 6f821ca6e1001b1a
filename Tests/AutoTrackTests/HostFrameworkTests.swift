import AutoTrack
import AutoTrackEvents
import AutoTrackTesting
import AutoTrackInterception
import AutoTrackProperties
import Foundation
import Testing

/// A host framework that is neither UIKit nor the reference host: its own widget and
/// page types, no runtime, no hooks — it reports interactions itself, as a UI
/// framework with callbacks of its own would.
enum MiniHost {
    final class Widget: ElementNode {
        let typeName: String
        var typeHierarchy: [String] { [typeName, "MiniWidget"] }
        let role: ElementRole
        weak var parent: Widget?
        var children: [Widget] = []
        let label: String?
        unowned let page: Page
        var frame = Rect(x: 0, y: 0, width: 100, height: 40)

        init(_ typeName: String, role: ElementRole = .view, label: String? = nil, page: Page) {
            self.typeName = typeName
            self.role = role
            self.label = label
            self.page = page
        }

        @discardableResult
        func add(_ child: Widget) -> Widget {
            child.parent = self
            children.append(child)
            return child
        }

        var parentElement: (any ElementNode)? { parent }
        var childElements: [any ElementNode] { children }
        var isHidden: Bool { false }
        var alpha: Double { 1 }
        var accessibilityIdentifier: String? { nil }
        var ownText: String? { label }
        var isOn: Bool? { nil }
        var titleColor: Color? { nil }
        var imageName: String? { nil }
        var listPosition: ListPosition? { nil }
        var actionNames: [String] { [] }
        var rootViewScreen: (any ScreenNode)? { parent == nil ? page : nil }
        var alertContext: AlertContext? { nil }
    }

    final class Page: ScreenNode {
        let typeName: String
        var typeHierarchy: [String] { [typeName, "MiniPage"] }
        let title: String?
        var navigationTitle: String? { nil }
        var parentScreen: (any ScreenNode)? { nil }
        var childScreens: [any ScreenNode] { [] }
        var screenTracking: ScreenTracking? { nil }
        var root: Widget!

        init(_ typeName: String, title: String) {
            self.typeName = typeName
            self.title = title
            root = Widget("MiniRoot", page: self)
        }
    }

    /// The host's own dispatch: what its button and navigation code would call.
    struct Reporter {
        let context: InteractionContext

        func tapped(_ widget: Widget) {
            context.emit(Interaction(
                point: .sendAction, element: context.snapshot(of: widget, action: "onTap"),
                screen: context.snapshot(of: widget.page), details: InteractionDetails(actionName: "onTap"), capturedBy: "mini-host"))
        }

        func shown(_ page: Page) {
            context.emit(Interaction(
                point: .screenView, element: nil, screen: context.snapshot(of: page),
                details: InteractionDetails(screenViewReason: .appear), capturedBy: "mini-host"))
        }
    }
}

@Suite("A host framework feeds a tracker through the public API")
struct HostFrameworkTests {
    @Test("clicks and screen views of a host's own types carry the collectors' properties")
    func minimalHost() throws {
        let directory = temporaryDirectory("mini-host")
        defer { try? FileManager.default.removeItem(at: directory) }
        let collected = try InMemoryTracker(storeDirectory: directory) { $0.clock = SystemTimestampSource() }
        let tracker = collected.tracker
        let page = MiniHost.Page("CheckoutPage", title: "Checkout")
        let form = page.root.add(MiniHost.Widget("MiniForm", page: page))
        form.add(MiniHost.Widget("MiniLabel", role: .label, label: "Total", page: page))
        let pay = form.add(MiniHost.Widget("MiniButton", role: .button, label: "Pay", page: page))
        let reporter = MiniHost.Reporter(context: tracker.makeInteractionContext())

        tracker.trackAppStart(resumingFromBackground: false)
        reporter.shown(page)
        reporter.tapped(pay)
        tracker.waitUntilQueued()

        let events = collected.events
        #expect(events.map(\.name) == [.appStart, .appViewScreen, .appClick])
        let click = try #require(events.last).properties
        #expect(click["$screen_name"] == "CheckoutPage")
        #expect(click["$title"] == "Checkout")
        #expect(click["$element_type"] == "MiniButton")
        #expect(click["$element_content"] == "Pay")
        #expect(click["$element_path"] == "CheckoutPage[0]/MiniRoot[0]/MiniForm[0]/MiniButton[0]")
        let identity = "path(CheckoutPage[0]/MiniRoot[0]/MiniForm[0]/MiniButton[0])&page(CheckoutPage)"
        #expect(click["$element_id"] == .string(SHA256.hexDigest(identity)))
        #expect(events[1].properties["$screen_name"] == "CheckoutPage")
        #expect(tracker.diagnostics.interception.delivered == 2, "the host's context counts into the tracker's diagnostics")
        tracker.shutdown()
    }

    @Test("a screen shown again on return from the background keeps its referrer (not itself)")
    func referrerAfterHotStart() throws {
        let directory = temporaryDirectory("referrer")
        defer { try? FileManager.default.removeItem(at: directory) }
        let collected = try InMemoryTracker(storeDirectory: directory) { $0.clock = SystemTimestampSource() }
        let tracker = collected.tracker
        let context = tracker.makeInteractionContext()
        func show(_ page: MiniHost.Page, reason: InteractionDetails.ScreenViewReason) {
            context.emit(Interaction(
                point: .screenView, element: nil, screen: context.snapshot(of: page),
                details: InteractionDetails(screenViewReason: reason), capturedBy: "mini-host"))
        }
        let home = MiniHost.Page("HomePage", title: "Home"), detail = MiniHost.Page("DetailPage", title: "Detail")
        show(home, reason: .appear)
        show(detail, reason: .appear)
        tracker.trackAppEnd()
        tracker.trackAppStart(resumingFromBackground: true)
        show(detail, reason: .foreground)
        show(home, reason: .appear)
        tracker.waitUntilQueued()
        let views = collected.events.filter { $0.name == .appViewScreen }
        #expect(views.map { $0.properties["$referrer"] } == [nil, "HomePage", "HomePage", "DetailPage"])
        tracker.shutdown()
    }

    @Test("an interaction handed to a released tracker's sink is counted, not lost silently")
    func releasedTracker() throws {
        let directory = temporaryDirectory("released")
        defer { try? FileManager.default.removeItem(at: directory) }
        var tracker: Tracker? = try Tracker(configuration: TrackerConfiguration(
            storeDirectory: directory, device: testDevice, flushPolicy: FlushPolicy(batchSize: 1000, interval: nil)))
        let context = tracker!.makeInteractionContext()
        tracker?.shutdown()
        tracker = nil
        let page = MiniHost.Page("P", title: "P")
        MiniHost.Reporter(context: context).shown(page)
        #expect(context.diagnostics.sinkFailures == 1)
    }
}
