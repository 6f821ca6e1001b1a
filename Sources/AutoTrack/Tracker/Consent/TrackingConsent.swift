/// Whether the person using the app agreed to be tracked: what the tracker records and
/// sends. Set with ``Tracker/setConsent(_:)``; persisted in the store, so it holds
/// across launches.
public enum TrackingConsent: String, Hashable, Sendable, CaseIterable {
    /// Events are recorded, stored and sent.
    case granted
    /// Events are recorded and kept on disk, not sent, until consent is granted (then
    /// they go out) or denied (then they are purged).
    case pending
    /// Nothing is recorded: `track` throws ``TrackingError/consentDenied``, automatic
    /// events are counted in ``TrackerDiagnostics/refusedByConsent``; the queue was
    /// purged and the identity reset when consent was denied.
    case denied
}
