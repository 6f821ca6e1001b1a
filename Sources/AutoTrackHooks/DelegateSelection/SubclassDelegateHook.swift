/// AutoTrackInterception: `HookError`, `HookHandle`, `HookedMethod`, `InteractionContext`, `InterceptionHook` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
import AutoTrackRuntime
import AutoTrackLocking

/// Delegate selection by dynamic subclass (ARCHITECTURE.md, “Dynamic subclass”): the delegate object is
/// isa-swizzled to a generated subclass of its real class, `AutoTrack_<Class>`
/// (shared by every delegate of that class), whose `didSelect…` records and calls
/// `super`. The subclass overrides `class` to report what the object reported before
/// — so `$screen_name` stays the app's class, not the generated one (the
/// `cn.SensorsDataViewController` bug of a tutorial's subclass) — and it is built on the object's *real* class,
/// so a KVO-observed delegate keeps its observation.
///
/// KVO and the subclass coexist in every order: our subclass always sits on top of
/// KVO's class. Observed first, the delegate gets our subclass on top of KVO's class;
/// observed after, our subclass answers the app's `addObserver:forKeyPath:…` by
/// stepping aside, letting KVO build its class on the app's, and stepping back on top.
/// It answers `removeObserver:forKeyPath:` the same way — KVO finds its own class on
/// top, as it requires — then steps back: onto KVO's class while observers remain,
/// onto the app's class once KVO is gone. Clicks keep being recorded throughout, and
/// `class` reports the app's class (KVO's class, under ours, would report ours).
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
        struct Entry: Sendable {
            weak var object: RuntimeObject?
            let subclass: RuntimeClass
            let previous: RuntimeClass
        }
        let entries = Locked<[Entry]>([])
        static let key = AssociationKey("AutoTrack.SubclassDelegateHook.swizzled")
    }

    /// Wraps `setDelegate:` of both list classes.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        let name = self.name
        let runtime = host.runtime
        let swizzled = Swizzled()
        // An install that takes effect (a first one, or a reinstall) hands the lists seen
        // before to the new installation; a second install while installed changes nothing.
        var takesEffect = false
        let group = try MethodWrapper.installGroup(name: name, runtime: runtime, context: context) { () throws(HookError) -> [HookHandle] in
            takesEffect = true
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
        if takesEffect { DelegateInterposition.rehook(in: runtime, name: name) }
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
            runtime.addMethod(
                to: created, Runtime.addObserverSelector, Self.stepAsideForNewObservation(subclass: created, target: target), types: "v@:@@Q^v")
            if DelegateInterposition.isObservationLayer(base, runtime: runtime) {
                // On top of KVO's class: answer the app's removeObserver:forKeyPath:.
                runtime.addMethod(
                    to: created, Runtime.removeObserverSelector,
                    Self.stepAsideForKeyValueObserving(subclass: created, observing: base, target: target), types: "v@:@@")
            }
            for selector in selectors {
                runtime.addMethod(to: created, selector, Implementation("\(name) -[\(subclassName) \(selector)]") { message throws(RuntimeError) in
                    try target.intercept(dedupe: .reentrancy(ReferenceHostCapture.selectionKey(for: message))) { interceptor in
                        try ReferenceHostCapture.selectionClick(message, interceptor: interceptor)
                    } original: { () throws(RuntimeError) in
                        try message.sendSuper(from: created)
                    }
                }, types: "v@:@@")
            }
            try runtime.registerClassPair(created)
            subclass = created
        }
        _ = ReportingTarget.target(on: subclass, in: runtime, current: interceptor)
        runtime.setAssociatedObject(swizzled, for: Swizzled.key, on: subclass)
        let previous = runtime.setClass(of: delegate, to: subclass)
        swizzled.entries.withLock { $0.append(.init(object: delegate, subclass: subclass, previous: previous)) }
    }

    /// Our subclass's `removeObserver:forKeyPath:` when it sits on KVO's class: moves the
    /// object back onto KVO's class, lets KVO remove the observation (restoring the
    /// app's class when it was the last), then puts our layer back on whatever class
    /// the object has now. Uninstalled (or never ours), it only steps aside.
    static func stepAsideForKeyValueObserving(subclass: RuntimeClass, observing: RuntimeClass, target: ReportingTarget) -> Implementation {
        Implementation("-[\(subclass.name) removeObserver:forKeyPath:]") { message throws(RuntimeError) in
            let runtime = message.runtime
            let object = message.receiver
            guard object.realClass === subclass else { return try runtime.sendSuper(message, from: subclass) }
            runtime.setClass(of: object, to: observing)
            do throws(RuntimeError) {
                _ = try runtime.send(object, message.selector, message.arguments)
            } catch {
                runtime.setClass(of: object, to: subclass)
                throw error
            }
            if object.realClass === observing {
                runtime.setClass(of: object, to: subclass)  // observers remain: back on top of KVO
                return .void
            }
            // KVO is gone: hook the app's class anew (fail-open: a failure is counted).
            relayer(object, leaving: subclass, target: target)
            return .void
        }
    }

    /// Our subclass's `addObserver:forKeyPath:options:context:`: moves the object back
    /// onto the class below ours, lets KVO observe it there, then puts our layer back on
    /// top of KVO's class — so `class` keeps reporting the app's class.
    static func stepAsideForNewObservation(subclass: RuntimeClass, target: ReportingTarget) -> Implementation {
        Implementation("-[\(subclass.name) addObserver:forKeyPath:options:context:]") { message throws(RuntimeError) in
            let runtime = message.runtime
            let object = message.receiver
            guard case .value(let argument)? = message.arguments.first, let request = argument as? ObservationRequest else {
                throw .typeMismatch(selector: message.selector, expected: "ObservationRequest", found: message.arguments.first?.kind ?? "nothing")
            }
            guard object.realClass === subclass, let below = subclass.superclass else {
                throw .observationIsaChanged(expected: subclass.name, found: object.realClass.name)
            }
            runtime.setClass(of: object, to: below)
            do throws(RuntimeError) {
                request.token = try runtime.addObservation(of: request.key, on: object, onChange: request.onChange)
            } catch {
                runtime.setClass(of: object, to: subclass)
                throw error
            }
            relayer(object, leaving: subclass, target: target)
            return .void
        }
    }

    /// Puts our layer back on `object` after KVO changed its class under us: a
    /// subclass of whatever class it has now, while the installation records.
    static func relayer(_ object: RuntimeObject, leaving subclass: RuntimeClass, target: ReportingTarget) {
        let runtime = subclass.runtime
        let interceptor = target.current
        guard interceptor.hookSwitch.isOn, let swizzled = runtime.associatedObject(for: Swizzled.key, on: subclass) as? Swizzled
        else { return }
        swizzled.entries.withLock { $0.removeAll { $0.object === object && $0.subclass === subclass } }
        do {
            try Self.subclass(object, runtime: runtime, interceptor: interceptor, swizzled: swizzled)
        } catch {
            interceptor.context.count(.bookkeepingFailures)
        }
    }
}
