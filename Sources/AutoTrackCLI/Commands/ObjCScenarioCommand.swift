import AutoTrackConformanceCore
import AutoTrackInterception
#if AUTOTRACK_OBJC
import AutoTrackEvents
import AutoTrackObjCBackend
import AutoTrackObjCHooks
import AutoTrackProperties
#endif
import Foundation
import AutoTrackLocking

/// `autotrack objc-scenario --subject S --scenario ID`: one real-runtime scenario in
/// this process; prints its transcript as it goes and its violations as JSON.
struct ObjCScenarioCommand {
    let subject: String
    let scenarioID: String
    /// A mutation operator the combinator applies (mutation testing).
    var operatorName: String?

    func run() throws -> Int32 {
        #if AUTOTRACK_OBJC
        guard let scenario = ObjCConformance.scenarios.first(where: { $0.id == scenarioID }) else {
            throw UsageError(message: "unknown scenario '\(scenarioID)'")
        }
        let hook: RealHook
        switch subject {
        case "objc-delegate-selection-method-wrapping": hook = .delegateSelection(ObjCDelegateSelectionHook(technique: .methodWrapping))
        case "objc-delegate-selection-dynamic-subclass": hook = .delegateSelection(ObjCDelegateSelectionHook(technique: .dynamicSubclass))
        case "objc-delegate-selection-forwarding-proxy": hook = .delegateSelection(ObjCDelegateSelectionHook(technique: .forwardingProxy))
        case "objc-delegate-selection-dynamic-subclass-kvo-unaware":
            var broken = ObjCDelegateSelectionHook(technique: .dynamicSubclass)
            broken.stepsAsideForKeyValueObserving = false
            hook = .delegateSelection(broken)
        case "objc-send-action": hook = .sendAction(ObjCSendActionHook())
        case "objc-send-action-per-dispatch":
            var broken = ObjCSendActionHook()
            broken.deduplicatesTouches = false
            hook = .sendAction(broken)
        case "objc-gesture": hook = .gesture(ObjCGestureHook())
        case "objc-gesture-targetless":
            var broken = ObjCGestureHook()
            broken.requiresTarget = false
            hook = .gesture(broken)
        case "objc-alert-action": hook = .alertAction(ObjCAlertActionHook())
        case "objc-alert-action-handlers-only":
            var broken = ObjCAlertActionHook()
            broken.wrapsMissingHandlers = false
            hook = .alertAction(broken)
        case "objc-screen-view": hook = .screenView(ObjCScreenViewHook())
        case "objc-screen-view-base-only":
            var broken = ObjCScreenViewHook()
            broken.wrapsOverrides = false
            hook = .screenView(broken)
        default:
            throw UsageError(message: "unknown subject '\(subject)'")
        }
        var mutation: InterceptionMutation?
        if let operatorName {
            guard let found = InterceptionMutation.allCases.first(where: { $0.description == operatorName }) else {
                throw UsageError(message: "unknown operator '\(operatorName)'")
            }
            mutation = found
        }
        let (violations, fires) = try Self.run(scenario, hook: hook, mutation: mutation)
        try IsolatedScenario.finish(violations: violations, mutationFires: fires)
        return violations.isEmpty ? 0 : 1
        #else
        printError(OracleCommand.unavailable)
        return 1
        #endif
    }

    #if AUTOTRACK_OBJC
    /// A real-runtime hook under test.
    enum RealHook {
        case sendAction(ObjCSendActionHook)
        case gesture(ObjCGestureHook)
        case alertAction(ObjCAlertActionHook)
        case delegateSelection(ObjCDelegateSelectionHook)
        case screenView(ObjCScreenViewHook)

        func install(context: InteractionContext) throws(HookError) -> HookHandle {
            switch self {
            case .sendAction(let hook): try hook.install(context: context)
            case .gesture(let hook): try hook.install(context: context)
            case .alertAction(let hook): try hook.install(context: context)
            case .delegateSelection(let hook): try hook.install(context: context)
            case .screenView(let hook): try hook.install(context: context)
            }
        }
    }

