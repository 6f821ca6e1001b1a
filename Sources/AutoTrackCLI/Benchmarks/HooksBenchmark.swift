import AutoTrackEvents
import AutoTrackHooks
#if AUTOTRACK_OBJC
import AutoTrackObjCBackend
#endif
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import Foundation

/// `bench hooks`: per delegate technique, a hooked `didSelect…` call against the
/// unhooked call in the same runtime, with tracking disabled and enabled; the same for
/// the send-action hook; and the cost of one interaction capture.
struct HooksBenchmark {
    final class DiscardingSink: InteractionSink {
        func receive(_ interaction: Interaction) throws {}
    }

    struct Setup {
        let host: ReferenceHost
        let context: InteractionContext
        let table: ListViewObject
        let unhooked: RuntimeObject
        let hooked: RuntimeObject?
        /// The app's delegate, kept alive (lists and proxies hold it weakly).
        let delegate: RuntimeObject
    }

    /// A host with the hook installed, a table, an unhooked delegate (never set on a
    /// list) and the receiver the table actually calls for a hooked delegate.
    private func setup(_ hook: (any InterceptionHook<ReferenceHost>)?, runtime: Runtime) throws -> Setup {
        let host = try ReferenceHost(runtime: runtime)
        let context = InteractionContext(sink: DiscardingSink())
        if let hook { _ = try hook.install(on: host, context: context) }
        for name in ["PlainDelegate", "HookedDelegate"] {
            try host.defineClass(name, superclass: "NSObject", methods: [
                (ListSelectors.tableDidSelect, "v@:@@", Implementation("-[\(name) didSelect]") { _ in .void }),
            ])
        }
        let table = try host.makeList("UITableView", content: ListContent(rowsPerSection: [10], cellClass: { _ in "UITableViewCell" }))
        let screen = try host.makeController("UIViewController")
        screen.view.addSubview(table)
        let unhooked = try host.runtime.allocate(try host.lookUpClass("PlainDelegate"))
        let delegate = try host.runtime.allocate(try host.lookUpClass("HookedDelegate"))
        table.setDelegate(delegate)
        table.reloadData()
        return Setup(
            host: host, context: context, table: table, unhooked: unhooked, hooked: table.delegateForBenchmark ?? delegate,
            delegate: delegate)
    }

    func run() -> BenchmarkReport {
        do { return try measure() } catch {
            return BenchmarkReport(group: "hooks", context: ["setup failed: \(error)"], sections: [])
        }
    }

