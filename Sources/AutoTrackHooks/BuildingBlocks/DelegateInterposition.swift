/// AutoTrackInterception: `HookError`, `HookHandle`, `HookSwitch`, `InteractionContext` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackLocking
import AutoTrackMethodWrapping
import AutoTrackModelBackend
import AutoTrackProperties
/// AutoTrackReferenceUI: `ListViewObject`, `ReferenceHost` appear in this file's public API.
public import AutoTrackReferenceUI
/// AutoTrackRuntime: `Runtime`, `RuntimeObject`, `Selector` appear in this file's public API.
public import AutoTrackRuntime

/// What every delegate-selection technique shares: the selectors it intercepts, the
/// object that really implements them, and the wrapping of `setDelegate:` through
/// which a hook sees each delegate.
public enum DelegateInterposition {
    /// `tableView:didSelectRowAtIndexPath:` and `collectionView:didSelectItemAtIndexPath:`.
    public static let selectors: [Selector] = [ListSelectors.tableDidSelect, ListSelectors.collectionDidSelect]
    /// The list classes whose `setDelegate:` is wrapped.
    public static let listClasses = ["UITableView", "UICollectionView"]
    /// The methods ``wrapSetDelegate(name:host:context:prepare:)`` wraps.
    public static let setDelegateMethods = listClasses.map { HookedMethod($0, "setDelegate:") }
    private static let seenListsKey = "AutoTrackHooks.seenLists"

    /// The class to wrap a delegate method in for `object`: its real class, or the
    /// first class below it that no key-value observation generated. KVO's class is
    /// shared by every observed object and dropped with an object's last observer —
    /// a method wrapped there stops recording the moment the app stops observing.
    public static func wrappableClass(of object: RuntimeObject, runtime: Runtime) -> RuntimeClass {
        var cls = object.realClass
        while isObservationLayer(cls, runtime: runtime), let below = cls.superclass {
            cls = below
        }
        return cls
    }

    /// Whether `cls` is a layer a key-value observation put on an object (KVO's own
    /// class, or a hook's class that answers `removeObserver:forKeyPath:` for it): it
    /// defines `removeObserver:forKeyPath:` itself.
    public static func isObservationLayer(_ cls: RuntimeClass, runtime: Runtime) -> Bool {
        runtime.ownMethods(of: cls).contains { $0.selector == Runtime.removeObserverSelector }
    }

    /// The object that actually implements `selector` for `delegate`: the delegate
    /// itself, or — for a forwarding proxy such as RxCocoa's, which answers
    /// `respondsToSelector:` but implements nothing — the object its
    /// `forwardingTargetForSelector:` hands the message to (followed a few steps).
    public static func implementor(of selector: Selector, for delegate: RuntimeObject, runtime: Runtime) -> RuntimeObject? {
        var current = delegate
        for _ in 0..<4 {
            if runtime.instancesRespond(of: current.realClass, to: selector) { return current }
            guard (try? runtime.responds(current, to: selector)) == true,
                  let next = (try? runtime.send(current, Selectors.forwardingTarget, [.selector(selector)]))?.object,
                  next !== current
            else { return nil }
            current = next
        }
        return nil
    }

    /// Wraps `setDelegate:` of both list classes; `prepare` sees each new delegate and
    /// returns the object to hand to the original (the delegate itself, or a proxy).
    /// If `prepare` throws, the app's delegate is set unchanged (fail-open, counted in
    /// `context`). Lists given a delegate are remembered, so ``rehook(in:name:)`` can hand
    /// them to a new installation.
    public static func wrapSetDelegate(
        name: String, host: ReferenceHost, context: InteractionContext,
        prepare: @escaping @Sendable (_ list: ListViewObject, _ delegate: RuntimeObject?, _ hookSwitch: HookSwitch) throws -> RuntimeObject?
    ) throws(HookError) -> [HookHandle] {
        let runtime = host.runtime
        let setters = SetterInstallations.of(runtime)
        return try listClasses.map { (className: String) throws(HookError) -> HookHandle in
            guard let cls = runtime.lookUpClass(className) else { throw .classNotFound(className: className) }
            return try MethodWrapper.install(name: name, runtime: runtime, cls: cls, selector: "setDelegate:", context: context) { original, hookSwitch in
                setters.note(SetterInstallation(original: original, hookSwitch: hookSwitch, prepare: prepare), name: name, className: className)
                let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                return Implementation("\(name) -[\(className) setDelegate:]") { message throws(RuntimeError) in
                    try interceptor.forward(original.call(message), preparing: { message in
                        guard let list = message.receiver as? ListViewObject, message.arguments.count == 1 else { return message }
                        WeakRegistry<ListViewObject>.named(seenListsKey, in: message.runtime).note(list)
                        let handed = try prepare(list, message.arguments[0].object, hookSwitch)
                        return message.replacingArguments(MessageArguments(.object(handed)))
                    })
                }
            }
        }
    }

