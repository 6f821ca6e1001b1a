/// AutoTrackInterception: `HookError`, `HookHandle`, `InteractionContext` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackObjCBackend
import AutoTrackProperties

/// Row selection on the real Objective-C runtime: learns each table's delegate from
/// `setDelegate:` and intercepts its `tableView:didSelectRowAtIndexPath:`, by one of
/// the two techniques SDKs use, through the contract's building blocks — `MethodWrapper`
/// for every method it replaces, `HookClasses` for the class it generates, and the
/// exactly-once combinator `Interceptor.intercept(dedupe:capture:original:)` for every
/// call — over `ObjCRuntime`, with `ObjCTrampolines` as IMPs.
///
/// - ``Technique/methodWrapping``: the delegate's class gets a wrapper (a class that
///   only inherits the method gets a method of its own first). A subclass calling
///   `super` into a wrapped superclass records once (reentrancy).
/// - ``Technique/forwardingProxy``: the table is given an `NSProxy` that forwards every
///   message to the delegate (`methodSignatureForSelector:`/`forwardInvocation:` —
///   GNUstep does not fast-forward compiled sends) and records selections first.
/// - ``Technique/dynamicSubclass``: the delegate is isa-swizzled to a generated
///   subclass of its class whose override records and calls `super`, and whose
///   `-class` reports the app's class. A delegate that key-value observing has already
///   isa-swizzled is left alone and its class's method wrapped instead: a subclass placed
///   over GNUstep's KVO class breaks KVO (the next observed change crashes). When KVO
///   comes after, GNUstep swizzles the object to a subclass of the app's class, out of
///   the generated one; the subclass's `addObserver:forKeyPath:options:context:` sees
///   that and wraps the class's method, so no selection is lost.
///
/// ```swift
/// let context = InteractionContext(sink: mySink)
/// let handle = try ObjCDelegateSelectionHook(technique: .dynamicSubclass).install(context: context)
/// ```
public struct ObjCDelegateSelectionHook: Sendable {
    /// How the delegate's method is intercepted.
    public enum Technique: String, Sendable, CaseIterable {
        /// Wrap the method of the delegate's class.
        case methodWrapping = "method-wrapping"
        /// Isa-swizzle the delegate to a generated subclass.
        case dynamicSubclass = "dynamic-subclass"
        /// Hand the table a forwarding proxy (an `NSProxy`) in place of the delegate.
        case forwardingProxy = "forwarding-proxy"
    }

    /// The technique.
    public let technique: Technique
    /// The table class whose `setDelegate:` is hooked.
    public let tableClassName: String
    /// The selection selector.
    public static let selection = "tableView:didSelectRowAtIndexPath:"
    /// Whether a delegate KVO has isa-swizzled is left alone (its class's method is
    /// wrapped instead). Turned off only by the conformance kit's deliberately broken
    /// variant, which places its subclass over KVO's and crashes on the next observed
    /// change.
    package var stepsAsideForKeyValueObserving = true

    /// Creates the hook.
    public init(technique: Technique, tableClassName: String = "ATAppTable") {
        self.technique = technique
        self.tableClassName = tableClassName
    }

    /// The hook's name, stamped on its interactions.
    public var name: String {
        "objc-delegate-selection-\(technique.rawValue)\(stepsAsideForKeyValueObserving ? "" : "-kvo-unaware")"
    }

    /// Installs the hook; idempotent. Uninstalling restores `setDelegate:` and turns
    /// every delegate wrapper and generated subclass into a pass-through (objects stay
    /// swizzled, as another library may rely on what it found).
    /// - Throws: `HookError` when the table class, its `setDelegate:`, or a trampoline
    ///   is missing.
    public func install(context: InteractionContext) throws(HookError) -> HookHandle {
        let runtime = ObjCRuntime.shared
        guard let table = runtime.lookUpClass(named: tableClassName) else { throw .classNotFound(className: tableClassName) }
        let name = self.name, technique = self.technique, stepsAside = stepsAsideForKeyValueObserving
        return try TrampolineWrapping.install(name: name, cls: table, selector: "setDelegate:", context: context) { original, interceptor in
            // What a reinstall must reach: wrappers, subclasses and proxies made before an
            // uninstall report to the newest installation.
            let reporting = ReportingTarget.target(on: table, in: runtime, current: interceptor)
            let proxyToken = technique == .forwardingProxy ? Self.registerProxyBody(reporting: reporting, name: name) : -1
            return ObjCTrampolines.make { call in
                if interceptor.hookSwitch.isOn, let delegate = call.firstObject {
                    if technique == .forwardingProxy {
                        // The table gets the proxy; the delegate keeps it alive.
                        let proxy = Self.proxy(for: delegate, token: proxyToken)
                        call.call(original, first: proxy.address, second: call.second, third: call.third, fourth: call.fourth)
                        return
                    }
                    Self.prepare(delegate, technique: technique, stepsAside: stepsAside, reporting: reporting, name: name)
                }
                call.call(original)
            }
        }
    }

