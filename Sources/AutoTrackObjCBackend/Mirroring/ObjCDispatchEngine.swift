import AutoTrackRuntime
import CObjCRuntimeBridge
import Synchronization
import AutoTrackLocking

/// The engine behind ``MirroredRuntime``.
final class ObjCDispatchEngine: DispatchEngine {
    static let nextRuntimeNumber = Atomic<Int>(1)
    static let failedNativeCalls = Atomic<Int>(0)
    /// How many sends this runtime forwarded through GNUstep.
    let realForwards = Atomic<Int>(0)

    /// The prefix of this runtime's real class names.
    let prefix: String

    /// An implementation's closure: what the closure handler needs to run it. A closure
    /// outlives its runtime (IMPs are never freed), so the engine marks its contexts
    /// dead when it goes: a call after that does nothing and is counted. (Not weak
    /// references: an object weakly referenced counts its references the slow way, and
    /// implementations are retained on every send.)
    final class ClosureContext: @unchecked Sendable {
        // Safe: both references are valid while `isAlive` — the engine keeps its
        // implementations and clears the flag in its `deinit`; a native call racing with
        // the runtime's own release is a use-after-release in the app either way.
        unowned(unsafe) let implementation: Implementation
        unowned(unsafe) let engine: ObjCDispatchEngine
        let isAlive = Atomic<Bool>(true)
        init(implementation: Implementation, engine: ObjCDispatchEngine) {
            self.implementation = implementation
            self.engine = engine
        }
    }

    /// Unretained references to the runtime's classes (the runtime keeps them alive).
    struct ClassReference: @unchecked Sendable {
        // Safe: the runtime owns its classes for its whole life, and the engine lives
        // no longer than its runtime.
        unowned(unsafe) let cls: RuntimeClass
    }

    /// Unretained references to live objects (each removes itself when released).
    struct ObjectReference: @unchecked Sendable {
        // Safe: an object's entry is removed in its `deinit`, before it is freed.
        unowned(unsafe) let object: RuntimeObject
    }

    struct State {
        var selectors: [Int: UInt] = [:]
        /// The implementation each IMP this engine made runs.
        var implementationsByIMP: [UInt: Implementation] = [:]
        /// The contexts of those IMPs' closures, marked dead when the engine goes.
        var contexts: [ClosureContext] = []
        var implementations: [ObjectIdentifier: UInt] = [:]
        var classes: [UInt: ClassReference] = [:]
        var objects: [UInt: ObjectReference] = [:]
        /// The runtime's root classes' metaclasses: the model's root metaclass inherits
        /// the root class's instance methods, a real metaclass under GNUstep's root
        /// does not, so each root instance method is copied to it.
        var rootMetaclassOf: [UInt: UInt] = [:]
        var copies: Set<Copy> = []
        /// Real objects standing for Swift values (`RuntimeValue.value`) passed through
        /// native code: an index path handed to a forwarded `tableView:didSelect…`.
        var boxes: [UInt: any Sendable] = [:]
        /// Retained `NSMethodSignature`s by type encoding.
        var signatures: [String: UInt] = [:]
        /// The implementations standing for `IMP`s native code installed, by `IMP`.
        var nativeImplementations: [UInt: Implementation] = [:]
        /// The objects native code made that this runtime adopted, held until they are
        /// deallocated.
        var adopted: [UInt: RuntimeObject] = [:]
        /// Real blocks made for model blocks, both ways, and their contexts.
        var madeBlocks: [UInt: RuntimeBlock] = [:]
        var blockAddresses: [ObjectIdentifier: UInt] = [:]
        var blockContexts: [BlockContext] = []
    }

    /// The errors implementations threw while native code called them, by thread: what a
    /// forwarded send rethrows once the real runtime returns.
    let pendingErrors = Locked<[UInt: RuntimeError]>([:])

