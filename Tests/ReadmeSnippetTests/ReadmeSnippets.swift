// The Swift snippets of README.md, compiled and run. `.ci/check-readme-snippets`
// checks that every snippet of the README appears here line for line (imports aside),
// so the README cannot drift from code that compiles.
import AutoTrack
import AutoTrackConformance
import AutoTrackConformanceCore
import AutoTrackEvents
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceHostIntegration
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import AutoTrackSerialization
import Foundation
import Testing

/// Stands for the reader's own hook in the "proving a hook" snippet.
typealias MyDelegateHook = ExchangeDelegateHook

@Test(arguments: ScenarioCatalog.scenarios(for: .delegateSelection))
func myHookConforms(scenario: Scenario) {
    expectConformance(ConformanceSubject(MyDelegateHook()), scenario: scenario)  // one issue per violation, here
}

@Suite("The README's snippets")
struct ReadmeSnippets {
    @Test("events and serialization")
    func events() throws {
        var report = SanitizationReport()
        let event = try PropertyRules.standard.makeEvent(
            name: "purchase",
            properties: ["price": 9.5, "sku": "A-1", "tags": ["new", "sale"]],
            time: SystemTimestampSource().now(),
            identity: .anonymous("device-1"),
            id: SystemRandomEventIDGenerator().next(),
            report: &report)

        let json = EventJSONEncoder(layout: .pretty).encodeToString(event)
        let body = try SensorsFormBody.encode([event]).body   // crc=…&gzip=1&data_list=…
        let back = try EventJSONDecoder().decodeEvent(from: json)
        #expect(back == event && !body.isEmpty)
    }

    @Test("the runtime")
    func runtime() throws {
        let runtime = Runtime()
        let base = try runtime.defineClass("UIViewController", methods: [
            ("viewDidAppear:", "v@:c", .procedure("-[UIViewController viewDidAppear:]") { (_: Message, _: Bool) in })
        ])
        let controller = try runtime.allocate(base)
        try runtime.call(controller, "viewDidAppear:", true)       // objc_msgSend
        let method = runtime.method("viewDidAppear:", in: base)!   // class_getInstanceMethod
        #expect(method.owner === base)
    }

    @Test("properties from a read model")
    func properties() {
        let screen = Screen("ViewController")
        let table = screen.rootView.addChild(Element("UITableView", role: .table))
        let cell = table.addChild(Element("MyTableViewCell", role: .tableCell,
                                          listPosition: ListPosition(section: 0, index: 5)))
        cell.addChild(Element("UILabel", role: .label, text: "CELL"))
        let click = ClickProperties(device: .current(appVersion: "1.0")).collect(for: cell)
        // $screen_name ViewController, $element_content CELL, $element_position 0:5,
        // $element_path ViewController[0]/UIView[0]/UITableView[0]/MyTableViewCell#[0,5], $element_id <sha-256>
        #expect(click["$element_path"] == "ViewController[0]/UIView[0]/UITableView[0]/MyTableViewCell#[0,5]")
    }

    @Test("hooks report to a sink")
    func hooks() throws {
        final class PrintingSink: InteractionSink {
            func receive(_ interaction: Interaction) throws { print(interaction.point, interaction.element?.properties ?? [:]) }
        }

        let host = try ReferenceHost()
        let context = InteractionContext(sink: PrintingSink())
        for hook in BuiltInHooks.standard() { _ = try hook.install(on: host, context: context) }
        try host.defineClass("HomeViewController", superclass: "UIViewController")  // the app's classes and UI, after SDK set-up
        let home = try host.makeController("HomeViewController", title: "Home")
        let buy = try host.makeControl("UIButton", title: "Buy", frame: Rect(x: 20, y: 100, width: 120, height: 44))
        home.view.addSubview(buy)
        try buy.addAction(title: "buy", for: .touchUpInside) { _ in }     // a closure action (UIAction)
        try host.transitions.setRoot(home)                                // one screen view
        try host.driver.tap(buy)                                          // one click
        #expect(context.diagnostics.delivered == 2)
    }

    @Test("the tracker, and a host framework's seam")
    func tracker() throws {
        try? FileManager.default.removeItem(atPath: "/tmp/autotrack-store")
        let tracker = try Tracker(configuration: TrackerConfiguration(
            storeDirectory: URL(fileURLWithPath: "/tmp/autotrack-store"),
            transport: .http(endpoint: URL(string: "http://127.0.0.1:8106/sa")!, wireFormat: .sensorsForm, timeout: 10)))
        try tracker.login("user-42")
        try tracker.registerSuperProperties(["channel": "store"])
        try tracker.track("purchase", properties: ["price": 9.5])
        let host = try ReferenceHost()
        let capture = try tracker.enableAutoTrack(on: host)  // $AppClick, $AppViewScreen, $AppStart, $AppEnd
        tracker.flush()                                      // or by count and interval (FlushPolicy)
        try capture.disable()                                // hooks out, originals untouched

        let checkoutPage = Screen("CheckoutPage")
        let payButton = checkoutPage.rootView.addChild(Element("PayButton", role: .button, text: "Pay"))
        let context = tracker.makeInteractionContext()      // the tracker's path style, filters, counters
        tracker.trackAppStart(resumingFromBackground: false)
        context.emit(Interaction(
            point: .sendAction, element: context.snapshot(of: payButton, action: "onTap"),
            screen: context.snapshot(of: checkoutPage), details: InteractionDetails(actionName: "onTap"),
            capturedBy: "my-framework"))                    // a $AppClick with $element_path, $element_id …
        tracker.waitUntilQueued()
        #expect(tracker.diagnostics.queued == 4)
        #expect(context.diagnostics.delivered == 1)
        tracker.shutdown()
    }

    @Test("caller mistakes are typed errors")
    func validation() {
        #expect(throws: ValidationError.self) {
            try PropertyRules.standard.validated(["time": 1])
            // ValidationError: invalid property key 'time': 'time' is reserved by the collector
        }
    }
}
