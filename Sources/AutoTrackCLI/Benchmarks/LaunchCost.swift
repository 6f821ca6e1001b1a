import AutoTrackHooks
import AutoTrackInterception
import AutoTrackReferenceUI
import AutoTrackRuntime
import Foundation

/// `bench hooks`' launch cost: installing the standard hooks on an app of 1 000 and
/// 10 000 classes, on the model and on the real runtime (where it is built in). The app is a realistic mix — for every 10 classes, 6
/// model classes under `NSObject`, 2 views, 1 cell, and 1 view controller that overrides
/// `viewDidAppear:` (which the screen-view hook wraps) — made afresh, untimed, before
/// every install. Goal on the model: linear in the classes, under 10 ms for 10 000.
///
/// On the real runtime every class is a real class that stays registered, so each size
/// is installed once per repetition, with no warm-up: the figure is one launch's.
struct LaunchCost {
    let harness: BenchmarkHarness
    var sizes = [1000, 10_000]
    /// The runtime the host is made on: the model's, or a mirrored real one.
    var makeRuntime: () -> Runtime = { Runtime() }
    /// Where the rows ran, for their titles.
    var runtimeName = "model"

    /// A host with `classes` app classes.
    static func app(classes: Int, runtime: Runtime = Runtime()) throws -> ReferenceHost {
        let host = try ReferenceHost(runtime: runtime)
        let appeared = Implementation("-[AppScreen viewDidAppear:]") { _ in .void }
        for index in 0..<classes {
            switch index % 10 {
            case 0: try host.defineClass("AppScreen\(index)", superclass: "UIViewController", methods: [(Selector("viewDidAppear:"), "v@:B", appeared)])
            case 1, 2: try host.defineClass("AppView\(index)", superclass: "UIView")
            case 3: try host.defineClass("AppCell\(index)", superclass: "UITableViewCell")
            default: try host.defineClass("AppModel\(index)", superclass: "NSObject")
            }
        }
        return host
    }

    func measure() throws -> (section: BenchmarkReport.Section, context: String) {
        let variants = sizes.map { size -> BenchmarkHarness.Variant in
            let prepared = PreparedHost()
            return .init(name: "standard hooks, \(size.formatted(.number.grouping(.automatic))) app classes", operationsPerRun: 1, bytesPerRun: 0,
                         prepare: { prepared.host = try? Self.app(classes: size, runtime: makeRuntime()) }) {
                guard let host = prepared.host else { return 0 }
                let context = InteractionContext(sink: HooksBenchmark.DiscardingSink())
                var installed = 0
                for hook in BuiltInHooks.standard() where (try? hook.install(on: host, context: context)) != nil { installed += 1 }
                prepared.host = nil
                return installed
            }
        }
        let results = harness.measure(variants)
        let perClass = zip(sizes, results).map { size, result in
            String(format: "%.2f µs per class at %d", result.nanosecondsPerOperation / Double(size) / 1000, size)
        }
        let section = BenchmarkReport.Section(
            title: "Launch: installing the standard hooks (\(runtimeName))", unit: "install", results: results, baseline: results[0].name, showThroughput: false,
            goals: runtimeName == "model" ? results.last.map { [$0.name: .timeAtMost(nanoseconds: 10_000_000)] } ?? [:] : [:])
        let goal = runtimeName == "model" ? " (goal: linear, under 10 ms for 10 000 classes)" : ""
        return (section, "launch on the \(runtimeName): " + perClass.joined(separator: ", ") + goal)
    }

    /// The host the next run installs on, made by the untimed preparation.
    private final class PreparedHost {
        var host: ReferenceHost?
    }
}
