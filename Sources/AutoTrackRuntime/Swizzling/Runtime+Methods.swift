import Synchronization

extension Runtime {
    // MARK: Reading methods

    /// The method `cls` or an ancestor implements for `selector` (`class_getInstanceMethod`
    /// for a class, `class_getClassMethod` for a metaclass): the first along the
    /// superclass chain.
    public func method(_ selector: Selector, in cls: RuntimeClass) -> RuntimeMethod? {
        withLock { registry in
            synchronizeChain(from: cls, registry: &registry)
            return Self.findMethod(selector, from: cls)
        }
    }

    /// The class method of `cls` for `selector` (`class_getClassMethod`).
    public func classMethod(_ selector: Selector, in cls: RuntimeClass) -> RuntimeMethod? {
        method(selector, in: cls.metaclass)
    }

    /// The methods `cls` defines itself, in the order they were added
    /// (`class_copyMethodList`; inherited methods are not listed).
    public func ownMethods(of cls: RuntimeClass) -> [RuntimeMethod] {
        withLock { registry in
            synchronize(cls, registry: &registry)
            return cls.ownMethodOrder.compactMap { cls.ownMethods[$0] }
        }
    }

    /// Whether instances of `cls` implement `selector`, by lookup only, without
    /// forwarding (`class_respondsToSelector`).
    public func instancesRespond(of cls: RuntimeClass, to selector: Selector) -> Bool {
        if case .found = lookUp(selector, startingAt: cls) { return true }
        return false
    }

    /// The implementation a message would run for instances of `cls`
    /// (`class_getMethodImplementation`), or `nil` when it would be forwarded.
    public func implementation(of selector: Selector, in cls: RuntimeClass) -> Implementation? {
        if engine != nil { withLock { registry in synchronizeChain(from: cls, registry: &registry) } }
        if case .found(let method) = lookUp(selector, startingAt: cls) {
            return method.takeUnretainedValue().implementation
        }
        return nil
    }

    static func findMethod(_ selector: Selector, from cls: RuntimeClass) -> RuntimeMethod? {
        var current: RuntimeClass? = cls
        while let candidate = current {
            if let method = candidate.ownMethods[selector] { return method }
            current = candidate.superclassStorage
        }
        return nil
    }

    // MARK: Changing methods

    /// Adds a method to `cls` itself (`class_addMethod`).
    ///
    /// Returns `false`, changing nothing, when `cls` already has its own method for
    /// `selector`. When only a superclass implements it, the new method overrides it
    /// for `cls` and its subclasses alone — the superclass and sibling classes are
    /// untouched. Add to a metaclass for a class method.
    @discardableResult
    public func addMethod(
        to cls: RuntimeClass, _ selector: Selector, _ implementation: Implementation, types: String
    ) -> Bool {
        withLock { registry in
            synchronize(cls, registry: &registry)
            guard cls.ownMethods[selector] == nil else { return false }
            noteDispatchChange()
            registry.implementations[ObjectIdentifier(implementation)] = implementation
            engine?.addMethod(to: cls.twin, selector: selector, implementation: implementation, types: types)
            let method = RuntimeMethod(selector: selector, typeEncoding: types, implementation: implementation, owner: cls)
            cls.ownMethods[selector] = method
            cls.ownMethodOrder.append(selector)
            invalidateCaches(from: cls, registry: &registry)
            return true
        }
    }

    /// Replaces the implementation of `cls`'s own method for `selector`, or adds the
    /// method when `cls` does not have one itself (`class_replaceMethod`). Returns the
    /// previous implementation of `cls`'s own method; `nil` when one was added — even
    /// if a superclass implements the selector.
    @discardableResult
    public func replaceMethod(
        in cls: RuntimeClass, _ selector: Selector, _ implementation: Implementation, types: String
    ) -> Implementation? {
        withLock { registry in
            synchronize(cls, registry: &registry)
            noteDispatchChange()
            registry.implementations[ObjectIdentifier(implementation)] = implementation
            if let existing = cls.ownMethods[selector] {
                engine?.setImplementation(of: selector, in: cls.twin, to: implementation)
                return existing.exchangeImplementation(with: implementation)
            }
            engine?.addMethod(to: cls.twin, selector: selector, implementation: implementation, types: types)
            let method = RuntimeMethod(selector: selector, typeEncoding: types, implementation: implementation, owner: cls)
            cls.ownMethods[selector] = method
            cls.ownMethodOrder.append(selector)
            invalidateCaches(from: cls, registry: &registry)
            return nil
        }
    }

