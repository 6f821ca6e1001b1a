import AutoTrackLocking

/// A registered key-value observation; pass it to ``Runtime/removeObservation(_:)``.
public struct ObservationToken: Hashable, Sendable {
    let id: Int
    let key: String
    let object: WeakObject

    /// The observed key.
    public var observedKey: String { key }

    /// Tokens are equal when they stand for the same observation.
    public static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool { lhs.id == rhs.id }
    /// Hashes the observation id.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// The observer argument of `addObserver:forKeyPath:options:context:`: what to observe,
/// and the token `NSObject`'s implementation (or an override) answers with.
public final class ObservationRequest: Sendable {
    /// The observed key.
    public let key: String
    /// Called after each change.
    public let onChange: @Sendable (RuntimeObject, String) -> Void
    private let answer = Locked<ObservationToken?>(nil)

    init(key: String, onChange: @escaping @Sendable (RuntimeObject, String) -> Void) {
        self.key = key
        self.onChange = onChange
    }

    /// The token of the observation the override made.
    public var token: ObservationToken? {
        get { answer.withLock { $0 } }
        set { answer.withLock { $0 = newValue } }
    }
}

/// A weak reference to a runtime object.
final class WeakObject: Sendable {
    private let storage: Locked<Reference>

    private struct Reference: Sendable {
        weak var object: RuntimeObject?
    }

    init(_ object: RuntimeObject) { storage = Locked(Reference(object: object)) }

    var object: RuntimeObject? { storage.withLock { $0.object } }
}

/// An object's observation state, kept as an associated object as Foundation keeps its
/// observation info.
final class ObservationInfo: Sendable {
    let originalClass: RuntimeClass
    let observingClass: RuntimeClass
    let observers: Locked<[Int: (key: String, callback: @Sendable (RuntimeObject, String) -> Void)]>

    init(originalClass: RuntimeClass, observingClass: RuntimeClass) {
        self.originalClass = originalClass
        self.observingClass = observingClass
        observers = Locked([:])
    }

    static let key = AssociationKey("NSKeyValueObservationInfo")
}

extension Runtime {
    /// Observes `key` of `object`, KVO-style: the first observation isa-swizzles the
    /// object to a generated subclass `NSKVONotifying_<Class>` (shared by all observed
    /// objects of that class) whose setter `set<Key>:` calls the original and then
    /// notifies, and whose `class` reports the original class, hiding the subclass.
    ///
    /// The subclass is derived from the object's *real* class at that moment — if a
    /// hook already isa-swizzled the object, KVO builds on the hook's class, as
    /// Foundation does.
    /// - Throws: ``RuntimeError/observationIsaChanged(expected:found:)`` when the object
    ///   is observed but its class was changed by someone else since.
    ///
    /// It sends `-addObserver:forKeyPath:options:context:` (``addObserverSelector``) to
    /// the object, with an ``ObservationRequest`` as the observer and the key as the key
    /// path; NSObject's implementation observes and answers the request with the token.
    /// A class that overrides it (a hook's dynamic subclass, in Swift or compiled
    /// Objective-C) answers instead — typically by stepping aside and sending the
    /// message again, or calling this again. An `NSProxy` forwards it, as Foundation's
    /// proxies do: its forwarding target is observed.
    public func addObservation(
        of key: String, on object: RuntimeObject, onChange: @escaping @Sendable (RuntimeObject, String) -> Void
    ) throws(RuntimeError) -> ObservationToken {
        let request = ObservationRequest(key: key, onChange: onChange)
        _ = try send(object, Self.addObserverSelector, MessageArguments([.value(request), .value(key), .int(0), .int(0)]))
        guard let token = request.token else { throw .notObserved }
        return token
    }

    /// NSObject's `addObserver:forKeyPath:options:context:`: observes `key` of `object`
    /// on its real class now (see ``addObservation(of:on:onChange:)``).
    func observe(
        _ key: String, on object: RuntimeObject, onChange: @escaping @Sendable (RuntimeObject, String) -> Void
    ) throws(RuntimeError) -> ObservationToken {
        let info: ObservationInfo
        if let existing = associatedObject(for: ObservationInfo.key, on: object) as? ObservationInfo {
            guard object.realClass === existing.observingClass else {
                throw .observationIsaChanged(expected: existing.observingClass.name, found: object.realClass.name)
            }
            info = existing
        } else {
            let original = object.realClass
            let observing = try observingClass(for: original)
            info = ObservationInfo(originalClass: original, observingClass: observing)
            setAssociatedObject(info, for: ObservationInfo.key, on: object)
            setClass(of: object, to: observing)
        }
        installNotifyingSetter(for: key, in: info.observingClass)
        let id = withLock { registry in
            defer { registry.nextObservationID += 1 }
            return registry.nextObservationID
        }
        info.observers.withLock { $0[id] = (key, onChange) }
        return ObservationToken(id: id, key: key, object: WeakObject(object))
    }

