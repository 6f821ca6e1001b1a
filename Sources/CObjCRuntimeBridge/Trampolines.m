/* Trampolines: distinct IMPs that hand their call to one Swift handler with their slot
   number, so every installation of a hook (each wrapped class) gets its own IMP and
   knows which one it is — what imp_implementationWithBlock gives on objc4, which GCC's
   runtime lacks. One signature: the receiver, the selector and up to four integer or
   pointer arguments, returning an integer or pointer (ignored by callers of `void`
   methods) (`tableView:didSelectRowAtIndexPath:`,
   `addObserver:forKeyPath:options:context:` …); arguments a method does not take are
   whatever the registers hold, and are passed on unchanged. */
#include "CObjCRuntimeBridge.h"

static ATTrampolineHandler handler = 0;

void atr_setTrampolineHandler(ATTrampolineHandler newHandler) { handler = newHandler; }

#define TRAMPOLINE(n) \
    static uintptr_t trampoline_##n(ATObjectRef self, ATSelectorRef _cmd, uintptr_t a, uintptr_t b, uintptr_t c, uintptr_t d) { \
        return handler ? handler(n, self, _cmd, a, b, c, d) : 0; \
    }

TRAMPOLINE(0) TRAMPOLINE(1) TRAMPOLINE(2) TRAMPOLINE(3) TRAMPOLINE(4) TRAMPOLINE(5) TRAMPOLINE(6) TRAMPOLINE(7)
TRAMPOLINE(8) TRAMPOLINE(9) TRAMPOLINE(10) TRAMPOLINE(11) TRAMPOLINE(12) TRAMPOLINE(13) TRAMPOLINE(14) TRAMPOLINE(15)
TRAMPOLINE(16) TRAMPOLINE(17) TRAMPOLINE(18) TRAMPOLINE(19) TRAMPOLINE(20) TRAMPOLINE(21) TRAMPOLINE(22) TRAMPOLINE(23)
TRAMPOLINE(24) TRAMPOLINE(25) TRAMPOLINE(26) TRAMPOLINE(27) TRAMPOLINE(28) TRAMPOLINE(29) TRAMPOLINE(30) TRAMPOLINE(31)

static const ATImplementation trampolines[ATR_TRAMPOLINES] = {
    (ATImplementation)trampoline_0, (ATImplementation)trampoline_1, (ATImplementation)trampoline_2, (ATImplementation)trampoline_3, (ATImplementation)trampoline_4, (ATImplementation)trampoline_5, (ATImplementation)trampoline_6, (ATImplementation)trampoline_7,
    (ATImplementation)trampoline_8, (ATImplementation)trampoline_9, (ATImplementation)trampoline_10, (ATImplementation)trampoline_11, (ATImplementation)trampoline_12, (ATImplementation)trampoline_13, (ATImplementation)trampoline_14, (ATImplementation)trampoline_15,
    (ATImplementation)trampoline_16, (ATImplementation)trampoline_17, (ATImplementation)trampoline_18, (ATImplementation)trampoline_19, (ATImplementation)trampoline_20, (ATImplementation)trampoline_21, (ATImplementation)trampoline_22, (ATImplementation)trampoline_23,
    (ATImplementation)trampoline_24, (ATImplementation)trampoline_25, (ATImplementation)trampoline_26, (ATImplementation)trampoline_27, (ATImplementation)trampoline_28, (ATImplementation)trampoline_29, (ATImplementation)trampoline_30, (ATImplementation)trampoline_31,
};

ATImplementation atr_trampoline(int slot) { return slot >= 0 && slot < ATR_TRAMPOLINES ? trampolines[slot] : NULL; }
