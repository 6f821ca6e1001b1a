import Synchronization

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

/// A weak reference to a runtime object.
final class WeakObject: Sendable {
    private let storage: Mutex<Reference>

    private struct Reference: @unchecked Sendable {
        // Safe: only touched inside the mutex.
        weak var object: RuntimeObject?
    }

    init(_ object: RuntimeObject) { storage = Mutex(Reference(object: object)) }

    var object: RuntimeObject? { storage.withLock { $0.object } }
}

/// An object's observation state, kept as an associated object as Foundation keeps its
/// observation info.
final class ObservationInfo: Sendable {
    let originalClass: RuntimeClass
    let observingClass: RuntimeClass
    let observers: Mutex<[Int: (key: String, callback: @Sendable (RuntimeObject, String) -> Void)]>

    init(originalClass: RuntimeClass, observingClass: RuntimeClass) {
        self.originalClass = originalClass
        self.observingClass = observingClass
        observers = Mutex([:])
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
    public func addObservation(
        of key: String, on object: RuntimeObject, onChange: @escaping @Sendable (RuntimeObject, String) -> Void
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

    /// Removes an observation. Removing the last one restores the object's original
    /// class — but only if the observing subclass is still the object's class:
    /// - if another layer was isa-swizzled on top of it, this throws
    ///   ``RuntimeError/observationIsaChanged(expected:found:)`` and keeps the
    ///   observation, so it can be removed once the top layer is gone;
    /// - if the object was moved off the observing class (its layer is gone already),
    ///   this throws the same error and forgets the observation.
    /// Either way the object is never left with a silently wrong class.
    public func removeObservation(_ token: ObservationToken) throws(RuntimeError) {
        guard let object = token.object.object,
              let info = associatedObject(for: ObservationInfo.key, on: object) as? ObservationInfo,
              info.observers.withLock({ $0[token.id] != nil })
        else { throw .notObserved }
        let remaining = info.observers.withLock { $0.count - 1 }
        let current = object.realClass
        guard remaining == 0 else {
            info.observers.withLock { _ = $0.removeValue(forKey: token.id) }
            return
        }
        if current === info.observingClass {
            info.observers.withLock { _ = $0.removeValue(forKey: token.id) }
            setClass(of: object, to: info.originalClass)
            setAssociatedObject(nil, for: ObservationInfo.key, on: object)
            return
        }
        if !current.isSubclass(of: info.observingClass) {
            info.observers.withLock { _ = $0.removeValue(forKey: token.id) }
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
