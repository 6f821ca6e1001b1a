/// Foundation: `URL`, `TimeInterval` appear in this file's public API.
public import Foundation

/// Where a tracker fetches its settings document, and how often
/// (``TrackerConfiguration/remoteSettings``): the document served at ``url`` is
/// applied key by key over the settings in force, as
/// ``Tracker/loadAutoTrackSettings(json:)`` applies one.
///
/// The last document applied is kept in the store with its entity tag and applied
/// again at the next start, before any fetch — so a launch without a network has the
/// settings the last one had. A fetch asks with `If-None-Match`, so an unchanged
/// document costs a 304. A document that is not valid is refused and counted, and the
/// one in force stays. After a failure (no network, a 5xx) the next attempt comes
/// sooner, backing off from ``retryDelay`` to ``interval``.
public struct RemoteSettingsSource: Sendable {
    /// The document's URL (http or https).
    public var url: URL
    /// How long between fetches after one that worked.
    public var interval: Duration
    /// The first wait after a failed fetch; it doubles with each failure in a row, up
    /// to ``interval``.
    public var retryDelay: Duration
    /// How long one fetch may take, in seconds.
    public var timeout: TimeInterval

    /// A source at `url`, polled every `interval` (10 minutes by default).
    public init(url: URL, interval: Duration = .seconds(600), retryDelay: Duration = .seconds(5), timeout: TimeInterval = 10) {
        self.url = url
        self.interval = interval
        self.retryDelay = retryDelay
        self.timeout = timeout
    }
}

/// What one fetch of the remote settings came to.
public enum RemoteSettingsOutcome: Hashable, Sendable {
    /// A new document was applied; these settings changed.
    case applied(Set<AutoTrackSettings.Setting>)
    /// The server holds the document applied last (304).
    case unchanged
    /// The document was not valid and was not applied: why.
    case refused(String)
    /// No document could be fetched: why.
    case failed(String)
    /// The tracker has no remote settings source.
    case notConfigured
}

/// The remote settings fetches so far.
public struct RemoteSettingsDiagnostics: Hashable, Sendable {
    /// Fetches made.
    public var fetches = 0
    /// Documents applied (a saved one at start included).
    public var applied = 0
    /// Fetches answered 304.
    public var unchanged = 0
    /// Documents refused as not valid.
    public var refused = 0
    /// Fetches that failed.
    public var failures = 0
    /// Why the last refused or failed fetch went wrong.
    public var lastProblem: String?
    /// How long after the last fetch the next is due.
    public var nextFetchAfter: Duration?

    /// No fetches yet.
    public init() {}
}
