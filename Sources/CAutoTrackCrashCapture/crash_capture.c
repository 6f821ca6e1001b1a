#include "CAutoTrackCrashCapture.h"

#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile int crash_descriptor = -1;
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
#define FATAL_SIGNAL_COUNT ((int)(sizeof(fatal_signals) / sizeof(fatal_signals[0])))
static struct sigaction previous_actions[FATAL_SIGNAL_COUNT];
static volatile sig_atomic_t handling = 0;

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

/// One record: `autotrack-crash <time ms> <reason>\n`, the reason cut at 200 bytes
/// and kept to one line.
static int write_record(const char *reason) {
    int descriptor = crash_descriptor;
    if (descriptor < 0) return -1;
    char line[256];
    int length = 0;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    append_text(line, &length, (int)sizeof(line) - 1, "autotrack-crash ");
    append_number(line, &length, (int)sizeof(line) - 1, (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000);
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

static int is_default(const struct sigaction *action) {
    return !(action->sa_flags & SA_SIGINFO) && action->sa_handler == SIG_DFL;
}

static int is_ignored(const struct sigaction *action) {
    return !(action->sa_flags & SA_SIGINFO) && action->sa_handler == SIG_IGN;
}

/// The last processor fault an earlier handler returned from, to tell a fault it
/// fixed (the instruction then succeeds) from one it did not (the same fault at once).
static volatile sig_atomic_t last_fault_signal = 0;
static void *volatile last_fault_address = NULL;
static volatile long long last_fault_nanoseconds = 0;

static long long monotonic_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/// Runs the disposition that was there before ours: an earlier handler first — it
/// may recover (jump out, or fix the fault and return) — and says whether the
/// process is now going to die of the signal.
static int earlier_disposition_lets_it_kill(int number, siginfo_t *info, void *context, int processor_fault) {
    struct sigaction *previous = &previous_actions[signal_index(number)];
    if (is_default(previous)) return 1;
    // Ignoring does not save a process from a fault, nor from abort().
    if (is_ignored(previous)) return processor_fault || number == SIGABRT;
    if (processor_fault) {
        void *address = info != NULL ? info->si_addr : NULL;
        long long now = monotonic_nanoseconds();
        // The same fault straight after the earlier handler returned: it did not fix it.
        if (last_fault_signal == number && last_fault_address == address && now - last_fault_nanoseconds < 10000000LL) return 1;
        last_fault_signal = number;
        last_fault_address = address;
        last_fault_nanoseconds = now;
    }
    if (previous->sa_flags & SA_SIGINFO) {
        previous->sa_sigaction(number, info, context);
    } else {
        previous->sa_handler(number);
    }
    if (processor_fault) last_fault_nanoseconds = monotonic_nanoseconds();
    // It returned. It leaves the process to die when it set the default disposition
    // (the fault happens again, or the signal it sent itself is pending), or when
    // abort() is under way (it ends the process once handlers return).
    struct sigaction now;
    if (sigaction(number, NULL, &now) == 0 && is_default(&now)) return 1;
    sigset_t pending;
    if (sigpending(&pending) == 0 && sigismember(&pending, number) == 1) return 1;
    return number == SIGABRT;
}

static void handle_fatal_signal(int number, siginfo_t *info, void *context) {
    // A fault the processor raised (si_code > 0) happens again when the handler
    // returns; a signal sent by a process or by abort() does not.
    int processor_fault = info != NULL && info->si_code > 0 && number != SIGABRT;
    if (!earlier_disposition_lets_it_kill(number, info, context, processor_fault)) return;
    // The process dies of it now: the record first, once, then the default
    // disposition takes it (the fault again, or the signal sent again).
    if (!handling) {
        handling = 1;
        write_record(signal_name(number));
    }
    struct sigaction fallback;
    memset(&fallback, 0, sizeof(fallback));
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(number, &fallback, NULL);
    if (processor_fault) return;
    raise(number);
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

int autotrack_crash_capture_install(int descriptor) {
    int already = crash_descriptor >= 0;
    crash_descriptor = descriptor;
    if (already) return 0;
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

int autotrack_crash_capture_record(const char *reason) {
    return write_record(reason != NULL ? reason : "uncaught error");
}