    /// Swaps the implementations of two methods (`method_exchangeImplementations`),
    /// which may belong to different classes. Exchanging the same pair again restores
    /// both. Method caches need no flush: they map selectors to methods, and methods
    /// read their implementation atomically.
    public func exchangeImplementations(_ first: RuntimeMethod, _ second: RuntimeMethod) {
        withLock { registry in
            guard first !== second else { return }
            synchronize(first.owner, registry: &registry)
            synchronize(second.owner, registry: &registry)
            noteDispatchChange()
            engine?.exchangeImplementations(first.selector, in: first.owner.twin, second.selector, in: second.owner.twin)
            let firstImplementation = first.implementation
            let secondImplementation = first.exchangeImplementation(with: second.implementation)
            _ = second.exchangeImplementation(with: firstImplementation)
            _ = secondImplementation
        }
    }

    /// Installs `implementation` in `method` and returns the previous one
    /// (`method_setImplementation`).
    @discardableResult
    public func setImplementation(of method: RuntimeMethod, to implementation: Implementation) -> Implementation {
        withLock { registry in
            synchronize(method.owner, registry: &registry)
            noteDispatchChange()
            registry.implementations[ObjectIdentifier(implementation)] = implementation
            engine?.setImplementation(of: method.selector, in: method.owner.twin, to: implementation)
            return method.exchangeImplementation(with: implementation)
        }
    }

    // MARK: Native changes

    /// Brings the model's view of `cls`'s own methods in line with the real runtime
    /// deciding dispatch, which native code may have changed behind the model's back (an
    /// Objective-C hook's `class_addMethod` and `method_exchangeImplementations`): a
    /// method whose real implementation differs takes it, a method only the real class
    /// has is added. Nothing for a model-only runtime. Called with the lock held.
    func synchronize(_ cls: RuntimeClass, registry: inout Registry) {
        guard let engine, cls.twin != 0, cls.state == .registered else { return }
        var changed = false
        for (selector, implementation, types) in engine.realOwnMethods(of: cls.twin) {
            if let method = cls.ownMethods[selector] {
                guard method.implementation !== implementation else { continue }
                registry.implementations[ObjectIdentifier(implementation)] = implementation
                _ = method.exchangeImplementation(with: implementation)
            } else {
                registry.implementations[ObjectIdentifier(implementation)] = implementation
                cls.ownMethods[selector] = RuntimeMethod(selector: selector, typeEncoding: types, implementation: implementation, owner: cls)
                cls.ownMethodOrder.append(selector)
            }
            changed = true
        }
        if changed {
            noteDispatchChange()
            invalidateCaches(from: cls, registry: &registry)
        }
    }

    /// ``synchronize(_:registry:)`` for `cls` and every superclass.
    func synchronizeChain(from cls: RuntimeClass, registry: inout Registry) {
        guard engine != nil else { return }
        var current: RuntimeClass? = cls
        while let candidate = current {
            synchronize(candidate, registry: &registry)
            current = candidate.superclassStorage
        }
    }

    // MARK: Caches

    /// Empties the caches of `cls` and every class below it, after a method-list
    /// change. Called with the lock held.
    func invalidateCaches(from cls: RuntimeClass, registry: inout Registry) {
        var pending = [cls]
        while let current = pending.popLast() {
            let old = current.cacheStorage.exchange(MethodCache.empty.buffer, ordering: .acquiringAndReleasing)
            if old != MethodCache.empty.buffer { registry.retiredCacheCount += 1 }
            pending += current.subclassList.map(\.value)
        }
    }

    /// Finds what `selector` means for `cls`: from the cache, or by walking the chain
    /// under the lock and filling the cache.
    @inline(__always)
    func lookUp(_ selector: Selector, startingAt cls: RuntimeClass) -> MethodCache.Lookup {
        let cached = cls.cachedLookup(selector)
        if case .miss = cached { return lookUpSlowly(selector, startingAt: cls) }
        return cached
    }

    @inline(never)
    func lookUpSlowly(_ selector: Selector, startingAt cls: RuntimeClass) -> MethodCache.Lookup {
        withLock { registry in
            let current = MethodCache(buffer: cls.cacheStorage.load(ordering: .acquiring))
            let cached = current.lookup(selector)
            if case .miss = cached {} else { return cached }
            let method = Self.findMethod(selector, from: cls)
            let filled = current.adding(selector, method)
            // Every published cache stays referenced by the registry, so readers that
            // loaded it without retaining can finish with it.
            registry.publishedCaches.append(filled)
            cls.cacheStorage.store(filled.buffer, ordering: .releasing)
            if current != MethodCache.empty { registry.retiredCacheCount += 1 }
            return method.map { .found(Unmanaged.passUnretained($0)) } ?? .notImplemented
        }
    }
}
