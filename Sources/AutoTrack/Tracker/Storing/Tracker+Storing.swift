import AutoTrackEvents
import AutoTrackSerialization
import Dispatch
import AutoTrackLocking

// MARK: Handing over and storing

extension Tracker {
    /// Hands an event to the worker through ``handOff``, waking the worker as it says;
    /// when the hand-off is full, waits for room (see ``SubmissionHandOff``). An event
    /// it could not hand over — the tracker is shut down, or the worker made no room
    /// within ``TrackerConfiguration/maximumWaitForRoom`` — is counted and reported.
    @discardableResult
    func submit(_ submission: Submission) -> TrackingError? {
        var wake = handOff.submit(submission)
        if wake == .full, isOnWorker {
            wake = handOff.submit(submission, overCapacity: true)
        } else if wake == .full {
            let start = ContinuousClock.now
            guard let handedOver = handOff.submitWaiting(
                submission, timeout: configuration.maximumWaitForRoom,
                wakeWorker: { worker.async { [self] in drainSubmissions() } })
            else { return .droppedWhileBusy(waited: ContinuousClock.now - start) }
            wake = handedOver
        }
        switch wake {
        case .now: worker.async { [self] in drainSubmissions() }
        case .afterDelay: scheduleDelayedDrain()
        case .no, .full: break
        case .closed:
            state.withLock { $0.diagnostics.storeFailures += 1 }
            return .shutDown
        case .refused:
            state.withLock { $0.diagnostics.refusedByConsent += 1 }
            return .consentDenied
        }
        return nil
    }

    /// ``submit(_:)`` for the app's own calls: what could not be handed over is thrown.
    func submitOrThrow(_ submission: Submission) throws(TrackingError) {
        if let error = submit(submission) { throw error }
    }

    /// Whether the calling thread is the tracker's worker (an event observer's call):
    /// it must never wait for itself.
    var isOnWorker: Bool { DispatchQueue.getSpecific(key: workerKey) != nil }

    /// Whether the calling thread is the tracker's sender (a transport's call).
    var isOnSender: Bool { DispatchQueue.getSpecific(key: senderKey) != nil }

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

