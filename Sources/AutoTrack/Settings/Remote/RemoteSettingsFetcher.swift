import AutoTrackLocking
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches a tracker's settings document from a ``RemoteSettingsSource`` on its own
/// serial queue — never on the tracker's worker or sender — keeps the last good one in
/// the store, and schedules the next fetch.
final class RemoteSettingsFetcher: Sendable {
    typealias Apply = @Sendable ([UInt8]) throws(AutoTrackSettingsError) -> Set<AutoTrackSettings.Setting>

    private struct State {
        var etag: String?
        var diagnostics = RemoteSettingsDiagnostics()
        var failuresInARow = 0
        /// Moves on with each fetch: a scheduled fetch whose generation has passed is
        /// not made (a fetch asked for in between rescheduled it).
        var generation = 0
        var stopped = false
    }

    let source: RemoteSettingsSource
    private let documentFile: String
    private let etagFile: String
    private let apply: Apply
    private let queue = DispatchQueue(label: "autotrack.remote-settings")
    private let state = Locked(State())
    private let session: URLSession

    /// The largest settings document taken.
    static let maximumDocumentBytes = 256 * 1024

    init(source: RemoteSettingsSource, storeDirectory: URL, apply: @escaping Apply) {
        var source = source
        // A tight loop is no polling: at least a second between fetches.
        source.interval = max(source.interval, .seconds(1))
        source.retryDelay = min(max(source.retryDelay, .milliseconds(100)), source.interval)
        self.source = source
        documentFile = storeDirectory.appendingPathComponent("remote_settings.json").path
        etagFile = storeDirectory.appendingPathComponent("remote_settings.etag").path
        self.apply = apply
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = source.timeout.rounded(.up) + 1
        configuration.timeoutIntervalForResource = source.timeout.rounded(.up) + 1
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    /// Applies the document kept from the last run, then fetches (on the queue).
    func start() {
        if let saved = PrivateFiles.read(documentFile), !saved.isEmpty {
            do throws(AutoTrackSettingsError) {
                _ = try apply(saved)
                let tag = PrivateFiles.read(etagFile).map { String(decoding: $0, as: UTF8.self) }
                state.withLock {
                    $0.diagnostics.applied += 1
                    $0.etag = tag?.isEmpty == false ? tag : nil
                }
            } catch {
                state.withLock { $0.diagnostics.lastProblem = "the saved document: \(error)" }
            }
        }
        schedule(after: .zero)
    }

    /// Fetches now, waiting for the outcome.
    func refresh() -> RemoteSettingsOutcome {
        queue.sync { state.withLock { $0.stopped } ? .failed("the tracker has shut down") : fetch() }
    }

    /// No more fetches; one in flight ends without applying anything.
    func stop() {
        state.withLock { $0.stopped = true }
        session.invalidateAndCancel()
    }

    var diagnostics: RemoteSettingsDiagnostics { state.withLock { $0.diagnostics } }

    private func schedule(after delay: Duration) {
        let generation = state.withLock { state -> Int? in state.stopped ? nil : state.generation }
        guard let generation else { return }
        queue.asyncAfter(deadline: .now() + delay.dispatchInterval) { [weak self] in
            guard let self, state.withLock({ !$0.stopped && $0.generation == generation }) else { return }
            _ = fetch()
        }
    }

    /// One fetch, on the queue: apply a new document, note an unchanged one, refuse an
    /// invalid one, count a failure; then schedule the next.
    private func fetch() -> RemoteSettingsOutcome {
        let etag = state.withLock { state -> String? in
            state.generation += 1
            state.diagnostics.fetches += 1
            return state.etag
        }
        let outcome: RemoteSettingsOutcome
        switch get(ifNoneMatch: etag) {
        case .failure(let failure):
            outcome = .failed(failure.reason)
        case .success(let (status, tag, body)):
            switch status {
            case 304:
                outcome = .unchanged
            case 200 where body.count > Self.maximumDocumentBytes:
                outcome = .refused("the document has \(body.count) bytes, more than \(Self.maximumDocumentBytes)")
            case 200:
                do throws(AutoTrackSettingsError) {
                    guard !state.withLock({ $0.stopped }) else { return .failed("the tracker has shut down") }
                    let changed = try apply(body)
                    // The tag is kept only with its document: a tag saved beside an older
                    // document would answer 304 to it for good.
                    let saved = PrivateFiles.write(body, to: documentFile) == nil
                    _ = PrivateFiles.write(saved ? Array((tag ?? "").utf8) : [], to: etagFile)
                    state.withLock { $0.etag = saved ? tag : nil }
                    outcome = .applied(changed)
                } catch {
                    outcome = .refused("the document is not valid: \(error)")
                }
            default:
                outcome = .failed("HTTP \(status)")
            }
        }
        let next = state.withLock { state -> Duration in
            switch outcome {
            case .applied:
                state.diagnostics.applied += 1
                state.failuresInARow = 0
            case .unchanged:
                state.diagnostics.unchanged += 1
                state.failuresInARow = 0
            case .refused(let reason):
                state.diagnostics.refused += 1
                state.diagnostics.lastProblem = reason
                state.failuresInARow = 0
            case .failed(let reason):
                state.diagnostics.failures += 1
                state.diagnostics.lastProblem = reason
                state.failuresInARow += 1
            case .notConfigured:
                break
            }
            let next = state.failuresInARow > 0
                ? min(source.retryDelay * (1 << min(state.failuresInARow - 1, 20)), source.interval) : source.interval
            // With the counts, in one acquisition: a reader sees both or neither.
            state.diagnostics.nextFetchAfter = next
            return next
        }
        schedule(after: next)
        return outcome
    }

    /// A GET of the source's URL: the status, the entity tag and the body, or why none
    /// came within the timeout.
    private func get(ifNoneMatch etag: String?) -> Result<(Int, String?, [UInt8]), RequestFailure> {
        var request = URLRequest(url: source.url, timeoutInterval: source.timeout.rounded(.up) + 1)
        request.httpMethod = "GET"
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        return session.response(to: request, within: source.timeout).map { status, headers, body in (status, headers["etag"], body) }
    }
}