    /// Hands every live list that was given a delegate under an earlier installation to
    /// the installation `name` has now, as its `setDelegate:` wrapper would have: the
    /// delegate (its class or the object) is hooked in place, and a list whose delegate
    /// the hook replaces (a proxy) gets it through the implementation *below* the
    /// wrapper. Nothing is sent through `setDelegate:` itself — an app's own override
    /// of it, or another library's hook, never sees a call the app did not make.
    public static func rehook(in runtime: Runtime, name: String) {
        let setters = SetterInstallations.of(runtime)
        for list in WeakRegistry<ListViewObject>.named(seenListsKey, in: runtime).live {
            guard let delegate = list.delegate,
                  let installation = setters.installation(name: name, for: list)
            else { continue }
            // A proxy of ours stands for the app's delegate.
            let appDelegate = (try? runtime.send(delegate, "autotrack_proxiedDelegate"))?.object ?? delegate
            guard let handed = try? installation.prepare(list, appDelegate, installation.hookSwitch), handed !== delegate else { continue }
            _ = try? installation.original.implementation.body(
                Message(receiver: list, selector: "setDelegate:", arguments: MessageArguments(.object(handed)), runtime: runtime))
        }
    }

    /// Gives `list` `delegate` through the implementation below the `setDelegate:`
    /// wrapper of the hook `name` — UIKit's, or whatever was installed before the hook
    /// — so that neither the app's override nor a library that hooked later sees a call
    /// the app did not make. Sends `setDelegate:` when the hook has no wrapper for the
    /// list's class.
    public static func setDelegateBelowHooks(of list: ListViewObject, to delegate: RuntimeObject?, name: String) {
        let runtime = list.host.runtime
        let arguments = MessageArguments(.object(delegate))
        if let installation = SetterInstallations.of(runtime).installation(name: name, for: list) {
            _ = try? installation.original.implementation.body(Message(receiver: list, selector: "setDelegate:", arguments: arguments, runtime: runtime))
        } else {
            _ = try? runtime.send(list, "setDelegate:", arguments)
        }
    }

    /// One installation of a `setDelegate:` wrapper: what it wraps, its switch and its
    /// preparation, for ``rehook(in:name:)``.
    struct SetterInstallation: Sendable {
        let original: OriginalImplementation<Implementation>
        let hookSwitch: HookSwitch
        let prepare: @Sendable (ListViewObject, RuntimeObject?, HookSwitch) throws -> RuntimeObject?
    }

    /// The `setDelegate:` wrappers of a runtime, by hook name and list class: the latest
    /// installation of each.
    final class SetterInstallations: Sendable {
        private let installations = Locked<[String: SetterInstallation]>([:])

        static func of(_ runtime: Runtime) -> SetterInstallations {
            PerRuntimeState.object("AutoTrackHooks.setDelegateInstallations", in: runtime) { SetterInstallations() }
        }

        func note(_ installation: SetterInstallation, name: String, className: String) {
            installations.withLock { $0["\(name)|\(className)"] = installation }
        }

        /// The installation of hook `name` whose wrapper `list`'s class runs.
        func installation(name: String, for list: ListViewObject) -> SetterInstallation? {
            let className = list.role == .table ? "UITableView" : "UICollectionView"
            return installations.withLock { $0["\(name)|\(className)"] }
        }
    }
}
