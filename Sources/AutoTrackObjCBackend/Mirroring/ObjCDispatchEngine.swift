/// AutoTrackRuntime: `Runtime` appears in this file's public API.
public import AutoTrackRuntime
import CObjCRuntimeBridge
import Synchronization

/// Runtimes whose dispatch the real Objective-C runtime decides: the package's model
/// with a twin in GCC's libobjc for every class, method, implementation and object.
///
/// A mirrored runtime is a `Runtime` like any other — the reference host builds its
/// UIKit classes in it and the built-in hooks install on it unchanged — but every class
/// it makes is a real class (under GNUstep's `NSObject` or `NSProxy`), every
/// implementation a real `IMP` of its own (a libffi closure for the method's type
/// encoding, callable from native code), and every method change a real
/// `class_addMethod`, `method_setImplementation` or `method_exchangeImplementations`.
/// Each send asks the real runtime which `IMP` runs (`objc_msg_lookup`, or
/// `objc_msg_lookup_super` for `super`) and runs that implementation; the model's own
/// choice is checked against it (`Runtime.dispatchDivergences`).
///
/// ```swift
/// let host = try ReferenceHost(runtime: MirroredRuntime.make())
/// ```
///
/// What stays the model's: forwarding (a selector the real runtime finds nothing for
/// runs the model's `forwardingTargetForSelector:` / `forwardInvocation:` protocol) and
/// key-value observing (the model's, on real classes). Real class names carry a prefix
/// per runtime (`ATR3_UIButton`), so many runtimes share the process; the model's names
/// are unchanged. Classes are never disposed of in the real runtime.
public enum MirroredRuntime {
    /// A new runtime whose dispatch this process's real Objective-C runtime decides.
    public static func make() -> Runtime {
        let engine = ObjCDispatchEngine()
        let runtime = Runtime(engine: engine)
        engine.attach(runtime)
        return runtime
    }

    /// The real class standing for `cls` of a mirrored runtime (`nil` on a model-only
    /// runtime), for tests that look at the real runtime directly.
    public static func realClass(of cls: RuntimeClass) -> ObjCClass? {
        cls.twin == 0 ? nil : ObjCRuntime.shared.wrap(OpaquePointer(bitPattern: cls.twin)!)
    }

    /// The real object standing for `object` of a mirrored runtime, retained by the
    /// returned wrapper; `nil` on a model-only runtime.
    public static func realObject(of object: RuntimeObject) -> ObjCObject? {
        object.twin == 0 ? nil : ObjCObject(retaining: OpaquePointer(bitPattern: object.twin)!)
    }

    /// How many calls native code made to a mirrored runtime's implementations that
    /// failed: a model error thrown, or a receiver the runtime does not know (the call
    /// returned zero).
    public static var failedNativeCalls: Int { ObjCDispatchEngine.failedNativeCalls.load(ordering: .relaxed) }
}

/// The engine behind ``MirroredRuntime``.
final class ObjCDispatchEngine: DispatchEngine {
    private static let nextRuntimeNumber = Atomic<Int>(1)
    static let failedNativeCalls = Atomic<Int>(0)

    /// The prefix of this runtime's real class names.
    private let prefix: String

    /// An implementation's closure: what the closure handler needs to run it.
    final class ClosureContext: Sendable {
        let implementation: Implementation
        unowned let engine: ObjCDispatchEngine
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
        var contexts: [UInt: ClosureContext] = [:]
        var implementations: [ObjectIdentifier: UInt] = [:]
        var classes: [UInt: ClassReference] = [:]
        var objects: [UInt: ObjectReference] = [:]
        /// The runtime's root classes' metaclasses: the model's root metaclass inherits
        /// the root class's instance methods, a real metaclass under GNUstep's root
        /// does not, so each root instance method is copied to it.
        var rootMetaclassOf: [UInt: UInt] = [:]
        var copies: Set<Copy> = []
    }

    /// A root instance method's copy in the root metaclass.
    struct Copy: Hashable {
        let metaclass: UInt
        let selector: Int
    }

    private let state = Mutex(State())

    init() {
        prefix = "ATR\(Self.nextRuntimeNumber.wrappingAdd(1, ordering: .relaxed).oldValue)_"
        Self.installHandler
    }

    /// The runtime this engine decides for, set once after it is made.
    private let attachedRuntime = AttachedRuntime()

    final class AttachedRuntime: @unchecked Sendable {
        // Safe: written once, by `attach`, before the runtime is handed out.
        weak var runtime: Runtime?
    }

    func attach(_ runtime: Runtime) { attachedRuntime.runtime = runtime }

    private static let installHandler: Void = { atr_setClosureHandler(closureHandler) }()

    // MARK: Selectors and implementations

    private func sel(_ selector: Selector) -> OpaquePointer {
        if let known = state.withLock({ $0.selectors[selector.id] }) { return OpaquePointer(bitPattern: known)! }
        let made = atr_selector(selector.name)
        state.withLock { $0.selectors[selector.id] = made.address }
        return made
    }

