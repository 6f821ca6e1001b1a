import AutoTrackEvents
import AutoTrackLocking
import Foundation

// MARK: Consent

extension Tracker {
    /// The consent in force (see ``TrackingConsent``).
    public var consent: TrackingConsent { state.withLock { $0.consent } }

    /// Sets the consent, at any time, on any thread, and persists it in the store.
    ///
    /// - ``TrackingConsent/granted``: from now on events are sent too — those kept
    ///   while consent was pending included, at the next flush.
    /// - ``TrackingConsent/pending``: events are recorded and kept, not sent.
    /// - ``TrackingConsent/denied``: events handed over before the call are stored and
    ///   then purged with everything queued; the login id is forgotten and a new
    ///   anonymous id replaces the old one; nothing more is recorded.
    ///
    /// Returns once the change has taken effect: a `track` after it sees it.
    public func setConsent(_ consent: TrackingConsent) {
        // One change at a time, whole: the state, the hand-off and the stored value agree.
        let previous = state.withLock { state -> TrackingConsent in
            defer { state.consent = consent }
            handOff.setRefusing(consent == .denied)
            Self.storeConsent(consent, in: configuration.storeDirectory)
            return state.consent
        }
        if consent == .granted, previous == .pending { requestAutomaticFlush() }
        guard consent == .denied, previous != .denied else { return }
        if !isOnWorker { worker.sync { drainSubmissions() } }
        let purge: @Sendable () -> Void = { [self] in
            let purged = (try? queue.removeAllPending()) ?? 0
            let lost = unstored.withLock { $0.removeAll() }
            assembler.reset()
            state.withLock {
                $0.diagnostics.purgedByConsent += purged + lost
                $0.diagnostics.awaitingStore = 0
            }
        }
        // Between flushes, with the worker idle: a flush in progress finishes its batch
        // (and stops there), what was handed over is stored, then everything goes.
        if isOnWorker || isOnSender {
            sender.async { [self] in worker.sync(execute: purge) }
        } else {
            sender.sync { worker.sync(execute: purge) }
        }
        let anonymous = UUID().uuidString
        state.withLock { state in
            state.identity = .anonymous(anonymous)
            StoredIdentity.storeAnonymousID(anonymous, in: configuration.storeDirectory)
            StoredIdentity.storeLoginID(nil, in: configuration.storeDirectory)
        }
    }

    /// The consent stored in `directory`, if any.
    static func storedConsent(in directory: URL) -> TrackingConsent? {
        guard let bytes = PrivateFiles.read(directory.appendingPathComponent("consent").path) else { return nil }
        return TrackingConsent(rawValue: String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Stores `consent` privately in `directory` (a store that cannot be written
    /// keeps it for this run only).
    static func storeConsent(_ consent: TrackingConsent, in directory: URL) {
        _ = PrivateFiles.createDirectory(directory.path)
        _ = PrivateFiles.write(Array(consent.rawValue.utf8), to: directory.appendingPathComponent("consent").path)
    }
}
