/// When the tracker's own flushes (a full batch, the interval) may try again: after a
/// deferred flush they wait, doubling the pause from 1 s up to 1 min, so a collector
/// that is down does not keep the worker from storing. An explicit ``Tracker/flush()``
/// always tries.
struct FlushPacing {
    /// Automatic flushes wait until then.
    private(set) var pausedUntil: ContinuousClock.Instant?
    /// The next pause.
    private(set) var pause: Duration = .seconds(1)

    /// Whether automatic flushes wait now.
    func isPaused(at now: ContinuousClock.Instant) -> Bool { pausedUntil.map { now < $0 } ?? false }

    /// Takes a flush's outcome: a deferred one pauses (longer each time), a complete
    /// one ends the pauses.
    mutating func record(deferred: Bool, at now: ContinuousClock.Instant) {
        if deferred {
            pausedUntil = now + pause
            pause = min(pause * 2, .seconds(60))
        } else {
            pausedUntil = nil
            pause = .seconds(1)
        }
    }
}
