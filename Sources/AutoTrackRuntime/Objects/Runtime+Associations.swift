import AutoTrackLocking

extension Runtime {
    /// Associates `value` with `object` under `key` (`objc_setAssociatedObject`);
    /// `nil` removes the association. A retained value lives as long as the object
    /// (or until replaced); an assigned one is not kept alive.
    public func setAssociatedObject(
        _ value: (any AnyObject & Sendable)?, for key: AssociationKey, on object: RuntimeObject,
        policy: AssociationPolicy = .retain
    ) {
        object.associationStorage.withLock { associations in
            guard let value else {
                associations[key] = nil
                return
            }
            switch policy {
            case .retain: associations[key] = .strong(value)
            case .assign: associations[key] = .weak(.init(value))
            }
        }
    }

    /// The value associated with `object` under `key` (`objc_getAssociatedObject`).
    public func associatedObject(for key: AssociationKey, on object: RuntimeObject) -> (any AnyObject & Sendable)? {
        object.associationStorage.withLock { $0[key]?.value }
    }

    /// Removes every association of `object` (`objc_removeAssociatedObjects`).
    public func removeAssociatedObjects(from object: RuntimeObject) {
        object.associationStorage.withLock { $0.removeAll() }
    }
}
