import AutoTrackEvents
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import AutoTrackLocking

/// Counts calls to a method by wrapping its implementation — test instrumentation,
/// the simplest possible hook.
final class CallCounter: Sendable {
    final class Storage: Sendable {
        let calls = Locked<[MessageArguments]>([])
    }
    let storage = Storage()
    var count: Int { storage.calls.withLock { $0.count } }
    var arguments: [MessageArguments] { storage.calls.withLock { $0 } }

    /// Wraps `selector` of `cls` (which must implement it itself).
    init(_ selector: Selector, in cls: RuntimeClass, runtime: Runtime) {
        guard let method = runtime.method(selector, in: cls) else { return }
        let original = method.implementation
        let storage = self.storage
        runtime.setImplementation(of: method, to: Implementation("counting \(selector)") { message throws(RuntimeError) in
            storage.calls.withLock { $0.append(message.arguments) }
            return try original.body(message)
        })
    }
}


/// View controller classes that log all four appearance callbacks.
func defineLifecycleLoggingClass(_ name: String, superclass: String = "UIViewController", in host: ReferenceHost, log: Transcript) throws {
    let cls = try host.runtime.allocateClassPair(superclass: try host.lookUpClass(superclass), name: name)
    for callback in ["viewWillAppear:", "viewDidAppear:", "viewWillDisappear:", "viewDidDisappear:"] {
        let selector = Selector(callback)
        host.runtime.addMethod(to: cls, selector, .procedure("\(name) \(callback)") { (message: Message, animated: Bool) throws(RuntimeError) in
            log.record("\(name).\(callback.dropFirst(4).dropLast())")
            try message.runtime.sendSuper(message.receiver, from: cls, selector, [.bool(animated)])
        }, types: "v@:c")
    }
    host.runtime.addMethod(to: cls, "viewDidLoad", .procedure("\(name) viewDidLoad") { message throws(RuntimeError) in
        log.record("\(name).DidLoad")
        try message.runtime.sendSuper(message.receiver, from: cls, "viewDidLoad")
    }, types: "v@:")
    try host.runtime.registerClassPair(cls)
}

/// What a test's own closures saw, in order: a transcript a test compares whole (the
/// sample app's originals are counted through its typed ``AppLog`` instead).
final class Transcript: Sendable {
    private let lines = Locked<[String]>([])

    func record(_ line: String) { lines.withLock { $0.append(line) } }
    func clear() { lines.withLock { $0.removeAll() } }
    var all: [String] { lines.withLock { $0 } }
}

extension AppLogEntry {
    /// A test delegate answered `tableView:heightForRowAtIndexPath:`.
    static let height = AppLogEntry("height")
    /// A test delegate got `tableView:willDisplayCell:forRowAtIndexPath:`.
    static let willDisplay = AppLogEntry("willDisplay")
    /// A test delegate got `scrollViewDidScroll:`.
    static let scroll = AppLogEntry("scroll")
}