    /// The forwarding proxies' handling of a selection: one interaction, then the
    /// delegate's method once.
    static func registerProxyBody(reporting: ReportingTarget, name: String) -> Int32 {
        ObjCForwardingProxies.register { forwarded in
            let row = forwarded.integerValue(ofArgument: 3) ?? -1
            reporting.intercept(dedupe: .reentrancy(InteractionKey("objc-selection", objects: [], numbers: [Int(bitPattern: forwarded.target), row]))) { _ in
                Interaction(
                    point: .delegateSelection, element: nil, screen: nil,
                    details: InteractionDetails(listPosition: ListPosition(section: 0, index: row)), capturedBy: name)
            } original: {
                forwarded.invoke()
            }
        }
    }

    /// The delegate's proxy, made once and kept as its associated object.
    static func proxy(for delegate: ObjCObject, token: Int32) -> ObjCObject {
        let runtime = ObjCRuntime.shared
        let key = "AutoTrackObjCHooks.forwardingProxy"
        if let existing = runtime.associatedObject(for: key, on: delegate) as? ObjCObject { return existing }
        let proxy = ObjCForwardingProxies.makeProxy(for: delegate, intercepting: selection, token: token)
        runtime.setAssociatedObject(proxy, for: key, on: delegate)
        return proxy
    }

    /// Makes `delegate`'s selections reach the interceptor.
    static func prepare(_ delegate: ObjCObject, technique: Technique, stepsAside: Bool, reporting: ReportingTarget, name: String) {
        let runtime = ObjCRuntime.shared
        let real = runtime.realClass(of: delegate)
        guard runtime.method(named: selection, in: real) != nil else { return }
        if real.description.hasSuffix("_AutoTrack") { return }
        // Below a KVO class is the app's class: wrap there (a subclass over KVO's breaks it).
        let appClass = stepsAside && runtime.isKeyValueObservingClass(real) ? (runtime.superclass(of: real) ?? real) : real
        if technique == .methodWrapping || appClass != real {
            _ = try? wrapSelection(in: appClass, reporting: reporting, name: name)
            return
        }
        guard let subclass = try? generatedSubclass(of: real, reporting: reporting, name: name) else { return }
        runtime.setClass(of: delegate, to: subclass)
    }

    /// Wraps `tableView:didSelectRowAtIndexPath:` of `cls` (idempotent per class).
    static func wrapSelection(in cls: ObjCClass, reporting: ReportingTarget, name: String) throws(HookError) -> HookHandle {
        try MethodWrapper.install(name: name, runtime: ObjCRuntime.shared, cls: cls, selector: selection) { original, hookSwitch in
            // The wrapper records while both this installation and the hook are on.
            ObjCTrampolines.make { call in
                reporting.intercept(dedupe: .reentrancy(key(call))) { _ in
                    hookSwitch.isOn ? interaction(call, name: name) : nil
                } original: {
                    _ = call.call(original)
                }
            } ?? original
        }
    }

    /// The generated subclass of `cls`: an override that records then calls `super`, and
    /// a `-class` that reports `cls`.
    static func generatedSubclass(of cls: ObjCClass, reporting: ReportingTarget, name: String) throws(HookError) -> ObjCClass {
        let runtime = ObjCRuntime.shared
        return try HookClasses.named("\(cls.description)_AutoTrack", in: runtime) {
            let subclass = try runtime.makeClassPair(superclass: cls, named: "\(cls.description)_AutoTrack")
            guard let override = ObjCTrampolines.make({ call in
                reporting.intercept(dedupe: .reentrancy(key(call))) { _ in
                    interaction(call, name: name)
                } original: {
                    if let superImplementation = runtime.superImplementation(for: call, compiledIn: subclass) { _ = call.call(superImplementation) }
                }
            }) else { throw HookError.methodNotAdded(className: subclass.description, selector: "\(selection) (no trampoline left)") }
            runtime.addMethod(to: subclass, selector: selection, implementation: override, types: "v@:@@")
            runtime.addMethod(to: subclass, selector: "class", implementation: runtime.reportingSuperclassImplementation, types: "#@:")
            // GNUstep's KVO isa-swizzles an observed object to a subclass of what `-class`
            // reports — the app's class — so the object leaves this subclass: then its
            // class's method is wrapped instead (objc4's KVO subclasses the real class).
            guard let observing = ObjCTrampolines.make({ call in
                if let addObserver = runtime.superImplementation(for: call, compiledIn: subclass) { call.call(addObserver) }
                let now = call.receiverClass
                if runtime.isKeyValueObservingClass(now), runtime.superclass(of: now) == cls {
                    _ = try? wrapSelection(in: cls, reporting: reporting, name: name)
                }
            }) else { throw HookError.methodNotAdded(className: subclass.description, selector: "addObserver:forKeyPath:options:context:") }
            runtime.addMethod(to: subclass, selector: "addObserver:forKeyPath:options:context:", implementation: observing, types: "v@:@@Q^v")
            try runtime.registerClass(subclass)
            return subclass
        }
    }

    /// One selection is one interaction, whatever wrapper levels it passes.
    static func key(_ call: ObjCCall) -> InteractionKey {
        InteractionKey("objc-selection", objects: [], numbers: [Int(bitPattern: call.receiver), call.secondIntegerValue ?? -1])
    }

    static func interaction(_ call: ObjCCall, name: String) -> Interaction {
        Interaction(
            point: .delegateSelection, element: nil, screen: nil,
            details: InteractionDetails(listPosition: ListPosition(section: 0, index: call.secondIntegerValue ?? -1)), capturedBy: name)
    }
}
