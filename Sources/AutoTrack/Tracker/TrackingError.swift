/// AutoTrackEvents: `ValidationError` appears in this file's public API.
public import AutoTrackEvents

/// Why ``Tracker/track(_:properties:)`` or ``Tracker/trackAppClick(element:properties:)``
/// did not take an event. Every event a call returns from normally is handed over and
/// will be stored; an event that is not is reported here, never dropped silently.
public enum TrackingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name, identity or a property broke the rules; nothing was handed over.
    case invalid(ValidationError)
    /// The tracker's worker was stalled (a hung disk) and no room came free in its
    /// hand-off within ``TrackerConfiguration/maximumWaitForRoom``: the event was
    /// dropped after the caller waited `waited`, and counted in
    /// ``TrackerDiagnostics/droppedWhileBusy``.
    case droppedWhileBusy(waited: Duration)
    /// ``Tracker/shutdown()`` was called before: the tracker takes no more events.
    case shutDown
    /// Tracking consent is denied (``Tracker/setConsent(_:)``): nothing is recorded.
    case consentDenied

    /// What happened, for a log line.
    public var description: String {
        switch self {
        case .invalid(let error): error.description
        case .droppedWhileBusy(let waited): "dropped: the tracker's worker made no room within \(waited)"
        case .shutDown: "the tracker is shut down"
        case .consentDenied: "tracking consent is denied"
        }
    }

    /// The validation error, when that was the reason.
    public var validationError: ValidationError? {
        if case .invalid(let error) = self { return error }
        return nil
    }
}
