#ifndef CAUTOTRACK_CRASH_CAPTURE_H
#define CAUTOTRACK_CRASH_CAPTURE_H

/// Installs handlers for the fatal signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
/// SIGTRAP), process-wide: when one arrives, a crash record — a fixed line naming the
/// time in milliseconds, the process id and the signal — is written to `descriptor`
/// with write(2) and made durable with fsync(2), using only async-signal-safe calls;
/// then the handler installed before runs, as it would have. When it recovers by
/// fixing a fault and returning, a survival note follows the record; when it recovers
/// by jumping out, the still-running host notes its survival
/// (autotrack_crash_capture_note_alive). Records followed by a note of their process
/// are no crashes. Otherwise the process dies of the signal as it would have. The
/// installing thread gets an alternate signal stack, so a stack overflow on it is
/// recorded too. `descriptor` must stay open for the life of the process. Returns 0,
/// or -1 when a handler could not be installed. Calling it again points the
/// handlers at the new file: it takes the installed descriptor's number (dup2) and
/// `descriptor` is closed.
int autotrack_crash_capture_install(int descriptor);

/// Writes a crash record for `reason` (an uncaught error a host reports before it
/// ends the process) the same way. Returns 0, or -1 when the write failed.
int autotrack_crash_capture_record(const char *reason);

/// Notes, in the crash record open as `descriptor` (for appending), that the process
/// is alive — after every record so far — unless a handler is running an earlier one
/// right now (a crash may be under way). Returns 0, or -1 when no note was written.
int autotrack_crash_capture_note_alive(int descriptor);

#endif