    /// Objects this runtime's implementations returned to native code, by thread, kept
    /// alive until the native call that led there returns to the model (an autorelease
    /// pool: an object a model factory made has no other owner while native code hands
    /// it on). Kept only inside such a call (`depth` > 0), so native code that calls in
    /// on its own leaves nothing behind.
    let returnedToNative = Locked<[UInt: ReturnedObjects]>([:])

    /// One thread's pool: how many model-to-native calls are open, and what they keep.
    struct ReturnedObjects {
        var depth = 0
        var objects: [RuntimeObject] = []
    }

    /// Runs `call` — the model calling native code — keeping the objects native code gets
    /// back from the model meanwhile alive until it returns.
    func keepingReturnedObjects<Result>(_ call: () -> Result) -> Result {
        let thread = Self.currentThread
        let mark = returnedToNative.withLock { pools in
            pools[thread, default: ReturnedObjects()].depth += 1
            return pools[thread]!.objects.count
        }
        defer {
            returnedToNative.withLock { pools in
                guard var pool = pools[thread] else { return }
                pool.depth -= 1
                pool.objects.removeSubrange(min(mark, pool.objects.count)...)
                pools[thread] = pool.depth == 0 ? nil : pool
            }
        }
        return call()
    }

    /// Keeps `object`, returned to native code, while a model-to-native call is open on
    /// this thread.
    func keepReturned(_ object: RuntimeObject) {
        let thread = Self.currentThread
        returnedToNative.withLock { pools in
            guard pools[thread] != nil else { return }
            pools[thread]!.objects.append(object)
        }
    }

    /// A root instance method's copy in the root metaclass.
    struct Copy: Hashable {
        let metaclass: UInt
        let selector: Int
    }

    let state = Locked(State())
    /// Serialises adopting native objects and classes (a chain is adopted at once).
    let adoption = Locked(())

    /// An engine naming its real classes `prefix` + the model's name; a fresh prefix
    /// per engine when `nil`.
    init(prefix: String? = nil) {
        self.prefix = prefix ?? "ATR\(Self.nextRuntimeNumber.wrappingAdd(1, ordering: .relaxed).oldValue)_"
        atr_declareThreads()
        Self.installHandler
        // Adopted objects, and what native code associated, are forgotten at -dealloc.
        ObjCRuntime.observeDeallocation
        // Native code's sends to proxies that forward by the fast path alone reach
        // their targets, as on objc4.
        atr_installFastForwarding()
    }

    deinit {
        state.withLock { state in
            for context in state.contexts { context.isAlive.store(false, ordering: .releasing) }
            for context in state.blockContexts { context.isAlive.store(false, ordering: .releasing) }
        }
    }

    /// The runtime this engine decides for, set once after it is made.
    let attachedRuntime = AttachedRuntime()

    final class AttachedRuntime: @unchecked Sendable {
        // Safe: written once, by `attach`, before the runtime is handed out; the runtime
        // owns the engine, so it outlives every use of this reference. Not weak: a weakly
        // referenced object counts its references the slow way.
        unowned(unsafe) var runtime: Runtime?
    }

    func attach(_ runtime: Runtime) {
        attachedRuntime.runtime = runtime
        Self.followNativeClassChanges(in: self)
    }

    static let installHandler: Void = { atr_setClosureHandler(closureHandler) }()

    // MARK: Selectors and implementations

    func sel(_ selector: Selector) -> OpaquePointer {
        if let known = state.withLock({ $0.selectors[selector.id] }) { return OpaquePointer(bitPattern: known)! }
        let made = atr_selector(selector.name)
        state.withLock { $0.selectors[selector.id] = made.address }
        return made
    }

