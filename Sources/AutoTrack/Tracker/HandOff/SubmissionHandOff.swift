import Dispatch
import AutoTrackLocking
import Foundation

/// The hand-off from callers' threads to the tracker's worker: a bounded buffer of
/// submissions, and the bookkeeping that decides when the worker must be woken.
///
/// Submissions wait in one buffer — for at most ``batchingDelay`` — and are stored
/// together: one write, and at most one `fsync`, per batch, in the order they were
/// submitted. The first event after a quiet spell schedules a drain instead of waking
/// the worker at every event (a wake-up cost the calling thread more than capturing a
/// click); the worker then comes back by itself while events keep coming (see
/// ``take(delayed:)``), and the events of a burst are stored together.
///
/// The hand-off schedules nothing itself: ``submit(_:overCapacity:)`` says how the
/// worker is to be woken, and the tracker does it.
///
/// **Back-pressure.** The buffer is bounded. A caller that finds it full waits for
/// room (``submitWaiting(_:timeout:wakeWorker:)``) — the worker makes room each time it
/// takes the buffer — so a burst loses nothing and memory stays bounded. Only a caller
/// that waited past its timeout (a worker stalled on a hung disk) gives up; that drop is
/// counted and reported to the caller.
final class SubmissionHandOff: Sendable {
    /// How long a submission may wait for others before the worker stores them.
    static let batchingDelay: DispatchTimeInterval = .milliseconds(1)

    /// Past this many waiting submissions the worker is woken at once, so a burst never
    /// waits for the delay with a large buffer.
    static let batchLimit = 256

    /// At most this many stored submissions wait for a submitting thread to release
    /// them; past it the worker releases them itself. It bounds what an app that stops
    /// tracking keeps alive (a click's submission is about a kilobyte).
    static let storedSubmissionsKept = 512

    /// How the worker is to be woken after a submission.
    enum Wake: Equatable {
        /// A drain is scheduled already.
        case no
        /// Schedule a drain after ``batchingDelay``.
        case afterDelay
        /// Drain at once: the buffer reached ``batchLimit``.
        case now
        /// Not handed over: the buffer is full. The caller waits for room
        /// (``SubmissionHandOff/submitWaiting(_:timeout:wakeWorker:)``).
        case full
        /// Not handed over: the tracker is shut down.
        case closed
        /// Not handed over: tracking consent is denied.
        case refused
    }

    private struct State {
        /// Events handed over and not yet stored, oldest first.
        var submissions: [Submission] = []
        /// Whether the worker has a drain of `submissions` queued.
        var drainScheduled = false
        /// Submissions stored already, waiting to be released by the next submitting
        /// thread; see ``SubmissionHandOff/keepForRelease(_:)``.
        var storedSubmissions: [Submission] = []
        /// Delayed drains scheduled by `submit`, not by the worker itself.
        var drainsScheduledBySubmitters = 0
        /// Submissions dropped because the buffer stayed full past a caller's timeout.
        var droppedWhileBusy = 0
        /// Callers waiting for room now.
        var waiters = 0
        /// Whether a waiting caller has asked the worker for a drain not taken yet.
        var roomRequested = false
        /// How callers waited for room so far.
        var waits = HandOffWaits()
        /// Whether the tracker is shut down: nothing is taken any more.
        var isClosed = false
        /// Whether consent is denied: nothing is taken while it is.
        var isRefusing = false
    }

