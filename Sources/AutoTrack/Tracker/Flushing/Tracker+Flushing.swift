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
        /// Called from the tracker's own threads (an event observer, a transport), the
        /// flush could not wait for itself: it runs once the current work is done, and
        /// this report is empty.
        public var postponed = false
        /// Consent is pending: nothing was sent, the events stay queued.
        public var heldForConsent = false
    }

    /// Stores what was handed over, then sends everything queued, batch by batch, and
    /// waits for it. Stops at the first temporary failure, leaving the rest queued.
    /// Called from an event observer or a transport, it returns at once with a
    /// ``FlushReport/postponed`` report, and the flush runs after the current work.
    @discardableResult
    public func flush() -> FlushReport {
        guard !isOnWorker, !isOnSender else {
            worker.async { [self] in
                drainSubmissions()
                sender.async { [self] in flushOnSender() }
            }
            return FlushReport(postponed: true)
        }
        worker.sync { drainSubmissions(expiringTaps: true) }
        return sender.sync { flushOnSender() }
    }

    /// Queues an automatic flush on the sender, unless one is queued already.
    func requestAutomaticFlush() {
        let queues = state.withLock { state -> Bool in
            defer { state.automaticFlushQueued = true }
            return !state.automaticFlushQueued
        }
        guard queues else { return }
        sender.async { [self] in
            state.withLock { $0.automaticFlushQueued = false }
            automaticFlush()
        }
    }

    /// A flush the tracker starts by itself (a full batch, the interval), unless a
    /// recent one was deferred (see ``FlushPacing``): then it waits. Sender thread
    /// only: the worker goes on storing meanwhile.
    func automaticFlush() {
        guard !state.withLock({ $0.flushPacing.isPaused(at: .now) }) else { return }
        let report = flushOnSender()
        state.withLock { $0.flushPacing.record(deferred: report.deferred, at: .now) }
    }

    /// Delivers the queue and counts what happened; nothing once the queue is
    /// closed. Sender thread only.
    @discardableResult
    func flushOnSender() -> FlushReport {
        noteAlive()
        let (closed, consent) = state.withLock { ($0.isQueueClosed, $0.consent) }
        guard !closed else { return FlushReport() }
        guard consent == .granted else { return FlushReport(heldForConsent: consent == .pending) }
        // Consent withdrawn while sending stops the flush before the next batch.
        let (report, failures) = delivery.deliverQueued { state.withLock { $0.consent == .granted && !$0.isQueueClosed } }
        state.withLock {
            $0.diagnostics.delivered += report.delivered
            $0.diagnostics.rejected += report.rejected
            if report.deferred { $0.diagnostics.deferredFlushes += 1 }
            $0.diagnostics.flushFailures += failures
        }
        return report
    }
}
