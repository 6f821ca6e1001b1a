import AutoTrackEvents
import AutoTrackSerialization
import Dispatch
import AutoTrackLocking

// MARK: Handing over and storing

extension Tracker {
    /// Hands an event to the worker through ``handOff``, waking the worker as it says.
    func submit(_ submission: Submission) {
        switch handOff.submit(submission) {
        case .now: worker.async { [self] in drainSubmissions() }
        case .afterDelay: scheduleDelayedDrain()
        case .no, .dropped: break
        }
    }

    /// Queues a drain on the worker after the hand-off's batching delay; the hand-off
    /// counts it as pending.
    func scheduleDelayedDrain() {
        worker.asyncAfter(deadline: .now() + SubmissionHandOff.batchingDelay) { [self] in drainSubmissions(delayed: true) }
    }

    /// How the hand-over from callers to the worker went so far: the stored
    /// submissions waiting for a submitting thread to release them, and the delayed
    /// drains callers had to schedule. For tests.
    package var handOverStatistics: (storedSubmissionsAwaitingRelease: Int, drainsScheduledBySubmitters: Int) {
        handOff.statistics
    }

    /// Builds, sanitises and stores every waiting submission, then sends when the batch
    /// is full. Worker thread only. A `delayed` drain that found events comes back
    /// after the delay by itself (see ``SubmissionHandOff/take(delayed:)``).
    func drainSubmissions(delayed: Bool = false) {
        let submissions = handOff.take(delayed: delayed)
        guard !submissions.isEmpty else { return }
        if delayed { scheduleDelayedDrain() }
        var repairs = SanitizationReport()
        var oversized = 0
        let recordsPageLeave = state.withLock { $0.settings.eventTypes.contains(.appPageLeave) }
        // Events are built without the presets, which the encoder writes as encoded
        // once (and the members after the properties, once per identity in a batch),
        // straight into the buffer that is written to the queue; the observer sees them
        // whole.
        var tails: EncodedEventTails? = EncodedEventTails()
        var records = EventRecordWriter(
            headerBytes: DurableQueue.recordHeaderBytes, reservingCapacity: submissions.count * (encodedPresets.byteCount + 384))
        for submission in submissions {
            // One call context, one identity; the library differs only in its method.
            tails?.identitySource = submission.context
            let leave = assembler.pageLeave(closedBy: submission, recorded: recordsPageLeave, repairs: &repairs)
            store(leave, into: &records, tails: &tails, oversized: &oversized)
            store(assembler.event(for: submission, repairs: &repairs), into: &records, tails: &tails, oversized: &oversized)
        }
        var storeFailures = oversized
        let sizes = records.payloadSizes
        do {
            try records.withBytes { (bytes) throws(QueueError) in
                try queue.append(framing: bytes, payloadSizes: sizes, sync: configuration.syncEachBatch)
            }
        } catch {
            storeFailures += sizes.count
        }
        let stored = sizes.count + oversized - storeFailures
        handOff.keepForRelease(submissions)
        state.withLock {
            $0.diagnostics.queued += stored
            if stored > 0 { $0.diagnostics.storedBatches += 1 }
            $0.diagnostics.storeFailures += storeFailures
            $0.diagnostics.sanitized.add(repairs)
        }
        if queue.statistics.pendingRecords >= configuration.flushPolicy.batchSize { automaticFlush() }
    }

    /// Shows `event` to the observer and encodes it into `records`; one too large for
    /// the queue is taken out again and counted in `oversized`. Worker thread only.
    private func store(_ event: Event?, into records: inout EventRecordWriter, tails: inout EncodedEventTails?, oversized: inout Int) {
        guard let event else { return }
        if let observer = configuration.eventObserver {
            var whole = event
            whole.properties = encodedPresets.properties.merging(event.properties)
            observer(whole)
        }
        if records.append(event, encoder: encoder, after: encodedPresets, tails: &tails) > queue.limits.maximumRecordBytes {
            records.removeLast()
            oversized += 1
        }
    }
}