    /// Removes an observation, as `-removeObserver:forKeyPath:` does: the message is
    /// sent to the object (so a layer isa-swizzled on top of the observing class sees
    /// it and may override it), and the observing class's own implementation removes
    /// it. Removing the last one restores the object's original class — but only if
    /// the observing subclass is still the object's class:
    /// - if another layer was isa-swizzled on top of it and does not handle the
    ///   message, this throws ``RuntimeError/observationIsaChanged(expected:found:)``
    ///   and keeps the observation, so it can be removed once the top layer is gone;
    /// - if the object was moved off the observing class (its layer is gone already),
    ///   this throws the same error and forgets the observation.
    /// Either way the object is never left with a silently wrong class.
    public func removeObservation(_ token: ObservationToken) throws(RuntimeError) {
        guard let object = token.object.object,
              let info = associatedObject(for: ObservationInfo.key, on: object) as? ObservationInfo,
              info.observers.withLock({ $0[token.id] != nil })
        else { throw .notObserved }
        guard object.realClass.isSubclass(of: info.observingClass) else {
            return try removeObservation(token.id, from: object, info: info)
        }
        _ = try send(object, Self.removeObserverSelector, MessageArguments(.int(token.id), .value(token.key)))
    }

    /// `addObserver:forKeyPath:options:context:`: the ``ObservationRequest`` as the
    /// observer, the key as the key path, options and context 0. NSObject implements it.
    public static let addObserverSelector: Selector = "addObserver:forKeyPath:options:context:"

    /// `removeObserver:forKeyPath:` (the observation id and the key in this model).
    public static let removeObserverSelector: Selector = "removeObserver:forKeyPath:"

    /// The observing class's `removeObserver:forKeyPath:`: removes observation `id`.
    private func removeObservation(_ id: Int, from object: RuntimeObject, info: ObservationInfo) throws(RuntimeError) {
        guard info.observers.withLock({ $0[id] != nil }) else { throw .notObserved }
        let remaining = info.observers.withLock { $0.count - 1 }
        let current = object.realClass
        guard remaining == 0 else {
            info.observers.withLock { _ = $0.removeValue(forKey: id) }
            return
        }
        if current === info.observingClass {
            info.observers.withLock { _ = $0.removeValue(forKey: id) }
            setClass(of: object, to: info.originalClass)
            setAssociatedObject(nil, for: ObservationInfo.key, on: object)
            return
        }
        if !current.isSubclass(of: info.observingClass) {
            info.observers.withLock { _ = $0.removeValue(forKey: id) }
            setAssociatedObject(nil, for: ObservationInfo.key, on: object)
        }
        throw .observationIsaChanged(expected: info.observingClass.name, found: current.name)
    }

    /// Whether `object` has observations.
    public func isObserved(_ object: RuntimeObject) -> Bool {
        associatedObject(for: ObservationInfo.key, on: object) is ObservationInfo
    }

    private func observingClass(for original: RuntimeClass) throws(RuntimeError) -> RuntimeClass {
        if let existing = withLock({ $0.keyValueObservingClasses[ObjectIdentifier(original)] }) { return existing }
        let cls = try allocateClassPair(superclass: original, name: "NSKVONotifying_\(original.name)")
        addMethod(
            to: cls, Selectors.class,
            Implementation("-[NSKVONotifying_\(original.name) class]") { _ in .object(original) }, types: "#@:")
        addMethod(
            to: cls, Self.removeObserverSelector,
            Implementation("-[NSKVONotifying_\(original.name) removeObserver:forKeyPath:]") { message throws(RuntimeError) in
                let runtime = message.runtime
                guard case .int(let id)? = message.arguments.first,
                      let info = runtime.associatedObject(for: ObservationInfo.key, on: message.receiver) as? ObservationInfo
                else { throw .notObserved }
                try runtime.removeObservation(id, from: message.receiver, info: info)
                return .void
            }, types: "v@:@@")
        try registerClassPair(cls)
        withLock { $0.keyValueObservingClasses[ObjectIdentifier(original)] = cls }
        return cls
    }

    private func installNotifyingSetter(for key: String, in observing: RuntimeClass) {
        guard let first = key.first else { return }
        let setter = Selector("set\(first.uppercased())\(key.dropFirst()):")
        let implementation = Implementation("-[\(observing.name) \(setter)]") { message throws(RuntimeError) in
            let runtime = message.runtime
            let result = try runtime.sendSuper(message.receiver, from: observing, message.selector, message.arguments)
            if let info = runtime.associatedObject(for: ObservationInfo.key, on: message.receiver) as? ObservationInfo {
                let callbacks = info.observers.withLock { $0.values.filter { $0.key == key }.map(\.callback) }
                for callback in callbacks { callback(message.receiver, key) }
            }
            return result
        }
        addMethod(to: observing, setter, implementation, types: "v@:@")
    }
}