    /// Counts what the hook reports, and writes each interaction to the app log, so
    /// the log shows whether it came before the original.
    final class Interactions: InteractionSink {
        let rows = Locked<[Int]>([])
        let screens = Locked<[String]>([])
        let clicks = Locked<[String]>([])
        func receive(_ interaction: Interaction) throws {
            if interaction.point == .gesture {
                clicks.withLock { $0.append("tap") }
                ObjCSampleApp.note("click tap")
                return
            }
            if interaction.point == .sendAction || interaction.point == .alertAction {
                let content: String
                if case .string(let text)? = interaction.element?.properties["$element_content"] { content = text } else { content = "?" }
                clicks.withLock { $0.append(content) }
                ObjCSampleApp.note("click \(content)")
                return
            }
            if interaction.point == .screenView {
                let name = interaction.screen?.typeName ?? "nil"
                screens.withLock { $0.append(name) }
                ObjCSampleApp.note("screen \(name)")
                return
            }
            let row = interaction.details.listPosition?.index ?? -1
            rows.withLock { $0.append(row) }
            ObjCSampleApp.note("click row \(row)")
        }
    }

    static func run(
        _ scenario: ObjCConformance.Scenario, hook: RealHook, mutation: InterceptionMutation?
    ) throws -> ([Violation], Int) {
        let interactions = Interactions()
        let context = InteractionContext(sink: interactions)
        context.mutation = mutation
        let runtime = ObjCRuntime.shared
        /// Another library's wrapper, stacked with method_setImplementation: notes itself,
        /// then runs what it replaced.
        func stackForeignWrapper(on className: String, _ selector: String) throws {
            let method = try require(runtime.ownMethod(named: selector, in: try require(runtime.lookUpClass(named: className))))
            let replaced = Locked<ObjCImplementation?>(nil)
            let wrapper = try require(ObjCTrampolines.makeReturning { call in
                ObjCSampleApp.note("other library")
                return replaced.withLock { $0 }.map { call.call($0) } ?? 0
            })
            let previous = runtime.setImplementation(of: method, to: wrapper)
            replaced.withLock { $0 = previous }
        }
        if scenario.id == "OSA-8" { try stackForeignWrapper(on: "ATControl", "sendAction:to:forEvent:") }
        let handle = try hook.install(context: context)
        var violations: [Violation] = []
        func expect(_ rule: ContractRule, _ measure: String, _ expected: String, _ observed: String) {
            guard expected != observed else { return }
            violations.append(Violation(
                scenarioID: scenario.id, rule: rule, measure: measure, expected: expected, observed: observed, failure: scenario.failure,
                transcript: ObjCSampleApp.log))
        }
        func note(_ line: String) { IsolatedScenario.note(line) }
        func tap(_ row: Int, on table: ObjCObject) throws {
            note("tap row \(row)")
            try ObjCSampleApp.userSelectRow(row, in: table)
            for entry in ObjCSampleApp.log { note(entry) }
        }
        func originals() -> String {
            String(ObjCSampleApp.log.filter { !$0.hasPrefix("click") && !$0.hasPrefix("screen ") && $0 != "other library" }.count)
        }
        func clicks() -> String { "\(interactions.clicks.withLock { $0 })" }
        func count(_ entry: String) -> Int { ObjCSampleApp.log.filter { $0 == entry }.count }
        func makeControl() -> (ObjCObject, ObjCObject) {
            let control = ObjCSampleApp.makeControl(title: "Buy")
            let actions = ObjCSampleApp.makeActions()
            ObjCSampleApp.addTarget(actions, action: "buyTapped:", to: control)
            ObjCSampleApp.addTarget(actions, action: "logTapped:", to: control)
            return (control, actions)
        }
        func present(_ controller: ObjCObject) throws {
            note("present \(runtime.reportedClass(of: controller)?.description ?? "nil")")
            try ObjCSampleApp.present(controller)
        }
        func screens() -> String { "\(interactions.screens.withLock { $0 })" }
        let table = ObjCSampleApp.makeTable()
        switch scenario.id {
        case "ODS-1":
            let delegate = ObjCSampleApp.makeDelegate()
            ObjCSampleApp.setDelegate(delegate, of: table)
            try tap(3, on: table)
            expect(.originalOnce, "app method calls", "1", originals())
            expect(.oneInteraction, "interactions", "[3]", "\(interactions.rows.withLock { $0 })")
            expect(.recordThenForward, "order", "click row 3, then -[ATAppDelegate didSelect]",
                   ObjCSampleApp.log.map { $0.hasPrefix("-[ATAppDelegate didSelect]") ? "-[ATAppDelegate didSelect]" : $0 }.joined(separator: ", then "))
            expect(.transparency, "-class", "ATAppDelegate", runtime.reportedClass(of: delegate)?.description ?? "nil")
        case "ODS-6":
            let delegate = ObjCSampleApp.makeDelegate()
            ObjCSampleApp.setDelegate(delegate, of: table)
            context.isEnabled = false
            try tap(5, on: table)
            expect(.originalOnce, "app method calls while disabled", "1", originals())
            expect(.lifecycle, "interactions while disabled", "[]", "\(interactions.rows.withLock { $0 })")
            context.isEnabled = true
            ObjCSampleApp.clearLog()
            try tap(6, on: table)
            expect(.oneInteraction, "interactions once enabled", "[6]", "\(interactions.rows.withLock { $0 })")
        case "ODS-2":
            // The superclass's method is hooked through another delegate first.
            let other = ObjCSampleApp.makeTable()
            ObjCSampleApp.setDelegate(ObjCSampleApp.makeDelegate(), of: other)
            let delegate = ObjCSampleApp.makeDelegate(subclass: true)
            ObjCSampleApp.setDelegate(delegate, of: table)
            try tap(7, on: table)
            expect(.originalOnce, "app method calls (subclass, then super)", "2", originals())
            expect(.oneInteraction, "interactions", "[7]", "\(interactions.rows.withLock { $0 })")
        case "ODS-3", "ODS-4":
            let delegate = ObjCSampleApp.makeDelegate()
            let observer = ObjCSampleApp.makeObserver()
            let observedFirst = scenario.id == "ODS-3"
            if observedFirst { try runtime.addObserver(observer, to: delegate, keyPath: "title") }
            ObjCSampleApp.setDelegate(delegate, of: table)
            if !observedFirst { try runtime.addObserver(observer, to: delegate, keyPath: "title") }
            note("real class \(runtime.realClass(of: delegate)), -class \(runtime.reportedClass(of: delegate)?.description ?? "nil")")
            expect(.transparency, "-class", "ATAppDelegate", runtime.reportedClass(of: delegate)?.description ?? "nil")
            note("setTitle: (observed)")
            try ObjCSampleApp.setTitle("Orders", on: delegate)
            expect(.transparency, "KVO notifications", "1", String(ObjCSampleApp.observedChanges))
            ObjCSampleApp.clearLog()
            try tap(2, on: table)
            expect(.originalOnce, "app method calls", "1", originals())
            expect(.oneInteraction, "interactions", "[2]", "\(interactions.rows.withLock { $0 })")
            try runtime.removeObserver(observer, from: delegate, keyPath: "title")
            try ObjCSampleApp.setTitle("Profile", on: delegate)
            expect(.transparency, "KVO notifications after removal", "1", String(ObjCSampleApp.observedChanges))
        case "OSA-1":
            let (control, actions) = makeControl()
            note("touch Buy")
            try ObjCSampleApp.touch(control)
            for entry in ObjCSampleApp.log { note(entry) }
            withExtendedLifetime(actions) {}
            expect(.oneInteraction, "clicks", "[\"Buy\"]", clicks())
            expect(.originalOnce, "buyTapped:, logTapped: calls", "1, 1", "\(count("-[ATAppActions buyTapped:]")), \(count("-[ATAppActions logTapped:]"))")
            expect(.recordThenForward, "first entry", "click Buy", ObjCSampleApp.log.first ?? "none")
        case "OSA-2":
            let (control, actions) = makeControl()
            note("sendAction:to:forEvent: from code")
            try ObjCSampleApp.sendAction("buyTapped:", to: actions, from: control)
            expect(.filters, "clicks", "[]", clicks())
            expect(.originalOnce, "buyTapped: calls", "1", String(count("-[ATAppActions buyTapped:]")))
        case "OSA-3":
            let (control, actions) = makeControl()
            try ObjCSampleApp.touch(control)
            try ObjCSampleApp.touch(control)
            withExtendedLifetime(actions) {}
            expect(.oneInteraction, "clicks", "[\"Buy\", \"Buy\"]", clicks())
            expect(.originalOnce, "buyTapped: calls", "2", String(count("-[ATAppActions buyTapped:]")))
        case "OSA-4":
            let (control, actions) = makeControl()
            try handle.uninstall()
            try ObjCSampleApp.touch(control)
            withExtendedLifetime(actions) {}
            expect(.originalOnce, "actions", "2", originals())
            expect(.lifecycle, "clicks after uninstall", "[]", clicks())
        case "OSA-5":
            let (control, actions) = makeControl()
            context.isEnabled = false
            try ObjCSampleApp.touch(control)
            expect(.lifecycle, "clicks while disabled", "[]", clicks())
            context.isEnabled = true
            try ObjCSampleApp.touch(control)
            withExtendedLifetime(actions) {}
            expect(.oneInteraction, "clicks once enabled", "[\"Buy\"]", clicks())
        case "OSA-6":
            let (control, actions) = makeControl()
            try handle.uninstall()
            let again = try hook.install(context: context)
            try ObjCSampleApp.touch(control)
            withExtendedLifetime(actions) {}
            expect(.lifecycle, "state after reinstall", "installed", "\(again.state)")
            expect(.oneInteraction, "clicks", "[\"Buy\"]", clicks())
            expect(.originalOnce, "buyTapped:, logTapped: calls", "1, 1", "\(count("-[ATAppActions buyTapped:]")), \(count("-[ATAppActions logTapped:]"))")
        case "OSA-7":
            let (control, actions) = makeControl()
            try stackForeignWrapper(on: "ATControl", "sendAction:to:forEvent:")
            try handle.uninstall()
            expect(.lifecycle, "state under another library", "passThrough", "\(handle.state)")
            try ObjCSampleApp.touch(control)
            expect(.lifecycle, "clicks while uninstalled", "[]", clicks())
            expect(.originalOnce, "other library, buyTapped:, logTapped:", "2, 1, 1",
                   "\(count("other library")), \(count("-[ATAppActions buyTapped:]")), \(count("-[ATAppActions logTapped:]"))")
            _ = try hook.install(context: context)
            ObjCSampleApp.clearLog()
            try ObjCSampleApp.touch(control)
            withExtendedLifetime(actions) {}
            expect(.oneInteraction, "clicks once reinstalled", "[\"Buy\"]", clicks())
            expect(.originalOnce, "buyTapped: calls once reinstalled", "1", String(count("-[ATAppActions buyTapped:]")))
        case "OSA-8":
            let (control, actions) = makeControl()
            try ObjCSampleApp.touch(control)
            for entry in ObjCSampleApp.log { note(entry) }
            withExtendedLifetime(actions) {}
            expect(.oneInteraction, "clicks", "[\"Buy\"]", clicks())
            expect(.originalOnce, "other library (once per dispatch), buyTapped:, logTapped:", "2, 1, 1",
                   "\(count("other library")), \(count("-[ATAppActions buyTapped:]")), \(count("-[ATAppActions logTapped:]"))")
        case "OGR-1", "OGR-2", "OGR-3":
            let recognizer = ObjCSampleApp.makeTapRecognizer()
            let actions = ObjCSampleApp.makeActions()
            if scenario.id != "OGR-3" { try ObjCSampleApp.addTarget(actions, action: "bannerTapped:", toRecognizer: recognizer) }
            if scenario.id == "OGR-2" { try ObjCSampleApp.addTarget(actions, action: "logTapped:", toRecognizer: recognizer) }
            note("tap the banner")
            try ObjCSampleApp.recognizeTap(recognizer)
            for entry in ObjCSampleApp.log { note(entry) }
            withExtendedLifetime(actions) {}
            switch scenario.id {
            case "OGR-1":
                expect(.oneInteraction, "clicks", "[\"tap\"]", clicks())
                expect(.originalOnce, "bannerTapped: calls", "1", String(count("-[ATAppActions bannerTapped:]")))
                expect(.recordThenForward, "first entry", "click tap", ObjCSampleApp.log.first ?? "none")
            case "OGR-2":
                expect(.oneInteraction, "clicks", "[\"tap\"]", clicks())
                expect(.originalOnce, "bannerTapped:, logTapped: calls", "1, 1",
                       "\(count("-[ATAppActions bannerTapped:]")), \(count("-[ATAppActions logTapped:]"))")
            default:
                expect(.filters, "clicks", "[]", clicks())
            }
        case "OGR-4", "OGR-5":
            let recognizer = ObjCSampleApp.makeTapRecognizer()
            let actions = ObjCSampleApp.makeActions()
            try ObjCSampleApp.addTarget(actions, action: "bannerTapped:", toRecognizer: recognizer)
            if scenario.id == "OGR-4" {
                try handle.uninstall()
                try ObjCSampleApp.recognizeTap(recognizer)
                expect(.originalOnce, "bannerTapped: calls", "1", String(count("-[ATAppActions bannerTapped:]")))
                expect(.lifecycle, "clicks after uninstall", "[]", clicks())
            } else {
                context.isEnabled = false
                try ObjCSampleApp.recognizeTap(recognizer)
                expect(.lifecycle, "clicks while disabled", "[]", clicks())
                context.isEnabled = true
                try ObjCSampleApp.recognizeTap(recognizer)
                expect(.oneInteraction, "clicks once enabled", "[\"tap\"]", clicks())
            }
            withExtendedLifetime(actions) {}
        case "OAA-1", "OAA-2", "OAA-3":
            let leave = ObjCSampleApp.makeAlertAction(title: "Leave", withHandler: scenario.id != "OAA-2")
            let cancel = ObjCSampleApp.makeAlertAction(title: "Cancel")
            note("tap Leave")
            try ObjCSampleApp.tap(alertAction: leave)
            if scenario.id == "OAA-3" {
                note("tap Cancel")
                try ObjCSampleApp.tap(alertAction: cancel)
            }
            for entry in ObjCSampleApp.log { note(entry) }
            switch scenario.id {
            case "OAA-1":
                expect(.oneInteraction, "clicks", "[\"Leave\"]", clicks())
                expect(.originalOnce, "handler runs", "1", String(count("handled Leave")))
                expect(.recordThenForward, "first entry", "click Leave", ObjCSampleApp.log.first ?? "none")
            case "OAA-2":
                expect(.oneInteraction, "clicks", "[\"Leave\"]", clicks())
            default:
                expect(.oneInteraction, "clicks", "[\"Leave\", \"Cancel\"]", clicks())
                expect(.originalOnce, "handler runs (Leave, Cancel)", "1, 1", "\(count("handled Leave")), \(count("handled Cancel"))")
            }
        case "OAA-4":
            let before = ObjCSampleApp.makeAlertAction(title: "Before")
            try handle.uninstall()
            let after = ObjCSampleApp.makeAlertAction(title: "After")
            try ObjCSampleApp.tap(alertAction: before)
            try ObjCSampleApp.tap(alertAction: after)
            expect(.originalOnce, "handler runs (made before, after uninstall)", "1, 1", "\(count("handled Before")), \(count("handled After"))")
            expect(.lifecycle, "clicks after uninstall", "[]", clicks())
        case "OAA-6":
            let action = ObjCSampleApp.makeAlertAction(title: "Stay")
            try handle.uninstall()
            _ = try hook.install(context: context)
            try ObjCSampleApp.tap(alertAction: action)
            expect(.oneInteraction, "clicks", "[\"Stay\"]", clicks())
            expect(.originalOnce, "handler runs", "1", String(count("handled Stay")))
        case "OAA-5":
            let action = ObjCSampleApp.makeAlertAction(title: "OK")
            context.isEnabled = false
            try ObjCSampleApp.tap(alertAction: action)
            expect(.lifecycle, "clicks while disabled", "[]", clicks())
            context.isEnabled = true
            try ObjCSampleApp.tap(alertAction: action)
            expect(.oneInteraction, "clicks once enabled", "[\"OK\"]", clicks())
            expect(.originalOnce, "handler runs", "2", String(count("handled OK")))
        case "OGR-6":
            let recognizer = ObjCSampleApp.makeTapRecognizer()
            let actions = ObjCSampleApp.makeActions()
            try ObjCSampleApp.addTarget(actions, action: "bannerTapped:", toRecognizer: recognizer)
            try handle.uninstall()
            _ = try hook.install(context: context)
            try ObjCSampleApp.recognizeTap(recognizer)
            withExtendedLifetime(actions) {}
            expect(.oneInteraction, "clicks", "[\"tap\"]", clicks())
            expect(.originalOnce, "bannerTapped: calls", "1", String(count("-[ATAppActions bannerTapped:]")))
        case "OSV-6":
            let controller = try require(ObjCSampleApp.makeController("ATAppNoSuperViewController"))
            try present(controller)
            try handle.uninstall()
            _ = try hook.install(context: context)
            ObjCSampleApp.clearLog()
            try present(controller)
            for entry in ObjCSampleApp.log { note(entry) }
            expect(.oneInteraction, "screen views (before and after the reinstall)", "[\"ATAppNoSuperViewController\", \"ATAppNoSuperViewController\"]", screens())
            expect(.originalOnce, "-[ATAppNoSuperViewController viewDidAppear:] calls after the reinstall", "1",
                   String(count("-[ATAppNoSuperViewController viewDidAppear:]")))
        case "OSV-1":
            let controller = try require(ObjCSampleApp.makeController("ATAppViewController"))
            try present(controller)
            try present(controller)
            let log = ObjCSampleApp.log
            for entry in log { note(entry) }
            expect(.oneInteraction, "screen views", "[\"ATAppViewController\", \"ATAppViewController\"]", screens())
            expect(.originalOnce, "-[ATAppViewController viewDidAppear:] and -[ATViewController viewDidAppear:] calls", "2, 2",
                   "\(log.filter { $0 == "-[ATAppViewController viewDidAppear:]" }.count), \(log.filter { $0 == "-[ATViewController viewDidAppear:]" }.count)")
            let firstScreen = log.firstIndex(of: "screen ATAppViewController") ?? .max
            let firstOverride = log.firstIndex(of: "-[ATAppViewController viewDidAppear:]") ?? .max
            expect(.recordThenForward, "screen view before the override runs", "true", "\(firstScreen < firstOverride)")
        case "OSV-2":
            let controller = try require(ObjCSampleApp.makeController("ATAppNoSuperViewController"))
            try present(controller)
            for entry in ObjCSampleApp.log { note(entry) }
            expect(.oneInteraction, "screen views", "[\"ATAppNoSuperViewController\"]", screens())
            expect(.originalOnce, "-[ATAppNoSuperViewController viewDidAppear:] calls", "1",
                   String(ObjCSampleApp.log.filter { $0 == "-[ATAppNoSuperViewController viewDidAppear:]" }.count))
        case "OSV-3":
            let base = try require(runtime.lookUpClass(named: "ATViewController"))
            let late = try runtime.makeClassPair(superclass: base, named: "LateFeatureViewController")
            runtime.addMethod(to: late, selector: "viewDidAppear:", implementation: ObjCSampleApp.overrideWithoutSuper, types: "v@:c")
            try runtime.registerClass(late)
            let controller = try require(ObjCSampleApp.makeController("LateFeatureViewController"))
            try present(controller)
            for entry in ObjCSampleApp.log { note(entry) }
            expect(.oneInteraction, "screen views", "[\"LateFeatureViewController\"]", screens())
            expect(.originalOnce, "-[LateFeatureViewController viewDidAppear:] calls", "1",
                   String(ObjCSampleApp.log.filter { $0 == "-[LateFeatureViewController viewDidAppear:]" }.count))
        case "OSV-4":
            try handle.uninstall()
            let controller = try require(ObjCSampleApp.makeController("ATAppViewController"))
            try present(controller)
            expect(.originalOnce, "appearance methods (load, override, super)", "3", originals())
            expect(.lifecycle, "screen views after uninstall", "[]", screens())
        case "OSV-5":
            let controller = try require(ObjCSampleApp.makeController("ATAppNoSuperViewController"))
            context.isEnabled = false
            try present(controller)
            expect(.lifecycle, "screen views while disabled", "[]", screens())
            context.isEnabled = true
            try present(controller)
            expect(.oneInteraction, "screen views once enabled", "[\"ATAppNoSuperViewController\"]", screens())
        case "ODS-7":
            let delegate = ObjCSampleApp.makeDelegate()
            ObjCSampleApp.setDelegate(delegate, of: table)
            try handle.uninstall()
            _ = try hook.install(context: context)
            try tap(8, on: table)
            expect(.oneInteraction, "interactions", "[8]", "\(interactions.rows.withLock { $0 })")
            expect(.originalOnce, "app method calls", "1", originals())
        case "ODS-8":
            let delegate = ObjCSampleApp.makeDelegate()
            ObjCSampleApp.setDelegate(delegate, of: table)
            try stackForeignWrapper(on: "ATAppDelegate", "tableView:didSelectRowAtIndexPath:")
            try handle.uninstall()
            try tap(9, on: table)
            expect(.lifecycle, "interactions while uninstalled", "[]", "\(interactions.rows.withLock { $0 })")
            expect(.originalOnce, "other library, app method calls", "1, 1", "\(count("other library")), \(originals())")
        default:  // ODS-5
            let delegate = ObjCSampleApp.makeDelegate()
            ObjCSampleApp.setDelegate(delegate, of: table)
            try handle.uninstall()
            ObjCSampleApp.clearLog()
            try tap(4, on: table)
            expect(.originalOnce, "app method calls", "1", originals())
            expect(.lifecycle, "interactions after uninstall", "[]", "\(interactions.rows.withLock { $0 })")
        }
        return (violations, context.mutationFires)
    }

    /// The value, or an error naming what the scenario could not make.
    static func require<Value>(_ value: Value?, _ what: String = #function) throws -> Value {
        guard let value else { throw ScenarioSetupError(what: what) }
        return value
    }

    struct ScenarioSetupError: Error, CustomStringConvertible {
        let what: String
        var description: String { "the scenario could not set up \(what)" }
    }
    #endif
}
