import Synchronization

extension Runtime {
    // MARK: Creating classes

    /// Builds a root class and its metaclass: the metaclass's superclass is the root
    /// class and its `isa` is itself, as in objc4.
    func makeRootClass(named name: String) -> RuntimeClass {
        let meta = RuntimeClass(name: name, superclass: nil, isMetaclass: true, runtime: self, isa: nil)
        meta.setIsa(meta)
        let root = RuntimeClass(name: name, superclass: nil, isMetaclass: false, runtime: self, isa: meta)
        meta.setInstanceClass(root)
        meta.superclassStorage = root
        root.state = .registered
        meta.state = .registered
        if let engine {
            (root.twin, meta.twin) = engine.makeRootClass(named: name, isProxy: name == "NSProxy")
            engine.adopt(root)
            engine.adopt(meta)
        }
        withLock { registry in
            registry.classesByName[name] = root
            registry.allClasses += [root, meta]
        }
        return root
    }

    /// Creates a new class and metaclass (`objc_allocateClassPair`). Add methods, then
    /// ``registerClassPair(_:)`` before making instances.
    /// - Throws: ``RuntimeError/classNameTaken(_:)`` when the name is in use (objc4
    ///   returns `Nil`).
    public func allocateClassPair(superclass: RuntimeClass, name: String) throws(RuntimeError) -> RuntimeClass {
        try withLock { (registry: inout Registry) throws(RuntimeError) -> RuntimeClass in
            if registry.classesByName[name] != nil { throw .classNameTaken(name) }
            if superclass.state == .disposed { throw .classDisposed(superclass.name) }
            let superMeta = superclass.metaclass
            let rootMeta = superMeta.realClass
            let meta = RuntimeClass(name: name, superclass: superMeta, isMetaclass: true, runtime: self, isa: rootMeta)
            let cls = RuntimeClass(name: name, superclass: superclass, isMetaclass: false, runtime: self, isa: meta)
            meta.setInstanceClass(cls)
            if let engine {
                (cls.twin, meta.twin) = engine.allocateClassPair(superclass: superclass.twin, named: name)
                engine.adopt(cls)
                engine.adopt(meta)
            }
            superclass.subclassList.append(.init(value: cls))
            superMeta.subclassList.append(.init(value: meta))
            registry.classesByName[name] = cls
            registry.allClasses += [cls, meta]
            return cls
        }
    }

    /// Makes an allocated class usable (`objc_registerClassPair`).
    public func registerClassPair(_ cls: RuntimeClass) throws(RuntimeError) {
        try withLock { (_: inout Registry) throws(RuntimeError) in
            switch cls.state {
            case .allocated:
                cls.state = .registered
                cls.metaclass.state = .registered
                engine?.registerClassPair(cls.twin)
            case .registered: throw .classAlreadyRegistered(cls.name)
            case .disposed: throw .classDisposed(cls.name)
            }
        }
    }

    /// Destroys a class pair (`objc_disposeClassPair`): its name becomes free again.
    ///
    /// objc4 crashes later if instances or subclasses survive; this model refuses with
    /// ``RuntimeError/classInUse(_:reason:)`` instead. The class object itself stays
    /// allocated until the runtime is released, so stale pointers cannot dangle.
    public func disposeClassPair(_ cls: RuntimeClass) throws(RuntimeError) {
        try withLock { (registry: inout Registry) throws(RuntimeError) in
            guard cls.state != .disposed else { throw .classDisposed(cls.name) }
            guard !cls.isMetaclass else { throw .classInUse(cls.name, reason: "a metaclass is disposed with its class") }
            let liveSubclasses = cls.subclassList.filter { $0.value.state != .disposed }
            if !liveSubclasses.isEmpty {
                throw .classInUse(cls.name, reason: "subclass \(liveSubclasses[0].value.name) still exists")
            }
            let instances = cls.liveInstances.load(ordering: .relaxed)
            if instances > 0 { throw .classInUse(cls.name, reason: "\(instances) instances still exist") }
            cls.state = .disposed
            cls.metaclass.state = .disposed
            registry.classesByName[cls.name] = nil
            registry.keyValueObservingClasses = registry.keyValueObservingClasses.filter { $0.value !== cls }
        }
    }

    /// Allocates, fills and registers a class in one step.
    /// - Parameters:
    ///   - name: the class name, unique in the runtime.
    ///   - superclass: the superclass; the root class by default.
    ///   - methods: instance methods as selector, type encoding and body.
    ///   - classMethods: class methods, likewise.
    @discardableResult
    public func defineClass(
        _ name: String,
        superclass: RuntimeClass? = nil,
        methods: [(Selector, String, Implementation)] = [],
        classMethods: [(Selector, String, Implementation)] = []
    ) throws(RuntimeError) -> RuntimeClass {
        let cls = try allocateClassPair(superclass: superclass ?? rootClass, name: name)
        for (selector, types, implementation) in methods {
            addMethod(to: cls, selector, implementation, types: types)
        }
        for (selector, types, implementation) in classMethods {
            addMethod(to: cls.metaclass, selector, implementation, types: types)
        }
        try registerClassPair(cls)
        return cls
    }

