/// AutoTrackInterception: `HookError`, `HookHandle`, `HookedMethod`, `InteractionContext`, `InterceptionHook` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
import AutoTrackRuntime
import AutoTrackLocking

/// Delegate selection by method exchange on the delegate's class (ARCHITECTURE.md, “Delegate method exchange”):
/// when a list gets a delegate whose class implements `didSelect…`, that class gets
/// a tracking method under a selector unique to it
/// (`autotrack_<Class>_tableView:didSelectRowAtIndexPath:`), added first as its own
/// method if it only inherits one (add-then-exchange, so superclasses and siblings are
/// untouched), and the two are exchanged.
///
/// The tracking method calls the original *implementation* with the caller's message,
/// so the original sees its own selector. A subclass and its superclass both hooked,
/// with the subclass calling super, record once: the re-entrancy guard sees the same
/// selection. Uninstalling exchanges back every class whose methods are still ours.
public final class ExchangeDelegateHook: InterceptionHook {
    /// `.delegateSelection`.
    public let point = InterceptionPoint.delegateSelection
    /// `delegate-selection/exchange`.
    public let name = "delegate-selection/exchange"
    /// `setDelegate:` of `UITableView` and `UICollectionView`.
    public let hookedMethods = DelegateInterposition.setDelegateMethods

    /// Creates the hook.
    public init() {}

    final class HookedClasses: Sendable {
        /// Per class and selector: the exchanged method and our tracking body.
        let entries = Locked<[String: (didSelect: RuntimeMethod, tracking: Implementation)]>([:])
    }

    /// Wraps `setDelegate:` of both list classes.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        let name = self.name
        let runtime = host.runtime
        let hooked = HookedClasses()
        // An install that takes effect (a first one, or a reinstall) hands the lists seen
        // before to the new installation; a second install while installed changes nothing.
        var takesEffect = false
        let group = try MethodWrapper.installGroup(name: name, runtime: runtime, context: context) { () throws(HookError) -> [HookHandle] in
            takesEffect = true
            // Uninstalled last (members go in reverse): exchange every class back.
            let classes = HookHandle(name: "\(name)/classes") { () throws(HookError) -> HookState in
                var passThrough = false
                for (_, entry) in hooked.entries.withLock({ $0 }) {
                    guard entry.didSelect.implementation === entry.tracking else {
                        passThrough = true // someone exchanged on top of us: stay as a pass-through
                        continue
                    }
                    let swizzled = Selector("autotrack_\(entry.didSelect.owner.name)_\(entry.didSelect.selector)")
                    if let original = runtime.method(swizzled, in: entry.didSelect.owner) {
                        runtime.exchangeImplementations(entry.didSelect, original)
                    }
                }
                hooked.entries.withLock { $0.removeAll() }
                return passThrough ? .passThrough : .uninstalled
            }
            let setters = try DelegateInterposition.wrapSetDelegate(name: name, host: host, context: context) { _, delegate, hookSwitch in
                if let delegate {
                    let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                    try Self.hookClass(of: delegate, runtime: runtime, interceptor: interceptor, hooked: hooked)
                }
                return delegate
            }
            return [classes] + setters
        }
        if takesEffect { DelegateInterposition.rehook(in: runtime, name: name) }
        return group
    }

    static func hookClass(of delegate: RuntimeObject, runtime: Runtime, interceptor: Interceptor, hooked: HookedClasses) throws {
        let name = interceptor.capturedBy
        for selector in DelegateInterposition.selectors {
            guard let implementor = DelegateInterposition.implementor(of: selector, for: delegate, runtime: runtime) else { continue }
            let cls = DelegateInterposition.wrappableClass(of: implementor, runtime: runtime)
            let key = "\(cls.name)|\(selector)"
            let target = ReportingTarget.target(on: cls, in: runtime, current: interceptor)
            if hooked.entries.withLock({ $0[key] != nil }) { continue }
            let swizzled = Selector("autotrack_\(cls.name)_\(selector)")
            if let earlier = runtime.method(swizzled, in: cls), earlier.owner === cls, let own = runtime.method(selector, in: cls) {
                // Hooked by an earlier installation; if that one was exchanged back, hook again.
                if own.implementation.name.hasPrefix(name) { continue }
                runtime.exchangeImplementations(own, earlier)
                hooked.entries.withLock { $0[key] = (own, own.implementation) }
                continue
            }
            guard let inherited = runtime.method(selector, in: cls) else { continue }
            if inherited.owner !== cls {
                runtime.addMethod(to: cls, selector, inherited.implementation, types: inherited.typeEncoding)
            }
            let originalSlot = MethodSlot()
            let tracking = Implementation("\(name) -[\(cls.name) \(selector)]") { message throws(RuntimeError) in
                guard let original = originalSlot.method else { return .void }
                return try target.intercept(dedupe: .reentrancy(ReferenceHostCapture.selectionKey(for: message))) { interceptor in
                    try ReferenceHostCapture.selectionClick(message, interceptor: interceptor)
                } original: { () throws(RuntimeError) in
                    try RuntimeMethod.invokeImplementation(of: original, message)
                }
            }
            runtime.addMethod(to: cls, swizzled, tracking, types: inherited.typeEncoding)
            guard let own = runtime.method(selector, in: cls), let added = runtime.method(swizzled, in: cls) else { continue }
            runtime.exchangeImplementations(own, added)
            originalSlot.method = Unmanaged.passUnretained(added)
            hooked.entries.withLock { $0[key] = (own, tracking) }
        }
    }
}

/// A method entity filled in once, just after the closure that reads it was made and
/// before that closure can run (publication goes through the runtime's lock and the
/// release/acquire of the implementation pointer).
final class MethodSlot: @unchecked Sendable {
    // Safe: written once before the reading implementation is installed; read-only
    // after. Not reference counted, nor is a call through it: the runtime keeps every
    // method alive.
    var method: Unmanaged<RuntimeMethod>?
}
