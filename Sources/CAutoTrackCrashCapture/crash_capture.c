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

static void handle_fatal_signal(int number, siginfo_t *info, void *context) {
    (void)context;
    if (!handling) {
        handling = 1;
        write_record(signal_name(number));
    }
    // The earlier disposition runs now, with the real fault: restore it, then for a
    // fault the processor raised (si_code > 0) return, so the instruction faults again
    // and the earlier handler sees the genuine report; a signal sent by a process or
    // by abort() is sent again.
    for (int index = 0; index < FATAL_SIGNAL_COUNT; index++) {
        if (fatal_signals[index] == number) {
            sigaction(number, &previous_actions[index], NULL);
            break;
        }
    }
    if (info != NULL && info->si_code > 0 && number != SIGABRT) return;
    raise(number);
}

int autotrack_crash_capture_install(int descriptor) {
    int already = crash_descriptor >= 0;
    crash_descriptor = descriptor;
    if (already) return 0;
    for (int index = 0; index < FATAL_SIGNAL_COUNT; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof(action));
        action.sa_sigaction = handle_fatal_signal;
        action.sa_flags = SA_SIGINFO | SA_RESETHAND;
        sigemptyset(&action.sa_mask);
        if (sigaction(fatal_signals[index], &action, &previous_actions[index]) != 0) return -1;
    }
    return 0;
}

int autotrack_crash_capture_record(const char *reason) {
    return write_record(reason != NULL ? reason : "uncaught error");
}
