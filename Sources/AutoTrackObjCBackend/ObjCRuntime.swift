/// AutoTrackInterception: `HookError`, `RuntimeOperations` appear in this file's public API.
public import AutoTrackInterception
/// AutoTrackMethodWrapping: its `RuntimeOperations` requirements are this file's public API.
public import AutoTrackMethodWrapping
import CObjCRuntimeBridge
import AutoTrackLocking

/// The real Objective-C runtime of this process — GCC's libobjc with GNUstep Base —
/// as a backend of the hook contract's `RuntimeOperations`: every requirement is the
/// runtime call of the same objc4 name, so `MethodWrapper`, `ReportingTarget` and
/// `HookClasses` install, uninstall and stack hooks on real classes, real methods and
/// real IMPs exactly as they do on the package's model.
///
/// There is one runtime per process (``shared``); classes, methods and
/// implementations are handed out as interned wrappers, so `===` on them is identity
/// of the runtime's own entities, as the wrapping machinery expects.
///
/// Where GCC's runtime differs from objc4, the backend keeps objc4's semantics (which
/// the model follows and iOS has): `replaceMethod` never touches an inherited method,
/// and implementation changes keep every dispatch table right (GCC's own calls write
/// into the table all not-yet-messaged classes share). The bridge's header lists each
/// difference.
///
/// GCC's runtime has no `objc_setAssociatedObject`: associations are kept in a side
/// table of this backend, by the object's address and the key. The table forgets an
/// object's associations when it is deallocated (the backend observes `-dealloc` of
/// `NSObject` and `NSProxy` from the first association on an instance), as objc4 does,
/// so a later object at the same address never sees them; classes are never
/// deallocated.
public final class ObjCRuntime: RuntimeOperations {
    /// The process's runtime.
    public static let shared = ObjCRuntime()

    private let classes = Locked<[UInt: ObjCClass]>([:])
    private let methods = Locked<[UInt: ObjCMethod]>([:])
    /// Associations by object (or class) address, then key.
    private let associations = Locked<[UInt: [String: any AnyObject & Sendable]]>([:])

    private init() {
        // Swift's threads send messages too: GCC's runtime must not free old dispatch
        // tables under them.
        atr_declareThreads()
    }

    // MARK: Wrapping the runtime's pointers

    /// The interned wrapper of a class pointer.
    func wrap(_ pointer: ATClassRef) -> ObjCClass {
        let address = pointer.address
        return classes.withLock { known in
            if let existing = known[address] { return existing }
            let created = ObjCClass(address: address)
            known[address] = created
            return created
        }
    }

    /// The interned wrapper of a method pointer found from `cls` (its owner is `cls` or a
    /// superclass).
    func wrap(_ pointer: ATMethodRef, foundFrom cls: ObjCClass) -> ObjCMethod? {
        let address = pointer.address
        if let existing = methods.withLock({ $0[address] }) { return existing }
        guard let owner = atr_methodOwner(cls.pointer, pointer).map(wrap) else { return nil }
        return methods.withLock { known in
            if let existing = known[address] { return existing }
            let created = ObjCMethod(address: address, owner: owner)
            known[address] = created
            return created
        }
    }

    // MARK: RuntimeOperations

    /// `NSObject`.
    public var rootClass: ObjCClass { lookUpClass(named: "NSObject")! }