    /// The `IMP` of `implementation` (one per implementation, made on first use).
    func imp(for implementation: Implementation, types: String) -> UInt {
        if let known = state.withLock({ $0.implementations[ObjectIdentifier(implementation)] }) { return known }
        let context = ClosureContext(implementation: implementation, engine: self)
        // A closure for the encoding; an encoding closures cannot take (a struct by
        // value) gets one for `v@:`: still a distinct IMP, callable by the runtime's own
        // sends, which never go through C.
        // The closure keeps its context for the process's life, as its IMP lives on.
        let retained = Unmanaged.passRetained(context).toOpaque()
        let made = atr_makeClosure(types, retained) ?? atr_makeClosure("v@:", retained)
        let address = UInt(bitPattern: unsafeBitCast(made, to: Int.self))
        return state.withLock { state in
            if let raced = state.implementations[ObjectIdentifier(implementation)] { return raced }
            state.implementations[ObjectIdentifier(implementation)] = address
            state.implementationsByIMP[address] = implementation
            state.contexts.append(context)
            return address
        }
    }

    func function(_ address: UInt) -> ATImplementation {
        unsafeBitCast(Int(bitPattern: address), to: ATImplementation.self)
    }

    func implementation(at address: UInt) -> Implementation? {
        state.withLock { $0.implementationsByIMP[address] ?? $0.nativeImplementations[address] }
    }

    // MARK: Classes

    func makeRootClass(named name: String, isProxy: Bool) -> (cls: UInt, metaclass: UInt) {
        let realRoot = ObjCRuntime.shared.lookUpClass(named: isProxy ? "NSProxy" : "NSObject")!
        let made = allocateClassPair(superclass: realRoot.address, named: name)
        registerClassPair(made.cls)
        state.withLock { $0.rootMetaclassOf[made.cls] = made.metaclass }
        return made
    }

    func allocateClassPair(superclass: UInt, named name: String) -> (cls: UInt, metaclass: UInt) {
        let parent = OpaquePointer(bitPattern: superclass)!
        var realName = prefix + name
        var attempt = 1
        while true {
            if let made = atr_allocateClassPair(parent, realName) { return (made.address, atr_metaclass(made).address) }
            // The name is taken (a class of this runtime disposed of and made again).
            attempt += 1
            realName = "\(prefix)\(name)_\(attempt)"
        }
    }

    func adopt(_ cls: RuntimeClass) {
        state.withLock { $0.classes[cls.twin] = ClassReference(cls: cls) }
    }

    /// `objc_registerClassPair`, then the class's and metaclass's dispatch tables
    /// installed at once: GCC's runtime writes an implementation change on a class never
    /// messaged into the one table all such classes share, so native code exchanging a
    /// method of this class before its first message (an Objective-C hook installing
    /// early) would change every unmessaged class (the backend's second difference).
    func registerClassPair(_ cls: UInt) {
        let real = OpaquePointer(bitPattern: cls)!
        atr_registerClassPair(real)
        let probe = sel(Selector("class"))
        _ = atr_classResponds(real, probe)
        _ = atr_classResponds(atr_metaclass(real), probe)
    }

    // MARK: Methods

    func ownMethod(_ selector: Selector, in cls: UInt) -> OpaquePointer? {
        atr_ownMethod(OpaquePointer(bitPattern: cls)!, sel(selector))
    }

    func addMethod(to cls: UInt, selector: Selector, implementation: Implementation, types: String) {
        let real = OpaquePointer(bitPattern: cls)!
        let address = imp(for: implementation, types: types)
        // A copy of a root instance method standing in the root metaclass becomes the
        // metaclass's own method.
        if state.withLock({ $0.copies.remove(Copy(metaclass: cls, selector: selector.id)) }) != nil, let copy = ownMethod(selector, in: cls) {
            _ = atr_setImplementation(real, copy, function(address))
            return
        }
        _ = atr_addMethod(real, sel(selector), function(address), types)
        if let metaclass = state.withLock({ $0.rootMetaclassOf[cls] }), ownMethod(selector, in: metaclass) == nil {
            _ = atr_addMethod(OpaquePointer(bitPattern: metaclass)!, sel(selector), function(address), types)
            state.withLock { _ = $0.copies.insert(Copy(metaclass: metaclass, selector: selector.id)) }
        }
    }

