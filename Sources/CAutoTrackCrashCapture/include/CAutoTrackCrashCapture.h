#ifndef CAUTOTRACK_CRASH_CAPTURE_H
#define CAUTOTRACK_CRASH_CAPTURE_H

/// Installs handlers for the fatal signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
/// SIGTRAP). When one arrives, a handler installed before runs first, as it would
/// have: when it recovers (jumps out, or fixes a fault and returns) nothing is
/// recorded. When the process is going to die of the signal — no earlier handler, or
/// one that returned leaving the default disposition, the same fault again at once,
/// or abort() — a crash record (a fixed line naming the signal and the wall-clock
/// time in milliseconds) is written to `descriptor` with write(2) and made durable
/// with fsync(2), using only async-signal-safe calls, and the process dies of the
/// signal. An earlier handler that ends the process itself (`_exit`) leaves no
/// record. The installing thread gets an alternate signal stack, so a stack overflow
/// on it is recorded too. `descriptor` must stay open for the life of the process.
/// Returns 0, or -1 when a handler could not be installed. Calling it again replaces
/// the descriptor.
int autotrack_crash_capture_install(int descriptor);

/// Writes a crash record for `reason` (an uncaught error a host reports before it
/// ends the process) the same way. Returns 0, or -1 when the write failed.
int autotrack_crash_capture_record(const char *reason);

#endif
