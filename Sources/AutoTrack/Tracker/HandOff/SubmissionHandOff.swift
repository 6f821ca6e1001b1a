import Dispatch
import AutoTrackLocking

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
/// The hand-off schedules nothing itself: ``submit(_:)`` says how the worker is to be
/// woken, and the tracker does it.
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
        /// Nothing to wake for: the buffer was full and the submission was dropped.
        case dropped
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
        /// Submissions dropped because the buffer was full.
        var droppedWhileBusy = 0
    }

    private let state = Locked(State())
    /// How many submissions may wait.
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Hands `submission` over; says how to wake the worker.
    func submit(_ submission: Submission) -> Wake {
        let (wake, released) = state.withLock { state -> (Wake, (Submission?, Submission?)) in
            // Two stored submissions leave with each new one: the backlog of a batch is
            // released at twice the rate submissions arrive, a few at a time.
            let released = (state.storedSubmissions.popLast(), state.storedSubmissions.popLast())
            guard state.submissions.count < capacity else {
                state.droppedWhileBusy += 1
                return (.dropped, released)
            }
            state.submissions.append(submission)
            let schedules = !state.drainScheduled
            state.drainScheduled = true
            if schedules { state.drainsScheduledBySubmitters += 1 }
            if state.submissions.count == Self.batchLimit { return (.now, released) }
            return (schedules ? .afterDelay : .no, released)
        }
        // Freed here, outside the lock.
        withExtendedLifetime(released) {}
        return wake
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
        state.withLock { state in
            if delayed { state.drainScheduled = !state.submissions.isEmpty }
            defer { state.submissions.removeAll(keepingCapacity: true) }
            return state.submissions
        }
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

    /// Submissions dropped because the buffer was full.
    var droppedWhileBusy: Int { state.withLock { $0.droppedWhileBusy } }

    /// The stored submissions waiting for a submitting thread to release them, and the
    /// delayed drains callers had to schedule.
    var statistics: (storedSubmissionsAwaitingRelease: Int, drainsScheduledBySubmitters: Int) {
        state.withLock { ($0.storedSubmissions.count, $0.drainsScheduledBySubmitters) }
    }
}
