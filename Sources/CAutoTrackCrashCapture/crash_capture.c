// REG_RIP in ucontext_t.
#define _GNU_SOURCE
#include "CAutoTrackCrashCapture.h"

#include <pthread.h>
#include <signal.h>
#include <ucontext.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/// The record's descriptor: read atomically by handlers (lock-free), set under
/// `install_lock` by installs, which threads may race.
static int crash_descriptor = -1;
static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
#define FATAL_SIGNAL_COUNT ((int)(sizeof(fatal_signals) / sizeof(fatal_signals[0])))
static struct sigaction previous_actions[FATAL_SIGNAL_COUNT];
/// When this thread's handler started recording (monotonic ns; 0: it is not): a fault
/// inside the handler itself is not recorded twice. Per thread, and stale after a
/// second — a handler left by a jump never clears it.
static __thread __attribute__((tls_model("initial-exec"))) long long handling_since = 0;
/// When a handler in the process started running an earlier handler (monotonic ns;
/// 0: none is): a survival note is not written while a crash may be under way.
static long long earlier_handler_since = 0;

static const char *signal_name(int number) {
    switch (number) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGTRAP: return "SIGTRAP";
    default: return "signal";
    }
}

/// Appends `text` to `buffer` at `*length`, within `capacity`.
static void append_text(char *buffer, int *length, int capacity, const char *text) {
    while (*text != '\0' && *length < capacity) buffer[(*length)++] = *text++;
}

/// Appends the decimal digits of `value` to `buffer`.
static void append_number(char *buffer, int *length, int capacity, long long value) {
    char digits[24];
    int count = 0;
    if (value < 0) value = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0 && count < (int)sizeof(digits));
    while (count > 0 && *length < capacity) buffer[(*length)++] = digits[--count];
}

