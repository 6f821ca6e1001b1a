/// AutoTrackRuntime: `Runtime` appears in this file's public API.
public import AutoTrackRuntime
import CObjCRuntimeBridge
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

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
/// A message nothing implements is forwarded by GNUstep: its forwarding IMP, called
/// with the C convention of the message's encoding, asks `methodSignatureForSelector:`,
/// packs an `NSInvocation` and hands it to `forwardInvocation:` — this runtime's
/// implementations, called natively and given the invocation as the model's
/// `Invocation` (Swift values such as index paths travel in boxes). Only the fast path
/// keeps objc4's order: `forwardingTargetForSelector:` is asked first, as objc4 does
/// and GNUstep does not always. Key-value observing is the model's, on real classes.
/// Real class names carry a prefix per runtime (`ATR3_UIButton`), so many runtimes
/// share the process; the model's names are unchanged. Classes are never disposed of in
/// the real runtime.
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

    /// How many sends this process's mirrored runtimes forwarded through GNUstep's own
    /// forwarding (`NSInvocation`, `forwardInvocation:`).
    public static var realForwards: Int { ObjCDispatchEngine.realForwards.load(ordering: .relaxed) }
}

/// The engine behind ``MirroredRuntime``.
final class ObjCDispatchEngine: DispatchEngine {
    private static let nextRuntimeNumber = Atomic<Int>(1)
    static let failedNativeCalls = Atomic<Int>(0)
    static let realForwards = Atomic<Int>(0)

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
        /// Real objects standing for Swift values (`RuntimeValue.value`) passed through
        /// native code: an index path handed to a forwarded `tableView:didSelect…`.
        var boxes: [UInt: any Sendable] = [:]
        /// Retained `NSMethodSignature`s by type encoding.
        var signatures: [String: UInt] = [:]
    }

    /// The errors implementations threw while native code called them, by thread: what a
    /// forwarded send rethrows once the real runtime returns.
    private let pendingErrors = Mutex<[UInt: RuntimeError]>([:])

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

    // MARK: Forwarding

    /// The box class: instances stand for Swift values in native code.
    private static let boxClass: UInt = {
        let root = ObjCRuntime.shared.lookUpClass(named: "NSObject")!
        let made = atr_allocateClassPair(OpaquePointer(bitPattern: root.address)!, "ATRMirroredValueBox")!
        atr_registerClassPair(made)
        return made.address
    }()

    /// Forwards through GNUstep: the forwarding IMP its hook gives, called with the C
    /// convention of the message's encoding (some method's for the selector, as a
    /// compiled call site would know it, else the receiver's signature for it, else the
    /// arguments' kinds); it asks
    /// `methodSignatureForSelector:`, packs an `NSInvocation` and hands it to
    /// `forwardInvocation:` — this runtime's implementations, called natively.
    func forward(_ message: Message) throws(RuntimeError) -> RuntimeValue? {
        guard let runtime = attachedRuntime.runtime else { return nil }
        // objc4's order: the fast path first. GNUstep asks forwardingTargetForSelector:
        // only for selectors without type information never forwarded the slow way (the
        // backend's fourth pinned difference), so the engine asks it, as objc4 does.
        let receiverClass = atr_objectClass(OpaquePointer(bitPattern: message.receiver.twin)!)
        if message.selector != Selectors.forwardingTarget, atr_classResponds(receiverClass, sel(Selectors.forwardingTarget)) {
            let target = try runtime.send(message.receiver, Selectors.forwardingTarget, MessageArguments(.selector(message.selector))).object
            if let target, target !== message.receiver { return try runtime.send(target, message.selector, message.arguments) }
        }
        let arguments = (0..<message.arguments.count).map { message.arguments[$0] }
        var types = runtime.anyTypeEncoding(for: message.selector) ?? signatureTypes(of: message, runtime: runtime) ?? ""
        if Self.argumentCount(of: types) != arguments.count + 2 { types = "@@:" + arguments.map(Self.kind(of:)).joined() }
        var boxes: [UInt] = []
        defer {
            state.withLock { state in for box in boxes { state.boxes[box] = nil } }
            for box in boxes { atr_release(OpaquePointer(bitPattern: box)!) }
        }
        let bits = arguments.map { value -> UInt64 in
            switch value {
            case .void, .block: return 0
            case .object(let object): return UInt64(object?.twin ?? 0)
            case .bool(let flag): return flag ? 1 : 0
            case .int(let number): return UInt64(bitPattern: Int64(number))
            case .double(let number): return number.bitPattern
            case .selector(let selector): return UInt64(sel(selector).address)
            case .value(let wrapped):
                guard let box = atr_alloc(OpaquePointer(bitPattern: Self.boxClass)!) else { return 0 }
                boxes.append(box.address)
                state.withLock { $0.boxes[box.address] = wrapped }
                return UInt64(box.address)
            }
        }
        Self.realForwards.add(1, ordering: .relaxed)
        let thread = Self.currentThread
        let previous = pendingErrors.withLock { $0.removeValue(forKey: thread) }
        var result: UInt64 = 0
        let outcome = bits.withUnsafeBufferPointer { buffer in
            atr_forwardNatively(
                OpaquePointer(bitPattern: message.receiver.twin)!, sel(message.selector), types, buffer.baseAddress ?? UnsafePointer(bitPattern: 8)!,
                Int32(bits.count), &result)
        }
        let thrown = pendingErrors.withLock { pending in
            let thrown = pending.removeValue(forKey: thread)
            if let previous { pending[thread] = previous }
            return thrown
        }
        if let thrown { throw thrown }
        if outcome.raised {
            let name = withUnsafeBytes(of: outcome.exceptionName) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "NSInvalidArgumentException" { throw runtime.unrecognized(message.selector, by: message.receiver) }
            throw .exception(name: name, reason: "raised while forwarding \(message.selector) on the real runtime")
        }
        return value(bits: result, kind: Self.returnKind(of: types))
    }

    /// The encoding the receiver's `methodSignatureForSelector:` gives for a selector no
    /// class of the runtime implements (GNUstep asks it again, to build its invocation).
    private func signatureTypes(of message: Message, runtime: Runtime) -> String? {
        let receiverClass = atr_objectClass(OpaquePointer(bitPattern: message.receiver.twin)!)
        guard atr_classResponds(receiverClass, sel(Selectors.methodSignature)),
              case .value(let wrapped)? = try? runtime.send(message.receiver, Selectors.methodSignature, MessageArguments(.selector(message.selector))),
              let signature = wrapped as? MethodSignature
        else { return nil }
        return signature.typeEncoding
    }

    /// The number of types in an encoding (return type included).
    static func argumentCount(of types: String) -> Int {
        var count = 0
        var index = types.startIndex
        while index < types.endIndex {
            let character = types[index]
            if character.isNumber || "rnNoORVA".contains(character) { index = types.index(after: index); continue }
            count += 1
            if character == "@", types.index(after: index) < types.endIndex, types[types.index(after: index)] == "?" {
                index = types.index(after: index)
            }
            index = types.index(after: index)
        }
        return count - 1
    }

    /// The return type's kind character.
    static func returnKind(of types: String) -> Character {
        types.first { !"rnNoORVA".contains($0) } ?? "v"
    }

    /// The encoding of an argument, from its value.
    static func kind(of value: RuntimeValue) -> String {
        switch value {
        case .void, .object, .value: "@"
        case .bool: "c"
        case .int: "q"
        case .double: "d"
        case .selector: ":"
        case .block: "@?"
        }
    }

    private static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(OpaquePointer(bitPattern: UInt(pthread_self()))))) }

    /// A value from native code's 64 bits, by its kind.
    private func value(bits: UInt64, kind: Character) -> RuntimeValue {
        switch kind {
        case "v": .void
        case "@", "#": object(at: UInt(bits))
        case ":": OpaquePointer(bitPattern: UInt(bits)).map { .selector(Selector(String(cString: atr_selectorName($0)))) } ?? .int(0)
        case "c", "C", "B": .bool(bits != 0)
        case "d", "f": .double(Double(bitPattern: bits))
        case "?": .block(nil)
        default: .int(Int(truncatingIfNeeded: bits))
        }
    }

    /// An object argument from native code: a model object or class, a boxed value, an
    /// `NSInvocation` as the model's invocation, or `nil`.
    private func object(at address: UInt) -> RuntimeValue {
        guard address != 0 else { return .object(nil) }
        if let found = modelObject(at: address) { return .object(found) }
        if let boxed = state.withLock({ $0.boxes[address] }) { return .value(boxed) }
        return .object(nil)
    }

    /// The model's invocation for a native `NSInvocation`, or `nil` when it is not one.
    private func invocation(at address: UInt, runtime: Runtime) -> Invocation? {
        guard let pointer = OpaquePointer(bitPattern: address), atr_isInvocation(pointer),
              let selectorPointer = atr_invocationSelector(pointer)
        else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        guard let types = buffer.withUnsafeMutableBufferPointer({ atr_invocationTypes(pointer, $0.baseAddress!, 256).map { String(cString: $0) } })
        else { return nil }
        let kinds = Self.kinds(of: types)
        var arguments: [RuntimeValue] = []
        for index in 2..<max(kinds.count, 2) {
            let bits = atr_invocationArgument(pointer, Int32(index))
            arguments.append(value(bits: bits, kind: kinds[index]))
        }
        let target: RuntimeObject? = atr_invocationTarget(pointer).flatMap { modelObject(at: $0.address) }
        return Invocation(
            selector: Selector(String(cString: atr_selectorName(selectorPointer))), target: target, arguments: MessageArguments(arguments),
            signature: MethodSignature(typeEncoding: types), runtime: runtime)
    }

    /// The kind of each type of an encoding after the return type (self and _cmd
    /// included).
    static func kinds(of types: String) -> [Character] {
        var kinds: [Character] = []
        var index = types.startIndex
        var first = true
        while index < types.endIndex {
            let character = types[index]
            if character.isNumber || "rnNoORVA".contains(character) { index = types.index(after: index); continue }
            var kind = character
            if character == "@", types.index(after: index) < types.endIndex, types[types.index(after: index)] == "?" {
                kind = "?"
                index = types.index(after: index)
            }
            if first { first = false } else { kinds.append(kind) }
            index = types.index(after: index)
        }
        return kinds
    }

    /// A retained `NSMethodSignature` for `types`.
    private func signature(_ types: String) -> UInt {
        if let known = state.withLock({ $0.signatures[types] }) { return known }
        let made = atr_methodSignature(types)?.address ?? 0
        state.withLock { $0.signatures[types] = made }
        return made
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
        var invocations: [(UInt, Invocation)] = []
        for index in 2..<max(count, 2) {
            let bits = arguments[index]
            let kind = Character(UnicodeScalar(UInt8(bitPattern: kinds[index])))
            if kind == "@", case .object(nil) = object(at: UInt(bits)), let invocation = invocation(at: UInt(bits), runtime: runtime) {
                // GNUstep's NSInvocation, handed to forwardInvocation:, as the model's.
                invocations.append((UInt(bits), invocation))
                values.append(.value(invocation))
            } else {
                values.append(value(bits: bits, kind: kind))
            }
        }
        let value: RuntimeValue
        do throws(RuntimeError) {
            value = try implementation.body(Message(receiver: receiver, selector: selector, arguments: MessageArguments(values), runtime: runtime))
        } catch {
            Self.failedNativeCalls.add(1, ordering: .relaxed)
            let thread = Self.currentThread
            pendingErrors.withLock { pending in if pending[thread] == nil { pending[thread] = error } }
            return
        }
        for (address, invocation) in invocations {
            atr_invocationSetReturn(OpaquePointer(bitPattern: address)!, bits(of: invocation.returnValue))
        }
        if case .value(let wrapped) = value, let methodSignature = wrapped as? MethodSignature {
            result.pointee = UInt64(signature(methodSignature.typeEncoding))
        } else {
            result.pointee = bits(of: value)
        }
        _ = returnKind
    }

    /// A value as 64 bits for native code (a value that has no native form is 0).
    private func bits(of value: RuntimeValue) -> UInt64 {
        switch value {
        case .void, .value, .block: 0
        case .object(let object): UInt64(object?.twin ?? 0)
        case .bool(let flag): flag ? 1 : 0
        case .int(let number): UInt64(bitPattern: Int64(number))
        case .double(let number): number.bitPattern
        case .selector(let returned): UInt64(sel(returned).address)
        }
    }
}
