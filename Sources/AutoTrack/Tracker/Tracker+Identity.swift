/// AutoTrackEvents: `Identity`, `Properties`, `ValidationError` appear in this file's public API.
public import AutoTrackEvents
import AutoTrackLocking

// MARK: Identity and super properties

extension Tracker {
    /// Who events are about now.
    public var identity: Identity { state.withLock { $0.identity } }

    /// Sets the anonymous (device) id, kept in the store for later launches.
    public func identify(anonymousID: String) throws(ValidationError) {
        try configuration.rules.checkIdentifier(anonymousID, field: "anonymous_id")
        // Stored under the lock, so the file holds the last identity set, whichever
        // thread set it.
        state.withLock { state in
            let login = state.identity.loginID
            state.identity = login.map { .loggedIn($0, anonymousID: anonymousID) } ?? .anonymous(anonymousID)
            StoredIdentity.storeAnonymousID(anonymousID, in: configuration.storeDirectory)
        }
    }

    /// Files later events under `loginID`, in this launch and the later ones until
    /// ``logout()``.
    public func login(_ loginID: String) throws(ValidationError) {
        try configuration.rules.checkIdentifier(loginID, field: "login_id")
        state.withLock { state in
            state.identity = .loggedIn(loginID, anonymousID: state.identity.anonymousID)
            StoredIdentity.storeLoginID(loginID, in: configuration.storeDirectory)
        }
    }

    /// Files later events under the anonymous id again (and forgets the stored login).
    public func logout() {
        state.withLock { state in
            state.identity = .anonymous(state.identity.anonymousID ?? state.identity.distinctID)
            StoredIdentity.storeLoginID(nil, in: configuration.storeDirectory)
        }
    }

    /// Adds properties to every later event (validated like a caller's).
    public func registerSuperProperties(_ properties: Properties) throws(ValidationError) {
        let checked = try configuration.rules.validated(properties)
        state.withLock { $0.superProperties.merge(checked) }
    }

    /// Removes one super property.
    public func unregisterSuperProperty(_ key: String) {
        state.withLock { _ = $0.superProperties.removeValue(forKey: key) }
    }

    /// Removes every super property.
    public func clearSuperProperties() {
        state.withLock { $0.superProperties.removeAll() }
    }

    /// Properties computed at each event (sanitised, not thrown), merged over the static
    /// super properties.
    public func setDynamicSuperProperties(_ provider: (@Sendable () -> Properties)?) {
        state.withLock { $0.dynamicSuperProperties = provider }
    }

    /// The call context of an event handed over now.
    func callContext() -> CallContext {
        CallContext.make(from: state.withLock { CallContext.Parts($0) })
    }
}

/// Who an event is about and its super properties, taken on the caller's thread at the
/// moment of the call — a `logout()` right after `track` does not change it.
/// Immutable and shared: events tracked between two changes hold the same one.
final class CallContext: Sendable {
    let identity: Identity
    let superProperties: Properties
    /// Whether every super property was validated already (the static ones are, when
    /// registered); dynamic ones are sanitised with the event.
    let superPropertiesAreChecked: Bool

    init(identity: Identity, superProperties: Properties, superPropertiesAreChecked: Bool = true) {
        self.identity = identity
        self.superProperties = superProperties
        self.superPropertiesAreChecked = superPropertiesAreChecked
    }

    /// What a call context is made of, taken under the state lock; the dynamic super
    /// properties are asked for outside it.
    struct Parts {
        let context: CallContext
        let dynamic: (@Sendable () -> Properties)?
        /// After a passive launch, until the foreground: events say `$app_state`
        /// `background`.
        let isPassiveLaunch: Bool

        init(_ state: borrowing Tracker.State) {
            context = state.context
            dynamic = state.dynamicSuperProperties
            isPassiveLaunch = state.isPassiveLaunch
        }
    }

    /// The properties every event of a passive launch carries (as super properties:
    /// an event's own `$app_state` wins).
    static let passiveLaunchProperties: Properties = ["$app_state": "background"]

    /// The context of `parts`, with the dynamic super properties asked for now.
    static func make(from parts: Parts) -> CallContext {
        let base = parts.isPassiveLaunch
            ? CallContext(
                identity: parts.context.identity, superProperties: passiveLaunchProperties.merging(parts.context.superProperties),
                superPropertiesAreChecked: parts.context.superPropertiesAreChecked)
            : parts.context
        guard let dynamic = parts.dynamic else { return base }
        return CallContext(identity: base.identity, superProperties: base.superProperties.merging(dynamic()), superPropertiesAreChecked: false)
    }
}