    private let state = Locked(State())
    /// Where callers wait for room. Its lock is held while a waiter checks for room
    /// and while the worker announces room, so no announcement falls between a
    /// waiter's check and its wait.
    private let room = NSCondition()
    /// How many submissions may wait.
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Hands `submission` over when there is room — or always, `overCapacity` (the
    /// worker's own thread, which must never wait for itself: an event observer's
    /// event); says how to wake the worker, or ``Wake/full``.
    func submit(_ submission: Submission, overCapacity: Bool = false) -> Wake {
        let (wake, released) = state.withLock { state -> (Wake, (Submission?, Submission?)) in
            // Two stored submissions leave with each new one: the backlog of a batch is
            // released at twice the rate submissions arrive, a few at a time.
            let released = (state.storedSubmissions.popLast(), state.storedSubmissions.popLast())
            // While callers wait for room, a newcomer queues behind them: room the
            // worker makes goes to the waiting first, in the order events happened.
            let room = overCapacity ? .max : state.waiters > 0 ? 0 : capacity
            return (Self.append(submission, to: &state, capacity: room), released)
        }
        // Freed here, outside the lock.
        withExtendedLifetime(released) {}
        return wake
    }

    /// Appends `submission` when the buffer holds fewer than `capacity`.
    private static func append(_ submission: Submission, to state: inout State, capacity: Int) -> Wake {
        guard !state.isClosed else { return .closed }
        guard !state.isRefusing else { return .refused }
        guard state.submissions.count < capacity else { return .full }
        state.submissions.append(submission)
        let schedules = !state.drainScheduled
        state.drainScheduled = true
        if schedules { state.drainsScheduledBySubmitters += 1 }
        if state.submissions.count == Self.batchLimit { return .now }
        return schedules ? .afterDelay : .no
    }

    /// Waits for room and hands `submission` over, after ``submit(_:overCapacity:)``
    /// found the buffer full. Asks the worker for a drain at once (`wakeWorker`, once
    /// per drain); returns how to wake it, or `nil` when `timeout` passed on the
    /// monotonic clock without room (the submission is dropped and counted). Never on
    /// the worker's thread.
    func submitWaiting(_ submission: Submission, timeout: Duration, wakeWorker: () -> Void) -> Wake? {
        let clock = ContinuousClock()
        let start = clock.now
        room.lock()
        defer { room.unlock() }
        var waiting = false
        while true {
            let (wake, requestsRoom) = state.withLock { state -> (Wake?, Bool) in
                let wake = Self.append(submission, to: &state, capacity: capacity)
                if wake != .full {
                    if waiting { state.waiters -= 1 }
                    return (wake, false)
                }
                if !waiting { state.waiters += 1 }
                defer { state.roomRequested = true }
                return (nil, !state.roomRequested)
            }
            let waited = clock.now - start
            if let wake {
                if waiting { state.withLock { $0.waits.record(waited) } }
                return wake
            }
            waiting = true
            if requestsRoom { wakeWorker() }
            guard waited < timeout else {
                state.withLock { state in
                    state.waiters -= 1
                    state.droppedWhileBusy += 1
                    state.waits.record(waited)
                }
                return nil
            }
            // In slices, measured on the monotonic clock: a wall clock moved while
            // waiting neither ends the wait early nor stretches it.
            let slice = min(timeout - waited, .milliseconds(50))
            _ = room.wait(until: Date(timeIntervalSinceNow: slice.inSeconds))
        }
    }

    /// Takes every waiting submission, oldest first. Worker thread only.
    ///
    /// A `delayed` drain — the one `drainScheduled` announces — that finds events must
    /// come back after the delay by itself (the caller schedules it), so while events
    /// keep coming no caller schedules the worker (a timer set up from the calling
    /// thread cost it more than the rest of handing over a click); the first drain that
    /// finds nothing ends that. Other drains (a full buffer, waiting, flushing) leave
    /// the pending one be.
    func take(delayed: Bool) -> [Submission] {
        let (taken, waiters) = state.withLock { state in
            if delayed { state.drainScheduled = !state.submissions.isEmpty }
            state.roomRequested = false
            defer { state.submissions.removeAll(keepingCapacity: true) }
            return (state.submissions, state.waiters)
        }
        if waiters > 0 {
            room.lock()
            room.broadcast()
            room.unlock()
        }
        return taken
    }

    /// Hands stored submissions back, to be released by the next calls to
    /// ``submit(_:)``. Worker thread only.
    ///
    /// A submission and what it holds — the interaction, its snapshots and property
    /// collections — were allocated on the thread that submitted it. Released on the
    /// worker, every one of those blocks goes back to that thread's allocator across
    /// threads: with glibc's malloc into the submitting thread's arena, under its lock,
    /// while the same thread allocates the next click there. Measured with `autotrack
    /// bench pipeline`, that contention made an autotracked tap cost its thread about a
    /// third more. Released by a submitting thread, the blocks are reused by its next
    /// allocations.
    func keepForRelease(_ submissions: [Submission]) {
        state.withLock { state in
            let room = Self.storedSubmissionsKept - state.storedSubmissions.count
            guard room > 0 else { return }
            if state.storedSubmissions.isEmpty, submissions.count <= room {
                state.storedSubmissions = submissions
            } else {
                state.storedSubmissions.append(contentsOf: submissions.prefix(room))
            }
        }
    }

    /// Takes nothing more: the tracker is shutting down. Callers waiting for room are
    /// told at once.
    func close() {
        state.withLock { $0.isClosed = true }
        room.lock()
        room.broadcast()
        room.unlock()
    }

    /// Refuses submissions while `refusing` (consent denied); callers waiting for room
    /// are told at once.
    func setRefusing(_ refusing: Bool) {
        state.withLock { $0.isRefusing = refusing }
        room.lock()
        room.broadcast()
        room.unlock()
    }

    /// Submissions dropped because the buffer stayed full past a caller's timeout.
    var droppedWhileBusy: Int { state.withLock { $0.droppedWhileBusy } }

    /// How callers waited for room so far.
    var waits: HandOffWaits { state.withLock { $0.waits } }

    /// The stored submissions waiting for a submitting thread to release them, and the
    /// delayed drains callers had to schedule.
    var statistics: (storedSubmissionsAwaitingRelease: Int, drainsScheduledBySubmitters: Int) {
        state.withLock { ($0.storedSubmissions.count, $0.drainsScheduledBySubmitters) }
    }
}
