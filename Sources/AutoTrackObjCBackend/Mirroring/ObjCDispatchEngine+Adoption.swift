import AutoTrackRuntime
import CObjCRuntimeBridge
import AutoTrackLocking

extension ObjCDispatchEngine {
    // MARK: Objects and classes native code made

    /// The runtime's class for the real class at `address`: one of its own, or — for a
    /// class native code made (a hook's dynamic subclass or proxy class, an app's
    /// compiled class, GNUstep's own) — one adopted now, with every unknown class above
    /// it.
    func adoptedClass(at address: UInt) -> RuntimeClass? {
        guard let runtime = attachedRuntime.runtime else { return nil }
        return adoption.withLock { _ -> RuntimeClass? in
            if let known = state.withLock({ $0.classes[address]?.cls }) { return known }
            // The unknown classes from this one up, then adopted from the top down.
            var chain: [OpaquePointer] = []
            var current = OpaquePointer(bitPattern: address)
            var above: RuntimeClass?
            while let cls = current {
                if let known = state.withLock({ $0.classes[UInt(bitPattern: Int(bitPattern: cls))]?.cls }) {
                    above = known
                    break
                }
                chain.append(cls)
                current = atr_superclass(cls)
            }
            for cls in chain.reversed() {
                above = runtime.adoptNativeClass(
                    named: String(cString: atr_className(cls)), superclass: above, twin: cls.address, metaclassTwin: atr_metaclass(cls).address)
            }
            return above
        }
    }

    /// The runtime's object for the real object at `address`, adopting one native code
    /// made: it stands for that object until the object is deallocated.
    func adoptedObject(at address: UInt) -> RuntimeObject? {
        guard address != 0, let pointer = OpaquePointer(bitPattern: address) else { return nil }
        if atr_isClassObject(pointer) { return adoptedClass(at: address) }
        guard let cls = adoptedClass(at: atr_objectClass(pointer).address), let runtime = attachedRuntime.runtime else { return nil }
        ObjCRuntime.observeDeallocation
        return adoption.withLock { _ -> RuntimeObject in
            if let known = modelObject(at: address) { return known }
            let object = runtime.adoptNativeObject(twin: address, of: cls)
            state.withLock { state in
                state.objects[address] = ObjectReference(object: object)
                state.adopted[address] = object
            }
            Self.adopters.withLock { $0[address, default: []].append(WeakEngine(engine: self)) }
            return object
        }
    }

    /// The class standing for `object`'s real class when native code changed it.
    func changedClass(of object: RuntimeObject) -> RuntimeClass? {
        guard object.twin != 0, let pointer = OpaquePointer(bitPattern: object.twin) else { return nil }
        let real = atr_objectClass(pointer).address
        guard real != object.realClass.twin else { return nil }
        return adoptedClass(at: real)
    }

    /// Forgets the object at `address`, which is being deallocated, in every engine that
    /// adopted it.
    static func nativeObjectDeallocated(at address: UInt) {
        guard let engines = adopters.withLock({ $0.removeValue(forKey: address) }) else { return }
        for weak in engines {
            guard let engine = weak.engine else { continue }
            // Released outside the lock: its deinit takes the runtime's.
            let released = engine.state.withLock { state -> RuntimeObject? in
                state.objects[address] = nil
                return state.adopted.removeValue(forKey: address)
            }
            _ = released
        }
    }

    /// Which engines adopted the object at each address (most objects are no engine's).
    static let adopters = Locked<[UInt: [WeakEngine]]>([:])

    /// The engines mirroring a runtime, told of native code's `object_setClass`. (A
    /// runtime torn down on one thread while native code on another changes a class
    /// is not guarded against: runtimes end with their hosts, which end with their
    /// tests or processes.)
    static let live = Locked<[WeakEngine]>([])

    /// Registers the observer of native class changes once, and `engine` with it.
    static func followNativeClassChanges(in engine: ObjCDispatchEngine) {
        _ = installClassChangeObserver
        live.withLock { engines in
            engines.removeAll { $0.engine == nil }
            engines.append(WeakEngine(engine: engine))
        }
    }

    private static let installClassChangeObserver: Void = { atr_observeNativeClassChanges(classChanged) }()

    /// Native code moved the object at `object` to the class at `cls`: each engine that
    /// knows the object moves its model object there at once (adopting the class).
    private static let classChanged: ATClassChangeObserver = { object, cls in
        let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(object)))
        let classAddress = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(cls)))
        for weak in live.withLock({ $0 }) {
            guard let engine = weak.engine, let runtime = engine.attachedRuntime.runtime,
                  let model = engine.modelObject(at: address), !(model is RuntimeClass),
                  let modelClass = engine.adoptedClass(at: classAddress)
            else { continue }
            runtime.followNativeClassChange(of: model, to: modelClass)
        }
    }

    /// An engine, held weakly.
    struct WeakEngine: @unchecked Sendable {
        // Safe: written once, in `init`; a weak load is atomic.
        weak var engine: ObjCDispatchEngine?
    }
}