    /// The `IMP` of `implementation` (one per implementation, made on first use).
    private func imp(for implementation: Implementation, types: String) -> UInt {
        if let known = state.withLock({ $0.implementations[ObjectIdentifier(implementation)] }) { return known }
        let context = ClosureContext(implementation: implementation, engine: self)
        // A closure for the encoding; an encoding closures cannot take (a struct by
        // value) gets one for `v@:`: still a distinct IMP, callable by the runtime's own
        // sends, which never go through C.
        let made = atr_makeClosure(types, Unmanaged.passUnretained(context).toOpaque()) ?? atr_makeClosure("v@:", Unmanaged.passUnretained(context).toOpaque())
        let address = UInt(bitPattern: unsafeBitCast(made, to: Int.self))
        return state.withLock { state in
            if let raced = state.implementations[ObjectIdentifier(implementation)] { return raced }
            state.implementations[ObjectIdentifier(implementation)] = address
            state.contexts[address] = context
            return address
        }
    }

    private func function(_ address: UInt) -> ATImplementation {
        unsafeBitCast(Int(bitPattern: address), to: ATImplementation.self)
    }

    private func implementation(at address: UInt) -> Implementation? {
        state.withLock { $0.contexts[address]?.implementation }
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

    func registerClassPair(_ cls: UInt) { atr_registerClassPair(OpaquePointer(bitPattern: cls)!) }

    // MARK: Methods

    private func ownMethod(_ selector: Selector, in cls: UInt) -> OpaquePointer? {
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
    private func syncCopy(of selector: Selector, in owner: UInt) {
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
        guard atr_classResponds(atr_objectClass(object), name), let found = atr_messageLookup(object, name) else { return .forwarded }
        return classify(found, selector: selector)
    }

    func lookUpSuper(_ selector: Selector, receiver: UInt, staticClass: UInt) -> EngineLookup {
        let name = sel(selector)
        guard let superclass = atr_superclass(OpaquePointer(bitPattern: staticClass)!), atr_classResponds(superclass, name),
              let found = atr_superLookupImplemented(OpaquePointer(bitPattern: receiver)!, superclass, name)
        else { return .forwarded }
        return classify(found, selector: selector)
    }

    private func classify(_ found: ATImplementation, selector: Selector) -> EngineLookup {
        let address = UInt(bitPattern: unsafeBitCast(found, to: Int.self))
        if let implementation = implementation(at: address) { return .implementation(implementation) }
        return .foreign(name: "IMP 0x\(String(address, radix: 16)) for \(selector)")
    }

    // MARK: Native calls

    /// The model object a native call's `id` stands for: an object or class of this
    /// runtime, or `nil`.
    private func modelObject(at address: UInt) -> RuntimeObject? {
        state.withLock { state in state.objects[address]?.object ?? state.classes[address]?.cls }
    }

    /// Native code called one of this runtime's implementations: the arguments become
    /// a message, the implementation runs, and its result goes back in 64 bits.
    private static let closureHandler: ATClosureHandler = { context, count, kinds, arguments, returnKind, result in
        guard let context else { return }
        let closure = Unmanaged<ClosureContext>.fromOpaque(context).takeUnretainedValue()
        closure.engine.handleNativeCall(closure.implementation, count: Int(count), kinds: kinds, arguments: arguments, returnKind: returnKind, result: result)
    }

    private func handleNativeCall(
        _ implementation: Implementation, count: Int, kinds: UnsafePointer<CChar>, arguments: UnsafePointer<UInt64>, returnKind: CChar,
        result: UnsafeMutablePointer<UInt64>
    ) {
        guard let runtime = attachedRuntime.runtime, let receiver = modelObject(at: UInt(arguments[0])),
              let selectorPointer = OpaquePointer(bitPattern: UInt(arguments[1]))
        else {
            Self.failedNativeCalls.add(1, ordering: .relaxed)
            return
        }
        let selector = Selector(String(cString: atr_selectorName(selectorPointer)))
        var values: [RuntimeValue] = []
        for index in 2..<max(count, 2) {
            let bits = arguments[index]
            switch UInt8(bitPattern: kinds[index]) {
            case UInt8(ascii: "@"), UInt8(ascii: "#"): values.append(.object(modelObject(at: UInt(bits))))
            case UInt8(ascii: ":"):
                values.append(OpaquePointer(bitPattern: UInt(bits)).map { .selector(Selector(String(cString: atr_selectorName($0)))) } ?? .int(0))
            case UInt8(ascii: "c"), UInt8(ascii: "C"): values.append(.bool(bits != 0))
            case UInt8(ascii: "d"), UInt8(ascii: "f"): values.append(.double(Double(bitPattern: bits)))
            case UInt8(ascii: "?"): values.append(.block(nil))
            default: values.append(.int(Int(truncatingIfNeeded: bits)))
            }
        }
        let value: RuntimeValue
        do throws(RuntimeError) {
            value = try implementation.body(Message(receiver: receiver, selector: selector, arguments: MessageArguments(values), runtime: runtime))
        } catch {
            Self.failedNativeCalls.add(1, ordering: .relaxed)
            return
        }
        switch value {
        case .void, .value, .block: result.pointee = 0
        case .object(let object): result.pointee = UInt64(object?.twin ?? 0)
        case .bool(let flag): result.pointee = flag ? 1 : 0
        case .int(let number): result.pointee = UInt64(bitPattern: Int64(number))
        case .double(let number): result.pointee = number.bitPattern
        case .selector(let returned): result.pointee = UInt64(sel(returned).address)
        }
        _ = returnKind
    }
}
