/// AutoTrackInterception: `HookError`, `HookHandle`, `HookedMethod`, `InteractionContext`, `InterceptionHook` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
import AutoTrackRuntime
import AutoTrackLocking

/// Delegate selection by forwarding proxy (ARCHITECTURE.md, “Forwarding proxy”): the list gets an `NSProxy`
/// subclass instance standing in for the app's delegate. The proxy implements
/// `didSelect…` (record, then forward) and forwards every other message unchanged; it
/// answers `respondsToSelector:` and `class` from the delegate, so UIKit's cached
/// answers are the delegate's own; it holds the delegate weakly, as the list would;
/// and it is kept alive by an associated object on the list, which holds its delegate
/// weakly. The list's `delegate` getter is wrapped to return the app's delegate, never
/// the proxy.
public final class ProxyDelegateHook: InterceptionHook {
    /// `.delegateSelection`.
    public let point = InterceptionPoint.delegateSelection
    /// `delegate-selection/proxy`.
    public let name = "delegate-selection/proxy"
    /// `setDelegate:` and `delegate` of `UITableView` and `UICollectionView`.
    public let hookedMethods = DelegateInterposition.setDelegateMethods + DelegateInterposition.listClasses.map { HookedMethod($0, "delegate") }
    static let proxyKey = AssociationKey("AutoTrackHooks.delegateProxy")

    /// Creates the hook.
    public init() {}

    /// The proxy object: a weak reference to the app's delegate.
    final class DelegateProxy: RuntimeObject, @unchecked Sendable {
        // Safe: the weak target is read and written only under the mutex; the rest is
        // immutable and thread-safe.
        private let targetStorage = Locked<WeakTarget>(WeakTarget())
        let interceptor: Interceptor

        init(class cls: RuntimeClass, interceptor: Interceptor) {
            self.interceptor = interceptor
            super.init(instanceOf: cls)
        }
        struct WeakTarget: Sendable {
            weak var object: RuntimeObject?
        }

        var target: RuntimeObject? {
            get { targetStorage.withLock { $0.object } }
            set { targetStorage.withLock { $0.object = newValue } }
        }
    }

    /// Lists that were handed a proxy, so uninstalling can give them their delegate back:
    /// one registry per runtime, whatever installation handed the proxy (a reinstall
    /// that re-enables a pass-through reuses the earlier installation's wrappers).
    final class ProxiedLists: Sendable {
        struct Entry: Sendable {
            weak var list: ListViewObject?
        }
        let entries = Locked<[Entry]>([])

        /// The registry of `runtime`.
        static func of(_ runtime: Runtime) -> ProxiedLists {
            PerRuntimeState.object("AutoTrackHooks.proxiedLists", in: runtime) { ProxiedLists() }
        }
    }