    private func measure() throws -> BenchmarkReport {
        let calls = 100_000
        let indexPath = IndexPath(row: 3, section: 0)
        func selecting(_ setup: Setup, _ receiver: RuntimeObject, calls: Int) -> () -> Int {
            let runtime = setup.host.runtime
            let arguments = MessageArguments(.object(setup.table), .value(indexPath))
            return {
                var done = 0
                for _ in 0..<calls where (try? runtime.send(receiver, ListSelectors.tableDidSelect, arguments)) != nil { done &+= 1 }
                return done
            }
        }
        var sections: [BenchmarkReport.Section] = []
        var context: [String] = ["\(calls) calls per round with tracking disabled; enabled rounds make 1/100 as many (each captures a snapshot)"]
        let harness = BenchmarkHarness()
        func delegateSections(prefix: String, makeRuntime: () -> Runtime) throws {
            for (label, hook) in [("method exchange", ExchangeDelegateHook() as any InterceptionHook<ReferenceHost>),
                                  ("dynamic subclass", SubclassDelegateHook()), ("forwarding proxy", ProxyDelegateHook())] {
                // Row names fit the table: the model's keep their long form.
                func row(_ state: String) -> String { prefix.isEmpty ? "\(label), tracking \(state)" : "\(prefix)\(label), \(state)" }
                let setup = try setup(hook, runtime: makeRuntime())
                let hooked = setup.hooked!
                setup.context.isEnabled = false
                let disabled = harness.measure([
                    .init(name: "\(prefix)unhooked didSelect", operationsPerRun: calls, bytesPerRun: 0, body: selecting(setup, setup.unhooked, calls: calls)),
                    .init(name: row("disabled"), operationsPerRun: calls, bytesPerRun: 0, body: selecting(setup, hooked, calls: calls)),
                ])
                setup.context.isEnabled = true
                let enabled = harness.measure([
                    .init(name: row("enabled"), operationsPerRun: calls / 100, bytesPerRun: 0,
                          body: selecting(setup, hooked, calls: calls / 100)),
                ])
                let results = disabled + enabled
                context.append(String(format: "%@%@: disabled %.2f× the unhooked call, enabled %.0f×", prefix, label,
                                      results[1].nanosecondsPerOperation / results[0].nanosecondsPerOperation,
                                      results[2].nanosecondsPerOperation / results[0].nanosecondsPerOperation))
                // The model's goals with tracking off (issue: figures that hold on any machine).
                let goal: BenchmarkGoal? = !prefix.isEmpty ? nil : label == "method exchange" ? .ratioAtMost(1.1) : label == "dynamic subclass" ? .ratioAtMost(1.2) : nil
                sections.append(.init(title: "Delegate selection\(prefix.isEmpty ? "" : " on a mirrored runtime"): \(label)", unit: "call",
                                      results: results, baseline: "\(prefix)unhooked didSelect", showThroughput: false,
                                      goals: goal.map { [row("disabled"): $0] } ?? [:]))
            }
        }
        try delegateSections(prefix: "") { Runtime() }
        #if AUTOTRACK_OBJC
        // The same built-in hooks on a runtime whose dispatch the real runtime decides.
        try delegateSections(prefix: "mirror: ") { MirroredRuntime.make() }
        #endif

        // Send-action: the hooked control method against the unhooked one (before install).
        let app = try SampleApp()
        let button = try app.host.makeControl("UIButton", title: "Bench")
        app.listScreen.view.addSubview(button)
        let runtime = app.host.runtime
        let sendArguments = MessageArguments(.selector("editTapped:"), .object(app.listScreen), .object(nil))
        let sending: () -> Int = {
            var done = 0
            for _ in 0..<calls where (try? runtime.send(button, "sendAction:to:forEvent:", sendArguments)) != nil { done &+= 1 }
            return done
        }
        let beforeHook = harness.measure([.init(name: "unhooked sendAction:to:forEvent:", operationsPerRun: calls, bytesPerRun: 0, body: sending)])
        let sendContext = InteractionContext(sink: DiscardingSink())
        _ = try ControlSendActionHook().install(on: app.host, context: sendContext)
        sendContext.isEnabled = false
        let afterHook = harness.measure([.init(name: "hooked, tracking disabled", operationsPerRun: calls, bytesPerRun: 0, body: sending)])
        sections.append(.init(title: "Send-action (no event: never a click)", unit: "call", results: beforeHook + afterHook,
                              baseline: "unhooked sendAction:to:forEvent:", showThroughput: false))

        // One capture: snapshot of a cell and its screen, plus the interaction value.
        let cell = app.table.cell(at: IndexPath(row: 5, section: 0))!
        let captureContext = InteractionContext(sink: DiscardingSink())
        let capture = harness.measure([
            .init(name: "capture (cell snapshot + screen + interaction)", operationsPerRun: 2000, bytesPerRun: 0) {
                var total = 0
                for _ in 0..<2000 {
                    let interaction = Interaction(
                        point: .delegateSelection, element: captureContext.snapshot(of: cell),
                        screen: app.listScreen.map(captureContext.snapshot(of:)),
                        details: InteractionDetails(listPosition: ListPosition(section: 0, index: 5)), capturedBy: "bench")
                    total &+= interaction.element?.properties.count ?? 0
                }
                return total
            },
        ])
        sections.append(.init(title: "Interaction capture", unit: "capture", results: capture, baseline: capture[0].name, showThroughput: false))
        #if AUTOTRACK_OBJC
        let realCalls = 200_000
        let real = BenchmarkHarness().measure([
            .init(name: "objc: unhooked call", operationsPerRun: realCalls, bytesPerRun: 0) { ObjCDispatchBenchmark.plainSend.send(count: realCalls) },
            .init(name: "objc: method exchange hook, disabled", operationsPerRun: realCalls, bytesPerRun: 0) {
                ObjCDispatchBenchmark.exchangeHook.send(count: realCalls)
            },
            .init(name: "objc: dynamic subclass hook, disabled", operationsPerRun: realCalls, bytesPerRun: 0) {
                ObjCDispatchBenchmark.subclassHook.send(count: realCalls)
            },
            .init(name: "objc: forwarding proxy hook, disabled", operationsPerRun: realCalls, bytesPerRun: 0) {
                ObjCDispatchBenchmark.proxyHook.send(count: realCalls)
            },
            .init(name: "objc: subclass hook, super looked up per send", operationsPerRun: realCalls, bytesPerRun: 0) {
                ObjCDispatchBenchmark.uncachedSubclassHook.send(count: realCalls)
            },
            .init(name: "objc: empty wrapper (one jump, no check)", operationsPerRun: realCalls, bytesPerRun: 0) {
                ObjCDispatchBenchmark.emptyWrapper.send(count: realCalls)
            },
        ])
        let ratio = { (index: Int) in real[index].nanosecondsPerOperation / real[0].nanosecondsPerOperation }
        context.append(String(
            format: "objc (GCC libobjc + GNUstep Base), hook wrappers in C with tracking off: method exchange %.2f× (goal ≤ 1.1×), dynamic subclass %.2f× (≤ 1.3×; %.2f× with super looked up per send), forwarding proxy %.2f× (≤ 2×) the unhooked call; a wrapper that only jumps to the original %.2f×",
            ratio(1), ratio(2), ratio(4), ratio(3), ratio(5)))
        sections.append(.init(title: "Hooks on the real runtime (tracking off)", unit: "call", results: real, baseline: real[0].name, showThroughput: false,
                              goals: [real[1].name: .ratioAtMost(1.1), real[2].name: .ratioAtMost(1.3), real[3].name: .ratioAtMost(2)]))
        #else
        context.append("real runtime: not built in (see README)")
        #endif
        var launches = [LaunchCost(harness: harness)]
        #if AUTOTRACK_OBJC
        var once = BenchmarkHarness()
        once.rounds = 1
        once.warmsUp = false
        launches.append(LaunchCost(harness: once, makeRuntime: { MirroredRuntime.make() }, runtimeName: "real runtime"))
        #endif
        for launchCost in launches {
            let launch = try launchCost.measure()
            sections.append(launch.section)
            context.append(launch.context)
        }
        return BenchmarkReport(group: "hooks", context: context, sections: sections)
    }
}

extension ListViewObject {
    /// The object the list actually calls: the delegate, or a proxy standing in for it.
    var delegateForBenchmark: RuntimeObject? {
        host.runtime.associatedObject(for: AssociationKey("AutoTrackHooks.delegateProxy"), on: self) as? RuntimeObject ?? delegate
    }
}
