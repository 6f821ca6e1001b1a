import AutoTrackEvents
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackTesting
import AutoTrackRuntime

/// A recording sink that logs a click into `log` as it receives, so tests can check
/// that the click came before the original.
func recordingSink(loggingInto log: AppLog? = nil) -> InMemoryInteractionSink {
    InMemoryInteractionSink { _ in log?.record(.click) }
}

/// The sample app with a context and a recording sink, launched.
struct Fixture {
    let app: SampleApp
    let sink: InMemoryInteractionSink
    let context: InteractionContext
    var host: ReferenceHost { app.host }
    var runtime: Runtime { app.host.runtime }

    init(launch: Bool = true, sink customSink: (any InteractionSink)? = nil) throws {
        app = try SampleApp()
        sink = recordingSink(loggingInto: app.log)
        context = InteractionContext(sink: customSink ?? sink)
        if launch { try app.launch() }
        app.log.clear()
    }

    @discardableResult
    func install(_ hook: any InterceptionHook<ReferenceHost>) throws -> HookHandle {
        try hook.install(on: host, context: context)
    }

    /// A fresh button on the list screen targeting the list screen's `buyTapped:`.
    func makeBuyButton(targets: Int = 1) throws -> ControlObject {
        let button = try host.makeControl("UIButton", title: "Buy now", frame: Rect(x: 10, y: 10, width: 80, height: 30))
        app.listScreen.view.addSubview(button)
        for _ in 0..<targets { try button.addTarget(app.listScreen, action: "buyTapped:", for: .touchUpInside) }
        return button
    }
}

/// Another library's classic exchange-style hook (add a prefixed method, exchange):
/// logs `entry`, then calls "the original" through its own prefixed selector.
func installForeignExchangeHook(on cls: RuntimeClass, selector: Selector, prefix: String, runtime: Runtime, log: AppLog, entry: AppLogEntry) {
    let swizzled = Selector("\(prefix)_\(selector)")
    runtime.addMethod(to: cls, swizzled, Implementation("\(prefix) \(selector)") { message throws(RuntimeError) in
        log.record(entry)
        return try message.runtime.send(message.receiver, swizzled, message.arguments)
    }, types: "v@:@")
    if runtime.method(selector, in: cls)?.owner !== cls, let inherited = runtime.method(selector, in: cls) {
        runtime.addMethod(to: cls, selector, inherited.implementation, types: inherited.typeEncoding)
    }
    runtime.exchangeImplementations(runtime.method(selector, in: cls)!, runtime.method(swizzled, in: cls)!)
}

/// Undoes `installForeignExchangeHook`.
func removeForeignExchangeHook(on cls: RuntimeClass, selector: Selector, prefix: String, runtime: Runtime) {
    let swizzled = Selector("\(prefix)_\(selector)")
    runtime.exchangeImplementations(runtime.method(selector, in: cls)!, runtime.method(swizzled, in: cls)!)
}

extension AppLogEntry {
    /// Another library's hook ran.
    static let other = AppLogEntry("other")
    /// Another tracker's `growingHookTouch_` action ran.
    static let growing = AppLogEntry("growing")
    /// A test delegate answered `tableView:heightForRowAtIndexPath:`.
    static let height = AppLogEntry("height")
    /// A reloading test delegate ran its selection for `row`.
    static func reloadingSelect(row: Int) -> AppLogEntry { AppLogEntry(Kind("select"), detail: "\(row)") }
}
