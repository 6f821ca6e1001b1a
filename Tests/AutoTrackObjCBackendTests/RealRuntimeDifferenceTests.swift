import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackObjCBackend
import AutoTrackRuntime
import CObjCRuntimeBridge
import Synchronization
import Testing

/// Where GCC's libobjc and GNUstep Base differ from objc4 (and the model), pinned: the
/// raw runtime's behaviour, and what the backend does instead. Each test uses selectors
/// and classes of its own, so the real runtime's process-wide state is never shared.
@Suite(.serialized) struct RealRuntimeDifferenceTests {
    static let runtime = ObjCRuntime.shared
    static let counter = Atomic<Int>(0)

    /// A new registered class under `superclass` (NSObject by default).
    static func makeClass(_ label: String, superclass: ObjCClass? = nil) throws -> ObjCClass {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let cls = try runtime.makeClassPair(superclass: superclass ?? runtime.rootClass, named: "RealRuntimeDifference\(number)\(label)")
        try runtime.registerClass(cls)
        return cls
    }

    static func plain(_ tag: Int32) -> ObjCImplementation { implementation(atr_oracleImplementation(tag)) }

    /// An object of a new class whose `selector` records `tag`: where a forwarder
    /// sends what it does not implement.
    static func makeForwardingTarget(_ label: String, answering selector: String, tag: Int32) throws -> ObjCObject {
        let targetClass = try makeClass(label)
        runtime.addMethod(to: targetClass, selector: selector, implementation: plain(tag), types: "q@:")
        return try #require(runtime.makeObject(of: targetClass))
    }

    /// What `[object selector]` ran (oracle trace), and whether it raised.
    static func send(_ object: ObjCObject, _ selector: String) -> ([Int], Bool) {
        atr_oracleResetTrace()
        let raised: Bool
        do {
            _ = try runtime.send(object, selector)
            raised = false
        } catch {
            raised = true
        }
        return ((0..<atr_oracleTraceCount()).map { Int(atr_oracleTraceEntry($0)) }, raised)
    }

    @Test("class_replaceMethod on a method the class only inherits: GCC replaces the superclass's; the backend adds one, as objc4")
    func replaceInherited() throws {
        let selector = "differenceReplaceInherited"
        let parent = try Self.makeClass("Parent"), child = try Self.makeClass("Child", superclass: parent)
        Self.runtime.addMethod(to: parent, selector: selector, implementation: Self.plain(1), types: "q@:")
        #expect(Self.runtime.replaceMethod(in: child, selector: selector, implementation: Self.plain(2), types: "q@:") == nil)
        #expect(Self.runtime.ownMethod(named: selector, in: child) != nil)
        #expect(Self.send(try #require(Self.runtime.makeObject(of: parent)), selector).0 == [1], "the superclass is untouched")
        #expect(Self.send(try #require(Self.runtime.makeObject(of: child)), selector).0 == [2])

        let gccParent = try Self.makeClass("GCCParent"), gccChild = try Self.makeClass("GCCChild", superclass: gccParent)
        Self.runtime.addMethod(to: gccParent, selector: selector, implementation: Self.plain(1), types: "q@:")
        let previous = atr_gccReplaceMethod(
            OpaquePointer(bitPattern: gccChild.address)!, atr_selector(selector), atr_oracleImplementation(2), "q@:")
        #expect(previous.map { Int(atr_oracleTag($0)) } == 1, "GCC returns the superclass's implementation")
        #expect(Self.runtime.ownMethod(named: selector, in: gccChild) == nil, "and adds nothing to the class")
        #expect(Self.send(try #require(Self.runtime.makeObject(of: gccParent)), selector).0 == [2], "it replaced the superclass's")
    }