    /// Wraps `setDelegate:` and `delegate` of both list classes.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        let name = self.name
        let runtime = host.runtime
        let proxyClass = try Self.proxyClass(in: runtime)
        let proxied = ProxiedLists.of(runtime)
        // An install that takes effect (a first one, or a reinstall) hands the lists seen
        // before to the new installation; a second install while installed changes nothing.
        var takesEffect = false
        let group = try MethodWrapper.installGroup(name: name, runtime: runtime, context: context) { () throws(HookError) -> [HookHandle] in
            takesEffect = true
            let setters = try DelegateInterposition.wrapSetDelegate(name: name, host: host, context: context) { list, delegate, hookSwitch in
                guard let delegate else {
                    runtime.setAssociatedObject(nil, for: Self.proxyKey, on: list)
                    return nil
                }
                if delegate is DelegateProxy { return delegate }
                let proxy = (runtime.associatedObject(for: Self.proxyKey, on: list) as? DelegateProxy)
                    ?? DelegateProxy(class: proxyClass, interceptor: Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name))
                proxy.target = delegate
                runtime.setAssociatedObject(proxy, for: Self.proxyKey, on: list)
                proxied.entries.withLock { $0.append(.init(list: list)) }
                return proxy
            }
            let getters = try DelegateInterposition.listClasses.map { (className: String) throws(HookError) -> HookHandle in
                guard let cls = runtime.lookUpClass(className) else { throw .classNotFound(className: className) }
                return try MethodWrapper.install(name: name, runtime: runtime, cls: cls, selector: "delegate", context: context) { original, hookSwitch in
                    let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)
                    return Implementation("\(name) -[\(className) delegate]") { message throws(RuntimeError) in
                        try interceptor.forward(original.call(message), then: { result in
                            // Even when uninstalled: a proxy set earlier must never leak.
                            if let proxy = result.object as? DelegateProxy { return .object(proxy.target) }
                            return result
                        })
                    }
                }
            }
            let wrappers = setters + getters
            // Uninstalled last (members go in reverse): give every list whose delegate is
            // still our proxy its own delegate back — through the setter below ours, so
            // no app override or later library sees the call, and even when our setters
            // stay in the chain as pass-throughs — so nothing of ours remains in the
            // app's object graph, and no getter can answer with a proxy.
            let lists = HookHandle(name: "\(name)/lists") { () throws(HookError) -> HookState in
                for entry in proxied.entries.withLock({ $0 }) {
                    guard let list = entry.list, let proxy = list.delegate as? DelegateProxy else { continue }
                    DelegateInterposition.setDelegateBelowHooks(of: list, to: proxy.target, name: name)
                    runtime.setAssociatedObject(nil, for: Self.proxyKey, on: list)
                }
                proxied.entries.withLock { $0.removeAll() }
                return .uninstalled
            }
            return [lists] + wrappers
        }
        if takesEffect { DelegateInterposition.rehook(in: runtime, name: name) }
        return group
    }

    /// The proxy class of `runtime`: `AutoTrackDelegateProxy`, an `NSProxy` subclass.
    static func proxyClass(in runtime: Runtime) throws(HookError) -> RuntimeClass {
        @Sendable func target(_ message: Message) -> RuntimeObject? { (message.receiver as? DelegateProxy)?.target }
        var methods: [(Selector, String, Implementation)] = [
            (Selectors.respondsToSelector, "c@::", Implementation("-[AutoTrackDelegateProxy respondsToSelector:]") { message throws(RuntimeError) in
                .bool(try message.runtime.responds(target(message), to: try message.selector(at: 0)))
            }),
            (Selectors.class, "#@:", Implementation("-[AutoTrackDelegateProxy class]") { message throws(RuntimeError) in
                guard let delegate = target(message) else { return .object(message.receiver.realClass) }
                return try message.runtime.send(delegate, Selectors.class)
            }),
            (Selectors.isKindOfClass, "c@:#", Implementation("-[AutoTrackDelegateProxy isKindOfClass:]") { message throws(RuntimeError) in
                guard let delegate = target(message) else { return .bool(false) }
                return try message.runtime.send(delegate, Selectors.isKindOfClass, message.arguments)
            }),
            (Selectors.forwardingTarget, "@@::", Implementation("-[AutoTrackDelegateProxy forwardingTargetForSelector:]") { message in
                .object(target(message))
            }),
            ("autotrack_proxiedDelegate", "@@:", Implementation("-[AutoTrackDelegateProxy autotrack_proxiedDelegate]") { message in
                .object(target(message))
            }),
            (Selectors.methodSignature, "@@::", Implementation("-[AutoTrackDelegateProxy methodSignatureForSelector:]") { message throws(RuntimeError) in
                // A released delegate: answer with a void signature and swallow the message.
                guard let delegate = target(message) else { return .value(MethodSignature(typeEncoding: "v@:")) }
                return try message.runtime.send(delegate, Selectors.methodSignature, message.arguments)
            }),
            (Selectors.forwardInvocation, "v@:@", Implementation("-[AutoTrackDelegateProxy forwardInvocation:]") { message throws(RuntimeError) in
                let invocation: Invocation = try message.value(at: 0)
                if let delegate = target(message) { try invocation.invoke(target: delegate) }
                return .void
            }),
        ]
        for selector in DelegateInterposition.selectors {
            methods.append((selector, "v@:@@", Implementation("-[AutoTrackDelegateProxy \(selector)]") { message throws(RuntimeError) in
                // A released delegate: there is no original to run, so nothing to record.
                guard let proxy = message.receiver as? DelegateProxy, let delegate = proxy.target else { return .void }
                let interceptor = proxy.interceptor
                return try interceptor.intercept(dedupe: .reentrancy(ReferenceHostCapture.selectionKey(for: message))) {
                    try ReferenceHostCapture.selectionClick(message, interceptor: interceptor)
                } original: { () throws(RuntimeError) in
                    try message.runtime.send(delegate, message.selector, message.arguments)
                }
            }))
        }
        return try HookClasses.named("AutoTrackDelegateProxy", in: runtime) { () throws -> RuntimeClass in
            try runtime.defineClass("AutoTrackDelegateProxy", superclass: runtime.proxyRootClass, methods: methods)
        }
    }
}
