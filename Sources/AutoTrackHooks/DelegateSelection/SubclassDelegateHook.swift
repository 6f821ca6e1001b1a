/// AutoTrackInterception: `HookError`, `HookHandle`, `HookedMethod`, `InteractionContext`, `InterceptionHook` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackModelBackend
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
import AutoTrackRuntime
import Synchronization

/// Delegate selection by dynamic subclass (seed 000): the delegate object is
/// isa-swizzled to a generated subclass of its real class, `AutoTrack_<Class>`
/// (shared by every delegate of that class), whose `didSelect…` records and calls
/// `super`. The subclass overrides `class` to report what the object reported before
/// — so `$screen_name` stays the app's class, not the generated one (seed 000's
/// `cn.SensorsDataViewController` bug) — and it is built on the object's *real* class,
/// so a KVO-observed delegate keeps its observation.
///
/// Uninstalling moves every delegate still on our subclass back to its previous class;
/// one that KVO (or another library) has since isa-swizzled on top keeps our class as a
/// pass-through rather than being given a wrong class.
public final class SubclassDelegateHook: InterceptionHook {
    /// `.delegateSelection`.
    public let point = InterceptionPoint.delegateSelection
    /// `delegate-selection/subclass`.
    public let name = "delegate-selection/subclass"
    /// `setDelegate:` of `UITableView` and `UICollectionView`.
    public let hookedMethods = DelegateInterposition.setDelegateMethods
    static let prefix = "AutoTrack_"

    /// Creates the hook.
    public init() {}

    final class Swizzled: Sendable {
        struct Entry: @unchecked Sendable {
            // Safe: only touched inside the mutex.
            weak var object: RuntimeObject?
            let subclass: RuntimeClass
            let previous: RuntimeClass
        }
        let entries = Mutex<[Entry]>([])
    }

    /// Wraps `setDelegate:` of both list classes.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        let name = self.name
        let runtime = host.runtime
        let swizzled = Swizzled()
        let group = try MethodWrapper.installGroup(name: name, runtime: runtime) { () throws(HookError) -> [HookHandle] in
            // Uninstalled last (members go in reverse): give every delegate its class back.
            let objects = HookHandle(name: "\(name)/objects") { () throws(HookError) -> HookState in
                var passThrough = false
                for entry in swizzled.entries.withLock({ $0 }) {
                    guard let object = entry.object else { continue }
                    if object.realClass === entry.subclass {
                        runtime.setClass(of: object, to: entry.previous)
                    } else {
                        passThrough = true
                    }
                }
                swizzled.entries.withLock { $0.removeAll() }
                return passThrough ? .passThrough : .uninstalled
            }
            let setters = try DelegateInterposition.wrapSetDelegate(name: name, host: host, context: context) { _, delegate, hookSwitch in
                if let delegate {
                    // A forwarding proxy (RxCocoa-style) implements nothing: subclass the object it forwards to.
                    let implementor = DelegateInterposition.selectors.lazy
                        .compactMap { DelegateInterposition.implementor(of: $0, for: delegate, runtime: runtime) }.first
                    let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                    if let implementor { try Self.subclass(implementor, runtime: runtime, interceptor: interceptor, swizzled: swizzled) }
                }
                return delegate
            }
            return [objects] + setters
        }
        DelegateInterposition.rehook(in: runtime)
        return group
    }

    static func subclass(_ delegate: RuntimeObject, runtime: Runtime, interceptor: Interceptor, swizzled: Swizzled) throws {
        let name = interceptor.capturedBy
        let base = delegate.realClass
        if base.name.hasPrefix(prefix) { return } // already ours
        let selectors = DelegateInterposition.selectors.filter { runtime.instancesRespond(of: base, to: $0) }
        guard !selectors.isEmpty else { return }
        let subclassName = prefix + base.name
        let subclass: RuntimeClass
        if let existing = runtime.lookUpClass(subclassName) {
            subclass = existing
        } else {
            let reported = try runtime.reportedClass(of: delegate) ?? base
            let created = try runtime.allocateClassPair(superclass: base, name: subclassName)
            let target = ReportingTarget.target(on: created, in: runtime, current: interceptor)
            runtime.addMethod(to: created, Selectors.class, Implementation("-[\(subclassName) class]") { _ in .object(reported) }, types: "#@:")
            for selector in selectors {
                runtime.addMethod(to: created, selector, Implementation("\(name) -[\(subclassName) \(selector)]") { message throws(RuntimeError) in
                    try target.intercept(dedupe: .reentrancy(ReferenceHostCapture.selectionKey(for: message))) { interceptor in
                        try ReferenceHostCapture.selectionClick(message, interceptor: interceptor)
                    } original: { () throws(RuntimeError) in
                        try message.runtime.sendSuper(message, from: created)
                    }
                }, types: "v@:@@")
            }
            try runtime.registerClassPair(created)
            subclass = created
        }
        _ = ReportingTarget.target(on: subclass, in: runtime, current: interceptor)
        let previous = runtime.setClass(of: delegate, to: subclass)
        swizzled.entries.withLock { $0.append(.init(object: delegate, subclass: subclass, previous: previous)) }
    }
}