    @Test("method_setImplementation on a class never messaged: GCC leaks the IMP to every class not messaged yet; the backend does not")
    func setImplementationBeforeFirstMessage() throws {
        let gccSelector = "differenceUninstalledTableGCC"
        let owner = try Self.makeClass("GCCOwner")
        Self.runtime.addMethod(to: owner, selector: gccSelector, implementation: Self.plain(3), types: "q@:")
        let method = try #require(Self.runtime.ownMethod(named: gccSelector, in: owner))
        atr_gccSetImplementation(OpaquePointer(bitPattern: method.address)!, atr_oracleImplementation(4))
        // An object isa-swizzled to a class whose instances were never messaged: lookup
        // reads that class's table, which is still the shared one.
        let unrelated = try #require(Self.runtime.makeObject(of: try Self.makeClass("GCCCarrier")))
        Self.runtime.setClass(of: unrelated, to: try Self.makeClass("GCCUnrelated"))
        let (gccTrace, gccRaised) = Self.send(unrelated, gccSelector)
        #expect(gccTrace == [4] && !gccRaised, "an unrelated class answers with the leaked implementation")

        let selector = "differenceUninstalledTableBackend"
        let backendOwner = try Self.makeClass("Owner")
        Self.runtime.addMethod(to: backendOwner, selector: selector, implementation: Self.plain(3), types: "q@:")
        let backendMethod = try #require(Self.runtime.ownMethod(named: selector, in: backendOwner))
        #expect(Self.runtime.setImplementation(of: backendMethod, to: Self.plain(4)) == Self.plain(3))
        let other = try #require(Self.runtime.makeObject(of: try Self.makeClass("Carrier")))
        Self.runtime.setClass(of: other, to: try Self.makeClass("Unrelated"))
        let (trace, raised) = Self.send(other, selector)
        #expect(trace.isEmpty && raised, "an unrelated class does not implement it")
        #expect(Self.send(try #require(Self.runtime.makeObject(of: backendOwner)), selector).0 == [4])
    }