    /// Builds, sanitises and stores every waiting submission, then asks for a flush
    /// when the batch is full. Worker thread only. A `delayed` drain that found events
    /// comes back after the delay by itself (see ``SubmissionHandOff/take(delayed:)``).
    /// Batches the store refused before are written first, in order. With
    /// `expiringTaps`, taps that waited past the dead-click timeout by now become
    /// dead clicks after the batch.
    func drainSubmissions(delayed: Bool = false, expiringTaps: Bool = false) {
        if unstored.withLock({ $0.events }) > 0 { retryUnstored() }
        let submissions = handOff.take(delayed: delayed)
        guard !submissions.isEmpty || (expiringTaps && assembler.hasPendingTaps) else { return }
        if delayed, !submissions.isEmpty { scheduleDelayedDrain() }
        var repairs = SanitizationReport()
        var oversized = 0
        let (recordsPageLeave, rageRule, deadTimeout) = state.withLock { state in
            (state.settings.eventTypes.contains(.appPageLeave),
             state.settings.eventTypes.contains(.appRageClick) ? state.settings.rageClicks : nil,
             state.settings.eventTypes.contains(.appDeadClick) ? state.settings.deadClickTimeout : nil)
        }
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
            // Dead clicks carry their taps' identities: tails matched by value.
            tails?.identitySource = nil
            for dead in assembler.deadClicks(before: submission, timeout: deadTimeout, repairs: &repairs) {
                store(dead, into: &records, tails: &tails, oversized: &oversized)
            }
            tails?.identitySource = submission.context
            let leave = assembler.pageLeave(closedBy: submission, recorded: recordsPageLeave, repairs: &repairs)
            store(leave, into: &records, tails: &tails, oversized: &oversized)
            store(assembler.event(for: submission, repairs: &repairs), into: &records, tails: &tails, oversized: &oversized)
            store(assembler.rageClick(after: submission, rule: rageRule, repairs: &repairs), into: &records, tails: &tails, oversized: &oversized)
        }
        if expiringTaps, let deadTimeout {
            tails?.identitySource = nil
            for dead in assembler.expiredDeadClicks(at: configuration.clock.monotonicNow(), timeout: deadTimeout, repairs: &repairs) {
                store(dead, into: &records, tails: &tails, oversized: &oversized)
            }
        }
        let sizes = records.payloadSizes
        let outcome = records.withBytes { bytes in storeInOrder(bytes, payloadSizes: sizes) }
        handOff.keepForRelease(submissions)
        state.withLock {
            $0.diagnostics.queued += outcome.stored
            if outcome.stored > 0 { $0.diagnostics.storedBatches += 1 }
            $0.diagnostics.storeFailures += oversized + outcome.lost
            $0.diagnostics.sanitized.add(repairs)
        }
        if queue.statistics.pendingRecords >= configuration.flushPolicy.batchSize { requestAutomaticFlush() }
    }

    /// Writes a batch — after the batches the store refused before, so the order is
    /// kept — or keeps it for a retry when the store refuses it. Worker thread only.
    private func storeInOrder(_ bytes: UnsafeMutableRawBufferPointer, payloadSizes: [Int]) -> (stored: Int, lost: Int) {
        guard !payloadSizes.isEmpty else { return (0, 0) }
        if unstored.withLock({ $0.events }) == 0 {
            switch append(bytes, payloadSizes: payloadSizes) {
            case nil: return (payloadSizes.count, 0)
            case .closed?: return (0, payloadSizes.count)
            case _?: break
            }
        }
        let batch = UnstoredBatches.Batch(framing: Array(UnsafeRawBufferPointer(bytes)), payloadSizes: payloadSizes)
        let (lost, awaiting) = unstored.withLock { unstored in (unstored.keep(batch), unstored.events) }
        state.withLock { $0.diagnostics.awaitingStore = awaiting }
        scheduleUnstoredRetry()
        return (0, lost)
    }

    /// Appends framed records to the queue; the error, or `nil`.
    private func append(_ bytes: UnsafeMutableRawBufferPointer, payloadSizes: [Int]) -> QueueError? {
        do throws(QueueError) {
            try queue.append(framing: bytes, payloadSizes: payloadSizes, sync: configuration.syncEachBatch)
            return nil
        } catch {
            return error
        }
    }

    /// Writes the batches the store refused before, oldest first, until one is refused
    /// again. Worker thread only; the buffer's lock is not held while writing, so
    /// ``diagnostics`` never waits for a hung disk.
    func retryUnstored() {
        var stored = 0
        var lost = 0
        while var batch = unstored.withLock({ $0.oldest }) {
            let sizes = batch.payloadSizes
            let failure = batch.framing.withUnsafeMutableBytes { append($0, payloadSizes: sizes) }
            if failure == nil {
                let written = unstored.withLock { $0.oldestStored() }
                stored += written.events
                if written.carriedCrashes { crashesStored() }
                continue
            }
            if case .closed? = failure { lost = unstored.withLock { $0.removeAll() } }
            unstored.withLock { $0.retryRefused() }
            break
        }
        guard stored > 0 || lost > 0 else { return }
        let awaiting = unstored.withLock { $0.events }
        state.withLock {
            $0.diagnostics.queued += stored
            if stored > 0 { $0.diagnostics.storedBatches += 1 }
            $0.diagnostics.storeFailures += lost
            $0.diagnostics.awaitingStore = awaiting
        }
        scheduleUnstoredRetry()
    }

    /// Schedules a retry of the refused batches on the worker, unless one is
    /// scheduled or none wait.
    private func scheduleUnstoredRetry() {
        let delay = unstored.withLock { unstored -> Duration? in
            guard unstored.events > 0, !unstored.retryScheduled else { return nil }
            unstored.retryScheduled = true
            return unstored.retryDelay
        }
        guard let delay else { return }
        worker.asyncAfter(deadline: .now() + delay.dispatchInterval) { [weak self] in
            guard let self else { return }
            unstored.withLock { $0.retryScheduled = false }
            retryUnstored()
        }
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