    /// A class native code made in the real runtime deciding dispatch (its class and
    /// metaclass `twin` and `metaclassTwin`), adopted: a registered class of this runtime
    /// under `superclass` (a root when `nil`), with no methods of the model's own — its
    /// sends are the real runtime's, and its methods are read from there when asked
    /// for. Named `name` unless the runtime has a class of that name already.
    package func adoptNativeClass(named name: String, superclass: RuntimeClass?, twin: UInt, metaclassTwin: UInt) -> RuntimeClass {
        withLock { registry in
            let meta: RuntimeClass
            let cls: RuntimeClass
            if let superclass {
                let superMeta = superclass.metaclass
                meta = RuntimeClass(name: name, superclass: superMeta, isMetaclass: true, runtime: self, isa: superMeta.realClass)
                cls = RuntimeClass(name: name, superclass: superclass, isMetaclass: false, runtime: self, isa: meta)
                superclass.subclassList.append(.init(value: cls))
                superMeta.subclassList.append(.init(value: meta))
            } else {
                meta = RuntimeClass(name: name, superclass: nil, isMetaclass: true, runtime: self, isa: nil)
                meta.setIsa(meta)
                cls = RuntimeClass(name: name, superclass: nil, isMetaclass: false, runtime: self, isa: meta)
                meta.superclassStorage = cls
            }
            meta.setInstanceClass(cls)
            cls.twin = twin
            meta.twin = metaclassTwin
            cls.state = .registered
            meta.state = .registered
            engine?.adopt(cls)
            engine?.adopt(meta)
            if registry.classesByName[name] == nil { registry.classesByName[name] = cls }
            registry.allClasses += [cls, meta]
            return cls
        }
    }

    /// An object standing for `twin`, an instance of `cls` native code made in the real
    /// runtime deciding dispatch; it does not release the twin.
    package func adoptNativeObject(twin: UInt, of cls: RuntimeClass) -> RuntimeObject {
        RuntimeObject(adoptingTwin: twin, of: cls)
    }

    /// Moves `object` to `cls` in the model only: native code changed its real class
    /// (`object_setClass` by an Objective-C hook), and the model follows.
    package func followNativeClassChange(of object: RuntimeObject, to cls: RuntimeClass) {
        withLock { _ in
            let previous = object.realClass
            guard previous !== cls else { return }
            noteDispatchChange()
            if !object.isClassObject {
                previous.liveInstances.subtract(1, ordering: .relaxed)
                cls.liveInstances.add(1, ordering: .relaxed)
            }
            object.setIsa(cls)
        }
    }

    /// The registered class named `name` (`objc_getClass`).
    public func lookUpClass(_ name: String) -> RuntimeClass? {
        withLock { registry in registry.classesByName[name].flatMap { $0.state == .registered ? $0 : nil } }
    }

    // MARK: Objects

    /// A new instance of `cls` (`class_createInstance`).
    /// - Throws: when the class is not registered or was disposed of.
    public func allocate(_ cls: RuntimeClass) throws(RuntimeError) -> RuntimeObject {
        try checkInstantiable(cls)
        return RuntimeObject(instanceOf: cls)
    }

    /// Checks that `cls` may have instances; host subclasses of ``RuntimeObject``
    /// call this before `init(instanceOf:)`.
    public func checkInstantiable(_ cls: RuntimeClass) throws(RuntimeError) {
        try withLock { (_: inout Registry) throws(RuntimeError) in
            switch cls.state {
            case .registered: if cls.isMetaclass { throw .classNotRegistered(cls.name) }
            case .allocated: throw .classNotRegistered(cls.name)
            case .disposed: throw .classDisposed(cls.name)
            }
        }
    }

    /// Changes the real class of `object` (`object_setClass`, "isa swizzling") and
    /// returns the previous one. Only this object changes; other instances keep their
    /// class.
    @discardableResult
    public func setClass(of object: RuntimeObject, to cls: RuntimeClass) -> RuntimeClass {
        withLock { _ in
            noteDispatchChange()
            let previous = object.realClass
            if !object.isClassObject {
                previous.liveInstances.subtract(1, ordering: .relaxed)
                cls.liveInstances.add(1, ordering: .relaxed)
            }
            object.setIsa(cls)
            if let engine, object.twin != 0 { engine.setClass(of: object.twin, to: cls.twin) }
            return previous
        }
    }
}