    /// Every registered class (`objc_getClassList`).
    public var allClasses: [ObjCClass] {
        let count = Int(atr_classList(nil, 0))
        var buffer = [ATClassRef?](repeating: nil, count: count + 16)
        let filled = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: ATClassRef.self, capacity: pointer.count) { Int(atr_classList($0, Int32(pointer.count))) }
        }
        return buffer.prefix(min(filled, buffer.count)).compactMap { $0.map(wrap) }
    }

    /// Whether `cls` is `ancestor` or inherits from it.
    public func isSubclass(_ cls: ObjCClass, of ancestor: ObjCClass) -> Bool {
        var current: ObjCClass? = cls
        var steps = 0
        while let candidate = current, steps < 256 {
            if candidate == ancestor { return true }
            current = superclass(of: candidate)
            steps += 1
        }
        return false
    }

    /// `objc_lookUpClass`.
    public func lookUpClass(named name: String) -> ObjCClass? { atr_lookUpClass(name).map(wrap) }

    /// `class_getName`.
    public func name(of cls: ObjCClass) -> String { String(cString: atr_className(cls.pointer)) }

    /// `object_getClass` of a class: its metaclass.
    public func metaclass(of cls: ObjCClass) -> ObjCClass { wrap(atr_metaclass(cls.pointer)) }

    /// `class_getSuperclass`.
    public func superclass(of cls: ObjCClass) -> ObjCClass? { atr_superclass(cls.pointer).map(wrap) }

    /// `class_getInstanceMethod`; `nil` for a class pair not registered yet (GCC's
    /// lookup crashes on one, and lists its methods under their selectors only once it
    /// is registered).
    public func method(named selector: String, in cls: ObjCClass) -> ObjCMethod? {
        guard isRegistered(cls) else { return nil }
        return atr_instanceMethod(cls.pointer, atr_selector(selector)).flatMap { wrap($0, foundFrom: cls) }
    }

    /// The method in `cls`'s own method list (`class_copyMethodList`, filtered); `nil`
    /// for a class pair not registered yet, as ``method(named:in:)``.
    public func ownMethod(named selector: String, in cls: ObjCClass) -> ObjCMethod? {
        guard isRegistered(cls) else { return nil }
        return atr_ownMethod(cls.pointer, atr_selector(selector)).flatMap { wrap($0, foundFrom: cls) }
    }

    /// Whether `cls` (a class or a metaclass) is registered: `objc_lookUpClass` finds
    /// it, or the class it is the metaclass of, under its name.
    public func isRegistered(_ cls: ObjCClass) -> Bool {
        guard let found = atr_lookUpClass(atr_className(cls.pointer)) else { return false }
        return found.address == cls.address || atr_metaclass(found).address == cls.address
    }

    /// `method_getImplementation`.
    public func implementation(of method: ObjCMethod) -> ObjCImplementation { ObjCImplementation(atr_methodImplementation(method.pointer)) }

    /// `method_getTypeEncoding`.
    public func typeEncoding(of method: ObjCMethod) -> String { String(cString: atr_methodTypes(method.pointer)) }

    /// `IMP` equality.
    public func isSame(_ first: ObjCImplementation, _ second: ObjCImplementation) -> Bool { first == second }

    /// `class_addMethod`.
    @discardableResult
    public func addMethod(to cls: ObjCClass, selector: String, implementation: ObjCImplementation, types: String) -> Bool {
        atr_addMethod(cls.pointer, atr_selector(selector), implementation.function, types)
    }

    /// `class_replaceMethod`.
    @discardableResult
    public func replaceMethod(in cls: ObjCClass, selector: String, implementation: ObjCImplementation, types: String) -> ObjCImplementation? {
        atr_replaceMethod(cls.pointer, atr_selector(selector), implementation.function, types).map(ObjCImplementation.init)
    }

    /// `method_exchangeImplementations`.
    public func exchangeImplementations(_ first: ObjCMethod, _ second: ObjCMethod) {
        atr_exchangeImplementations(first.owner.pointer, first.pointer, second.owner.pointer, second.pointer)
    }

    /// `method_setImplementation`.
    @discardableResult
    public func setImplementation(of method: ObjCMethod, to implementation: ObjCImplementation) -> ObjCImplementation {
        ObjCImplementation(atr_setImplementation(method.owner.pointer, method.pointer, implementation.function))
    }

    /// `objc_allocateClassPair`; a name already taken is a typed error.
    public func makeClassPair(superclass: ObjCClass, named name: String) throws(HookError) -> ObjCClass {
        guard let created = atr_allocateClassPair(superclass.pointer, name) else {
            throw .classNotCreated(className: name, reason: "objc_allocateClassPair refused it (the name is taken)")
        }
        return wrap(created)
    }

    /// `objc_registerClassPair`.
    public func registerClass(_ cls: ObjCClass) throws(HookError) {
        atr_registerClassPair(cls.pointer)
    }

    /// `object_setClass`.
    @discardableResult
    public func setClass(of object: ObjCObject, to cls: ObjCClass) -> ObjCClass {
        wrap(atr_setClass(object.pointer, cls.pointer))
    }

    /// `object_getClass`.
    public func realClass(of object: ObjCObject) -> ObjCClass { wrap(atr_objectClass(object.pointer)) }

    /// The association of `key` on a class, from the side table.
    public func associatedObject(for key: String, onClass cls: ObjCClass) -> (any AnyObject & Sendable)? {
        associations.withLock { $0[cls.address]?[key] }
    }

    /// Sets (or, with `nil`, removes) the association of `key` on a class.
    public func setAssociatedObject(_ value: (any AnyObject & Sendable)?, for key: String, onClass cls: ObjCClass) {
        setAssociation(value, for: key, at: cls.address)
    }

    /// The association of `key` on an instance, from the side table.
    public func associatedObject(for key: String, on object: ObjCObject) -> (any AnyObject & Sendable)? {
        associations.withLock { $0[object.address]?[key] }
    }

    /// Sets (or, with `nil`, removes) the association of `key` on an instance; it goes
    /// when the instance is deallocated.
    public func setAssociatedObject(_ value: (any AnyObject & Sendable)?, for key: String, on object: ObjCObject) {
        if value != nil { Self.observeDeallocation }
        setAssociation(value, for: key, at: object.address)
    }

    /// How many objects (and classes) have associations: for tests.
    package var associatedObjectCount: Int { associations.withLock { $0.count } }

    /// The keys the object (or class) at `address` has associations for in the side
    /// table, sorted; `nil` when it has no entry. For tests, which share the one runtime
    /// with others running at the same time.
    package func associationKeys(atAddress address: UInt) -> [String]? { associations.withLock { $0[address].map { $0.keys.sorted() } } }

    private func setAssociation(_ value: (any AnyObject & Sendable)?, for key: String, at address: UInt) {
        // The previous value is released after the lock: its deinit may release an
        // object, whose deallocation comes back here.
        _ = associations.withLock { table -> (any AnyObject & Sendable)? in
            let previous = table[address]?[key]
            table[address, default: [:]][key] = value
            if table[address]?.isEmpty == true { table[address] = nil }
            return previous
        }
    }

    /// Installs the deallocation observer, once.
    /// Installs the deallocation observer, once: associations and the objects mirrored
    /// runtimes adopted are forgotten when their object goes.
    package static let observeDeallocation: Void = {
        atr_observeDeallocation { object in
            ObjCRuntime.shared.forgetAssociations(of: object.address)
            ObjCDispatchEngine.nativeObjectDeallocated(at: object.address)
        }
    }()

    /// Drops every association of the object at `address`, which is being deallocated.
    private func forgetAssociations(of address: UInt) {
        // Released after the lock, for the same reason as in `setAssociation`.
        _ = associations.withLock { $0.removeValue(forKey: address) }
    }

    // MARK: Objects and messages

    /// `[cls alloc]` without `init` — how `NSProxy` subclasses, which have no `+new`, are
    /// made — owned by the returned wrapper.
    public func allocateObject(of cls: ObjCClass) -> ObjCObject? {
        atr_alloc(cls.pointer).map { ObjCObject(owning: $0) }
    }

    /// `[cls new]`, owned by the returned wrapper (released when it goes).
    public func makeObject(of cls: ObjCClass) -> ObjCObject? {
        atr_new(cls.pointer).map { ObjCObject(owning: $0) }
    }

    /// `[object class]`: the class the object reports (KVO's subclasses report the
    /// class they were made from).
    public func reportedClass(of object: ObjCObject) -> ObjCClass? { atr_reportedClass(object.pointer).map(wrap) }

    /// `[object selector]` for a method returning an integer (or `BOOL`), an
    /// Objective-C exception caught and returned as ``ObjCMessageError``.
    public func send(_ object: ObjCObject, _ selector: String) throws(ObjCMessageError) -> Int {
        try Self.checked(atr_send0(object.pointer, atr_selector(selector)))
    }

    /// `[object selector argument]` with an object argument.
    public func send(_ object: ObjCObject, _ selector: String, _ argument: ObjCObject?) throws(ObjCMessageError) -> Int {
        try Self.checked(atr_send1(object.pointer, atr_selector(selector), argument?.pointer))
    }

    /// The name of the class the object at `address` reports (`-class`): the app's
    /// class, even under KVO's or a hook's subclass. `address` must be a live object
    /// (a trampoline's receiver during its call).
    public func reportedClassName(ofObjectAt address: UInt) -> String {
        guard let object = OpaquePointer(bitPattern: address), let cls = atr_reportedClass(object) else { return "nil" }
        return String(cString: atr_className(cls))
    }

    /// Whether `cls` is a class GNUstep's key-value observing generated for an observed
    /// object (its `-class` reports the class the object was made of).
    public func isKeyValueObservingClass(_ cls: ObjCClass) -> Bool { atr_isKeyValueObservingClass(cls.pointer) }

    /// The `-class` implementation a generated subclass needs: it reports the real
    /// class's superclass, the class the object was made of.
    public var reportingSuperclassImplementation: ObjCImplementation { ObjCImplementation(atr_reportSuperclassImplementation()) }

    /// `[object respondsToSelector:]`.
    public func responds(_ object: ObjCObject, to selector: String) throws(ObjCMessageError) -> Bool {
        try Self.checked(atr_respondsToSelector(object.pointer, atr_selector(selector))) != 0
    }

    /// `addObserver:forKeyPath:options:context:` (GNUstep's key-value observing).
    public func addObserver(_ observer: ObjCObject, to object: ObjCObject, keyPath: String) throws(ObjCMessageError) {
        _ = try Self.checked(atr_addObserver(object.pointer, observer.pointer, keyPath))
    }

    /// `removeObserver:forKeyPath:`.
    public func removeObserver(_ observer: ObjCObject, from object: ObjCObject, keyPath: String) throws(ObjCMessageError) {
        _ = try Self.checked(atr_removeObserver(object.pointer, observer.pointer, keyPath))
    }

    /// Throws the exception a bridge call caught, if it caught one.
    static func check(_ result: ATSendResult) throws(ObjCMessageError) {
        _ = try checked(result)
    }

    private static func checked(_ result: ATSendResult) throws(ObjCMessageError) -> Int {
        guard !result.raised else {
            let name = withUnsafeBytes(of: result.exceptionName) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw ObjCMessageError(exceptionName: name)
        }
        return result.value
    }
}

/// An Objective-C exception a message raised, caught at the bridge.
public struct ObjCMessageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The exception's name, e.g. `NSInvalidArgumentException` for an unrecognised
    /// selector.
    public let exceptionName: String

    /// The exception's name.
    public var description: String { "Objective-C exception \(exceptionName)" }
}