    @Test("an exchange reaches subclasses messaged before it, and leaks nowhere")
    func exchangeRefreshesSubclasses() throws {
        let first = "differenceExchangeFirst", second = "differenceExchangeSecond"
        let parent = try Self.makeClass("ExchangeParent"), child = try Self.makeClass("ExchangeChild", superclass: parent)
        Self.runtime.addMethod(to: parent, selector: first, implementation: Self.plain(5), types: "q@:")
        Self.runtime.addMethod(to: parent, selector: second, implementation: Self.plain(6), types: "q@:")
        let instance = try #require(Self.runtime.makeObject(of: child))
        #expect(Self.send(instance, first).0 == [5])
        Self.runtime.exchangeImplementations(
            try #require(Self.runtime.method(named: first, in: child)), try #require(Self.runtime.method(named: second, in: child)))
        #expect(Self.send(instance, first).0 == [6])
        #expect(Self.send(instance, second).0 == [5])
        let (trace, raised) = Self.send(try #require(Self.runtime.makeObject(of: try Self.makeClass("ExchangeUnrelated"))), first)
        #expect(trace.isEmpty && raised)
    }

    @Test("forwardingTargetForSelector: for a selector registered at run time: both runtimes forward to the target")
    func fastForwarding() throws {
        let selector = "differenceFastForwarded"
        let target = try Self.makeForwardingTarget("ForwardTarget", answering: selector, tag: 7)
        let forwarder = try Self.makeClass("Forwarder")
        Self.runtime.addMethod(
            to: forwarder, selector: "forwardingTargetForSelector:",
            implementation: implementation(atr_fastForwardingImplementation()),
            types: "@@::")
        atr_bindFastForwardingTarget(OpaquePointer(bitPattern: target.address))
        defer { atr_bindFastForwardingTarget(nil) }
        let (trace, raised) = Self.send(try #require(Self.runtime.makeObject(of: forwarder)), selector)
        #expect(trace == [7] && !raised, "forwarded to the target's implementation")

        let model = Runtime()
        let modelTarget = try model.allocate(try model.defineClass("Target", superclass: model.rootClass, methods: [
            (Selector(selector), "q@:", Implementation("target") { _ in .int(7) }),
        ]))
        let modelForwarder = try model.defineClass("Forwarder", superclass: model.rootClass, methods: [
            (Selectors.forwardingTarget, "@@::", Implementation("forwardingTarget") { _ in .object(modelTarget) }),
        ])
        let answer = try model.send(try model.allocate(modelForwarder), Selector(selector))
        guard case .int(let value) = answer else {
            Issue.record("the model did not forward: \(answer)")
            return
        }
        #expect(value == 7, "objc4 forwards")
    }

    @Test("once GNUstep forwarded a selector the slow way, it skips forwardingTargetForSelector: for it; the backend's forwarding hook asks first, as objc4")
    func slowForwardingDisablesFastForwarding() throws {
        // GNUstep alone would skip the fast path below. Every mirrored runtime installs the
        // backend's hook (so native code — an Objective-C hook's proxy — forwards as on
        // iOS); tests share a process, so it is installed here whatever ran before.
        atr_installFastForwarding()
        let selector = "differenceForwardedSlowFirst"
        let target = try Self.makeForwardingTarget("SlowFirstTarget", answering: selector, tag: 8)
        atr_bindFastForwardingTarget(OpaquePointer(bitPattern: target.address))
        defer { atr_bindFastForwardingTarget(nil) }
        let slow = try Self.makeClass("SlowForwarder")
        Self.runtime.addMethod(
            to: slow, selector: "methodSignatureForSelector:",
            implementation: implementation(atr_oracleForwardingSignatureImplementation()),
            types: "@@::")
        Self.runtime.addMethod(
            to: slow, selector: "forwardInvocation:",
            implementation: implementation(atr_slowForwardingImplementation()),
            types: "v@:@")
        let (slowTrace, slowRaised) = Self.send(try #require(Self.runtime.makeObject(of: slow)), selector)
        #expect(slowTrace == [300, 8] && !slowRaised, "forwarded the slow way")

        let fast = try Self.makeClass("FastAfterSlow")
        Self.runtime.addMethod(
            to: fast, selector: "forwardingTargetForSelector:",
            implementation: implementation(atr_fastForwardingImplementation()),
            types: "@@::")
        let (trace, raised) = Self.send(try #require(Self.runtime.makeObject(of: fast)), selector)
        #expect(trace == [8] && !raised, "asked first, forwarded to the target, as objc4 does")
    }

    @Test("GNUstep's KVO subclasses the class -class reports, dropping a layer whose -class hides it; objc4 and the model subclass the real class")
    func keyValueObservingSubclassesReportedClass() throws {
        let delegate = ObjCSampleApp.makeDelegate()
        let app = Self.runtime.realClass(of: delegate)
        let layer = try Self.makeClass("Layer", superclass: app)
        Self.runtime.addMethod(to: layer, selector: "class", implementation: Self.runtime.reportingSuperclassImplementation, types: "#@:")
        Self.runtime.setClass(of: delegate, to: layer)
        try Self.runtime.addObserver(ObjCSampleApp.makeObserver(), to: delegate, keyPath: "title")
        let observed = Self.runtime.realClass(of: delegate)
        #expect(Self.runtime.isKeyValueObservingClass(observed))
        #expect(Self.runtime.superclass(of: observed) == app, "GNUstep: a subclass of the reported class; the layer is gone")

        let model = Runtime()
        let modelApp = try model.defineClass("ATAppDelegate", superclass: model.rootClass, methods: [
            (Selector("setTitle:"), "v@:@", Implementation("setTitle:") { _ in .void }),
        ])
        let object = try model.allocate(modelApp)
        let modelLayer = try model.defineClass("Layer", superclass: modelApp, methods: [
            (Selectors.class, "#@:", Implementation("class") { _ in .object(modelApp) }),
        ])
        model.setClass(of: object, to: modelLayer)
        _ = try model.addObservation(of: "title", on: object) { _, _ in }
        #expect(object.realClass.superclass === modelLayer, "objc4 and the model: the layer stays under KVO's class")
    }

    @Test("GNUstep's key-value coding asks the object's respondsToSelector: for accessors: an override answering NO silences KVO; objc4 and the model notify")
    func keyValueCodingAsksRespondsToSelector() throws {
        let cls = try Self.makeClass("Observed")
        Self.runtime.addMethod(to: cls, selector: "setOracleValue:", implementation: implementation(atr_oracleSetterImplementation()), types: "v@:@")
        Self.runtime.addMethod(to: cls, selector: "oracleValue", implementation: implementation(atr_oracleGetterImplementation()), types: "@@:")
        Self.runtime.addMethod(to: cls, selector: "respondsToSelector:", implementation: implementation(atr_oracleRespondsImplementation(false)), types: "c@::")
        let object = try #require(Self.runtime.makeObject(of: cls))
        let observer = ObjCSampleApp.makeObserver()
        try Self.runtime.addObserver(observer, to: object, keyPath: "oracleValue")
        let before = ObjCSampleApp.observedChanges
        _ = try? Self.runtime.send(object, "setOracleValue:", nil)
        #expect(ObjCSampleApp.observedChanges == before, "GNUstep: no notification")
        try Self.runtime.removeObserver(observer, from: object, keyPath: "oracleValue")

        let model = Runtime()
        let modelClass = try model.defineClass("Observed", superclass: model.rootClass, methods: [
            (Selector("setOracleValue:"), "v@:@", Implementation("set") { _ in .void }),
            (Selectors.respondsToSelector, "c@::", Implementation("NO") { _ in .bool(false) }),
        ])
        let modelObject = try model.allocate(modelClass)
        let notified = Atomic<Int>(0)
        _ = try model.addObservation(of: "oracleValue", on: modelObject) { _, _ in notified.wrappingAdd(1, ordering: .relaxed) }
        _ = try model.send(modelObject, Selector("setOracleValue:"), MessageArguments(.object(nil)))
        #expect(notified.load(ordering: .relaxed) == 1, "objc4 and the model notify")
    }
}

/// The seventh difference, found by the mirrored runtime.
@Suite struct UnregisteredClassMethodTests {
    @Test("a method added to a class pair before registration: GCC lists it under its selector only once the class is registered (objc4 and the model at once), and its lookup crashes before")
    func methodsOfAnAllocatedClass() throws {
        let runtime = ObjCRuntime.shared
        let selector = "differenceMethodBeforeRegistration"
        let cls = try runtime.makeClassPair(superclass: runtime.rootClass, named: "RealRuntimeDifferenceUnregistered")
        #expect(runtime.addMethod(to: cls, selector: selector, implementation: implementation(atr_oracleImplementation(1)), types: "q@:"))
        #expect(!runtime.isRegistered(cls) && !runtime.isRegistered(runtime.metaclass(of: cls)))
        #expect(atr_ownMethod(OpaquePointer(bitPattern: cls.address)!, atr_selector(selector)) == nil, "GCC: not listed under its selector yet")
        // GCC's class_getInstanceMethod crashes on it; the backend answers nil (a typed
        // error for MethodWrapper) instead.
        #expect(runtime.method(named: selector, in: cls) == nil)
        #expect(runtime.ownMethod(named: selector, in: cls) == nil)
        try runtime.registerClass(cls)
        #expect(runtime.isRegistered(cls) && runtime.isRegistered(runtime.metaclass(of: cls)))
        #expect(runtime.method(named: selector, in: cls) != nil)
        #expect(runtime.ownMethod(named: selector, in: cls) != nil, "GCC: listed once registered")

        let model = Runtime()
        let modelClass = try model.allocateClassPair(superclass: model.rootClass, name: "Unregistered")
        model.addMethod(to: modelClass, Selector(selector), Implementation("one") { _ in .int(1) }, types: "q@:")
        #expect(model.ownMethods(of: modelClass).map(\.selector.name) == [selector], "objc4 and the model: listed at once")
    }
}

/// The eighth difference, found by the oracle's NSProxy-rooted classes.
@Suite struct ProxyRespondsToSelectorTests {
    @Test("NSProxy's respondsToSelector: — GNUstep answers YES itself for a selector the proxy's class implements; Foundation and the model forward every query (to forwardInvocation:, which NSProxy's raises)")
    func proxyRespondsToSelector() throws {
        let runtime = ObjCRuntime.shared
        let cls = try makeRegisteredClass("RealRuntimeDifferenceProxy", under: "NSProxy")
        #expect(runtime.addMethod(to: cls, selector: "differenceProxyOwn", implementation: implementation(atr_oracleImplementation(1)), types: "q@:"))
        let proxy = try #require(atr_alloc(OpaquePointer(bitPattern: cls.address)!))
        defer { atr_release(proxy) }
        let own = atr_respondsToSelector(proxy, atr_selector("differenceProxyOwn"))
        #expect(!own.raised && own.value == 1, "GNUstep: its own method, answered locally")
        let other = atr_respondsToSelector(proxy, atr_selector("differenceProxyOther"))
        #expect(other.raised, "GNUstep: a selector its class lacks is forwarded, and NSProxy's forwarding raises")

        let model = Runtime()
        let modelClass = try model.defineClass("Proxy", superclass: model.proxyRootClass, methods: [
            ("differenceProxyOwn", "q@:", Implementation("own") { _ in .int(1) }),
        ])
        let modelProxy = try model.allocate(modelClass)
        for selector: Selector in ["differenceProxyOwn", "differenceProxyOther"] {
            #expect(throws: RuntimeError.self, "the model: every query forwarded to NSProxy's forwardInvocation:, which raises") {
                try model.send(modelProxy, Selectors.respondsToSelector, MessageArguments(.selector(selector)))
            }
        }
    }
}