/// One record: `<kind> <time ms> <pid> <reason>\n` — `autotrack-crash` for a signal,
/// `autotrack-reported` for an error a host reported — the reason cut at 200 bytes
/// and kept to one line. Returns 0, or -1.
static int write_record(const char *kind, const char *reason) {
    int descriptor = __atomic_load_n(&crash_descriptor, __ATOMIC_ACQUIRE);
    if (descriptor < 0) return -1;
    char line[256];
    int length = 0;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    append_text(line, &length, (int)sizeof(line) - 1, kind);
    append_text(line, &length, (int)sizeof(line) - 1, " ");
    append_number(line, &length, (int)sizeof(line) - 1, (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000);
    append_text(line, &length, (int)sizeof(line) - 1, " ");
    append_number(line, &length, (int)sizeof(line) - 1, (long long)getpid());
    append_text(line, &length, (int)sizeof(line) - 1, " ");
    int reason_start = length;
    append_text(line, &length, reason_start + 200 < (int)sizeof(line) - 1 ? reason_start + 200 : (int)sizeof(line) - 1, reason);
    for (int index = reason_start; index < length; index++) {
        if (line[index] == '\n' || line[index] == '\r') line[index] = ' ';
    }
    line[length++] = '\n';
    int written = 0;
    while (written < length) {
        ssize_t count = write(descriptor, line + written, (size_t)(length - written));
        if (count <= 0) return -1;
        written += (int)count;
    }
    fsync(descriptor);
    return 0;
}

/// The index of `number` in `fatal_signals`.
static int signal_index(int number) {
    for (int index = 0; index < FATAL_SIGNAL_COUNT; index++) {
        if (fatal_signals[index] == number) return index;
    }
    return 0;
}

// The handler fields share storage: compare the pointer whatever the flags say.
static int is_default(const struct sigaction *action) { return action->sa_handler == SIG_DFL; }

static int is_ignored(const struct sigaction *action) { return action->sa_handler == SIG_IGN; }

/// The last processor fault an earlier handler returned from on this thread (initial-
/// exec TLS: no allocation, safe in a handler), to tell a fault it fixed — the
/// instruction then succeeds — from one it did not: the same instruction faulting on
/// the same address at once.
static __thread __attribute__((tls_model("initial-exec"))) struct {
    int number;
    void *address;
    unsigned long instruction;
    long long nanoseconds;
} last_fault;

static long long monotonic_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/// The faulting instruction's address, where the platform's context says it.
static unsigned long instruction_address(void *context) {
    if (context == NULL) return 0;
#if defined(__x86_64__)
    return (unsigned long)((ucontext_t *)context)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (unsigned long)((ucontext_t *)context)->uc_mcontext.pc;
#else
    return 0;
#endif
}

/// What became of a fatal signal once the disposition before ours had its say.
enum outcome {
    /// An earlier handler recovered: the process goes on; nothing is recorded.
    RECOVERED,
    /// The process dies of the signal: record it, then let the default disposition act.
    DIES,
    /// abort() is under way and ends the process itself once handlers return: record
    /// it and return (a SIGABRT sent and handled would otherwise be made fatal).
    ABORTING,
};

/// Runs the disposition that was there before ours — an earlier handler first: it may
/// recover (jump out, or fix the fault and return) — and says what happens next.
static enum outcome run_earlier_disposition(int number, siginfo_t *info, void *context, int processor_fault) {
    struct sigaction *previous = &previous_actions[signal_index(number)];
    if (is_default(previous)) return DIES;
    // Ignoring does not save a process from a fault, nor from abort().
    if (is_ignored(previous)) return processor_fault ? DIES : (number == SIGABRT ? ABORTING : RECOVERED);
    if (processor_fault) {
        void *address = info != NULL ? info->si_addr : NULL;
        unsigned long instruction = instruction_address(context);
        // The same fault straight after the earlier handler returned: it did not fix it.
        if (last_fault.number == number && last_fault.address == address && last_fault.instruction == instruction
            && monotonic_nanoseconds() - last_fault.nanoseconds < 10000000LL) {
            return DIES;
        }
        last_fault.number = 0;
    }
    struct sigaction handler = *previous;
    // A one-shot handler (SA_RESETHAND) would have left the default in place: so do we.
    if (handler.sa_flags & SA_RESETHAND) {
        memset(previous, 0, sizeof(*previous));
        previous->sa_handler = SIG_DFL;
    }
    if (handler.sa_flags & SA_SIGINFO) {
        handler.sa_sigaction(number, info, context);
    } else {
        handler.sa_handler(number);
    }
    // It returned.
    if (processor_fault) {
        last_fault.number = number;
        last_fault.address = info != NULL ? info->si_addr : NULL;
        last_fault.instruction = instruction_address(context);
        last_fault.nanoseconds = monotonic_nanoseconds();
    }
    // It leaves the process to die when it set the default disposition (the fault
    // happens again, or the signal it sent itself is pending), or abort() goes on.
    struct sigaction now;
    if (sigaction(number, NULL, &now) == 0 && is_default(&now)) return DIES;
    sigset_t pending;
    if (sigpending(&pending) == 0 && sigismember(&pending, number) == 1) return DIES;
    if (number == SIGABRT) return ABORTING;
    return RECOVERED;
}

/// Appends `autotrack-survived <time ms> <pid>` to `descriptor`: the process was
/// alive after its records so far, which the next launch does not report as crashes.
static void write_survival_note(int descriptor) {
    if (descriptor < 0) return;
    char line[96];
    int length = 0;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    append_text(line, &length, (int)sizeof(line) - 1, "autotrack-survived ");
    append_number(line, &length, (int)sizeof(line) - 1, (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000);
    append_text(line, &length, (int)sizeof(line) - 1, " ");
    append_number(line, &length, (int)sizeof(line) - 1, (long long)getpid());
    line[length++] = '\n';
    if (write(descriptor, line, (size_t)length) == length) fsync(descriptor);
}

static void handle_fatal_signal(int number, siginfo_t *info, void *context) {
    // A fault the processor raised (si_code > 0) happens again when the handler
    // returns; a signal sent by a process or by abort() does not.
    int processor_fault = info != NULL && info->si_code > 0 && number != SIGABRT;
    // The record first: an earlier handler may end the process itself (a sanitizer's,
    // a crash reporter that exits).
    long long started = monotonic_nanoseconds();
    int recording = handling_since == 0 || started - handling_since > 1000000000LL;
    if (recording) {
        handling_since = started;
        write_record("autotrack-crash", signal_name(number));
    }
    __atomic_store_n(&earlier_handler_since, started, __ATOMIC_RELEASE);
    enum outcome outcome = run_earlier_disposition(number, info, context, processor_fault);
    __atomic_store_n(&earlier_handler_since, 0, __ATOMIC_RELEASE);
    if (outcome == RECOVERED) {
        // The earlier handler fixed it: no crash. A note says so (appended, never
        // cutting the file another thread may be writing). One that recovers by
        // jumping out never comes back here: the tracker still running notes it.
        if (recording) {
            write_survival_note(__atomic_load_n(&crash_descriptor, __ATOMIC_ACQUIRE));
            handling_since = 0;
        }
        return;
    }
    if (outcome == ABORTING) {
        handling_since = 0;
        return;
    }
    // The default disposition takes it: the fault again, or the signal sent again.
    struct sigaction fallback;
    memset(&fallback, 0, sizeof(fallback));
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(number, &fallback, NULL);
    if (processor_fault) return;
    raise(number);
}

int autotrack_crash_capture_note_alive(int descriptor) {
    long long since = __atomic_load_n(&earlier_handler_since, __ATOMIC_ACQUIRE);
    // A handler running an earlier one may be on its way to the process's end; one
    // left more than ten seconds ago was left by a jump.
    if (since != 0 && monotonic_nanoseconds() - since < 10000000000LL) return -1;
    write_survival_note(descriptor);
    return 0;
}

/// An alternate stack for the installing thread, so a stack overflow there is still
/// recorded (the handler cannot run on the exhausted stack).
static void prepare_alternate_stack(void) {
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE) && current.ss_sp != NULL) return;
    static char alternate_stack[64 * 1024];
    stack_t stack;
    stack.ss_sp = alternate_stack;
    stack.ss_size = sizeof(alternate_stack);
    stack.ss_flags = 0;
    sigaltstack(&stack, NULL);
}

static int install_locked(int descriptor) {
    int installed = __atomic_load_n(&crash_descriptor, __ATOMIC_ACQUIRE);
    if (installed >= 0) {
        // Installed already: the new file takes the installed descriptor's number
        // (dup2 swaps it at once for a handler writing now) and the new descriptor is
        // closed — a process starting many trackers holds one.
        if (descriptor != installed) {
            if (dup2(descriptor, installed) < 0) return -1;
            close(descriptor);
        }
        return 0;
    }
    __atomic_store_n(&crash_descriptor, descriptor, __ATOMIC_RELEASE);
    prepare_alternate_stack();
    for (int index = 0; index < FATAL_SIGNAL_COUNT; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof(action));
        action.sa_sigaction = handle_fatal_signal;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        if (sigaction(fatal_signals[index], &action, &previous_actions[index]) != 0) return -1;
    }
    return 0;
}

int autotrack_crash_capture_install(int descriptor) {
    pthread_mutex_lock(&install_lock);
    int result = install_locked(descriptor);
    pthread_mutex_unlock(&install_lock);
    return result;
}

int autotrack_crash_capture_record(const char *reason) {
    return write_record("autotrack-reported", reason != NULL ? reason : "uncaught error");
}