    func setImplementation(of selector: Selector, in owner: UInt, to implementation: Implementation) {
        guard let method = ownMethod(selector, in: owner) else { return }
        let types = String(cString: atr_methodTypes(method))
        _ = atr_setImplementation(OpaquePointer(bitPattern: owner)!, method, function(imp(for: implementation, types: types)))
        syncCopy(of: selector, in: owner)
    }

    func exchangeImplementations(_ first: Selector, in firstOwner: UInt, _ second: Selector, in secondOwner: UInt) {
        guard let firstMethod = ownMethod(first, in: firstOwner), let secondMethod = ownMethod(second, in: secondOwner) else { return }
        atr_exchangeImplementations(OpaquePointer(bitPattern: firstOwner)!, firstMethod, OpaquePointer(bitPattern: secondOwner)!, secondMethod)
        syncCopy(of: first, in: firstOwner)
        syncCopy(of: second, in: secondOwner)
    }

    /// Gives a root instance method's metaclass copy the method's implementation.
    func syncCopy(of selector: Selector, in owner: UInt) {
        guard let metaclass = state.withLock({ state in state.rootMetaclassOf[owner].flatMap { meta in
            state.copies.contains(Copy(metaclass: meta, selector: selector.id)) ? meta : nil
        } }),
            let method = ownMethod(selector, in: owner), let copy = ownMethod(selector, in: metaclass)
        else { return }
        _ = atr_setImplementation(OpaquePointer(bitPattern: metaclass)!, copy, atr_methodImplementation(method))
    }

    // MARK: Objects

    func makeInstance(of cls: UInt, for object: RuntimeObject) -> UInt {
        guard let made = atr_alloc(OpaquePointer(bitPattern: cls)!) else { return 0 }
        state.withLock { $0.objects[made.address] = ObjectReference(object: object) }
        return made.address
    }

    func releaseInstance(_ instance: UInt) {
        state.withLock { _ = $0.objects.removeValue(forKey: instance) }
        atr_release(OpaquePointer(bitPattern: instance)!)
    }

    func setClass(of instance: UInt, to cls: UInt) {
        _ = atr_setClass(OpaquePointer(bitPattern: instance)!, OpaquePointer(bitPattern: cls)!)
    }

    // MARK: Lookup

    func lookUp(_ selector: Selector, receiver: UInt) -> EngineLookup {
        let object = OpaquePointer(bitPattern: receiver)!, name = sel(selector)
        // Whether anything implements it, first: looking a forwarded selector up would
        // run GNUstep's forwarding preparation, which messages the receiver.
        let realClass = atr_objectClass(object)
        guard atr_classResponds(realClass, name), let found = atr_messageLookup(object, name) else { return .forwarded }
        return classify(found, selector: selector, in: realClass)
    }

    func lookUpSuper(_ selector: Selector, receiver: UInt, staticClass: UInt) -> EngineLookup {
        let name = sel(selector)
        guard let superclass = atr_superclass(OpaquePointer(bitPattern: staticClass)!), atr_classResponds(superclass, name),
              let found = atr_superLookupImplemented(OpaquePointer(bitPattern: receiver)!, superclass, name)
        else { return .forwarded }
        return classify(found, selector: selector, in: superclass)
    }

    /// What the real lookup found, for the model: one of this runtime's
    /// implementations, one native code installed (called natively), or one of
    /// GNUstep's root methods (foreign to the model).
    func classify(_ found: ATImplementation, selector: Selector, in realClass: OpaquePointer) -> EngineLookup {
        let address = UInt(bitPattern: unsafeBitCast(found, to: Int.self))
        if let implementation = implementation(found: address, selector: selector, in: realClass) { return .implementation(implementation) }
        return .foreign(name: "IMP 0x\(String(address, radix: 16)) for \(selector)")
    }
}
