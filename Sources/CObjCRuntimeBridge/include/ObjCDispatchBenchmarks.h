/* The real runtime's dispatch benchmarks: message loops in C, sent as compiled code
   sends them (Benchmarks.m). */
#ifndef AUTOTRACK_OBJC_DISPATCH_BENCHMARKS_H
#define AUTOTRACK_OBJC_DISPATCH_BENCHMARKS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The dispatch situations atr_benchmarkSend measures. */
enum {
    /** A plain cached send. */
    ATR_BENCH_PLAIN = 0,
    /** A send through a method whose implementation was exchanged. */
    ATR_BENCH_EXCHANGED = 1,
    /** A send to an object isa-swizzled to a generated subclass. */
    ATR_BENCH_SUBCLASSED = 2,
    /** A send forwarded by `forwardingTargetForSelector:`. */
    ATR_BENCH_FORWARDING_TARGET = 3,
    /** A send forwarded by `methodSignatureForSelector:` and `forwardInvocation:`. */
    ATR_BENCH_FORWARD_INVOCATION = 4,
    /** A method wrapped by an exchange-style hook with tracking off. */
    ATR_BENCH_EXCHANGE_HOOK = 5,
    /** An object under a dynamic-subclass hook (tracking off) that calls super through
        a call site's cache (atr_cachedSuperImplementation). */
    ATR_BENCH_SUBCLASS_HOOK = 6,
    /** A forwarding proxy standing in for an object (tracking off): it implements the
        hooked method, checks tracking and sends it on to the object it stands for;
        anything else it forwards (`forwardingTargetForSelector:`). */
    ATR_BENCH_PROXY_HOOK = 7,
    /** The dynamic-subclass hook whose override looks its super implementation up in
        full on each call (objc_msg_lookup_super), as `[super …]` compiles for GCC's
        runtime, beside ATR_BENCH_SUBCLASS_HOOK's cached lookup. */
    ATR_BENCH_UNCACHED_SUBCLASS_HOOK = 8,
    /** A wrapper that only jumps to the original: the least any wrapping hook adds (one
        call and one jump), beside which the hook rows are read. */
    ATR_BENCH_EMPTY_WRAPPER = 9,
    /** How many situations there are. */
    ATR_BENCH_KINDS = 10
};

/** Makes the benchmark's classes and objects (once). */
bool atr_benchmarkSetUp(void);
/** Sends the benchmark message `count` times in situation `kind`: the sum of the
    results (each send returns 1), or -1 for an unknown kind. */
intptr_t atr_benchmarkSend(int kind, intptr_t count);

#ifdef __cplusplus
}
#endif

#endif
