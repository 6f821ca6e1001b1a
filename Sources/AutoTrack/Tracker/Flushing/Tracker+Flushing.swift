import Dispatch
import AutoTrackLocking

// MARK: Flushing

extension Tracker {
    /// What one flush did.
    public struct FlushReport: Hashable, Sendable {
        /// Events delivered.
        public var delivered = 0
        /// Events refused for good.
        public var rejected = 0
        /// Whether events remain queued after a temporary failure.
        public var deferred = false
        /// What the collector said about the events it refused.
        public var rejectionReasons: [String] = []
    }

    /// Sends everything queued, batch by batch, and waits for it. Stops at the first
    /// temporary failure, leaving the rest queued.
    @discardableResult
    public func flush() -> FlushReport {
        worker.sync {
            drainSubmissions()
            return flushOnWorker()
        }
    }

    /// A flush the tracker starts by itself (a full batch, the interval), unless a
    /// recent one was deferred (see ``FlushPacing``): then it waits, and the worker
    /// goes on storing.
    func automaticFlush() {
        guard !state.withLock({ $0.flushPacing.isPaused(at: .now) }) else { return }
        let report = flushOnWorker()
        state.withLock { $0.flushPacing.record(deferred: report.deferred, at: .now) }
    }

    /// Delivers the queue and counts what happened. Worker thread only.
    private func flushOnWorker() -> FlushReport {
        let (report, failures) = delivery.deliverQueued()
        state.withLock {
            $0.diagnostics.delivered += report.delivered
            $0.diagnostics.rejected += report.rejected
            if report.deferred { $0.diagnostics.deferredFlushes += 1 }
            $0.diagnostics.flushFailures += failures
        }
        return report
    }
}
