/* What is specific to GCC's Objective-C runtime, in one place. Everything else in the
   bridge uses Apple's <objc/runtime.h> API, which GCC's runtime shares.

   - Message lookup: GCC's runtime resolves a send with objc_msg_lookup (then calls the
     IMP); objc4 uses objc_msgSend. atr_lookUp is the one call site.
   - Super lookup: objc_msg_lookup_super (objc4: objc_msgSendSuper2).
   - Dispatch-table refresh after an implementation change
     (__objc_update_dispatch_table_for_class; objc4 flushes its method caches itself).
   - The forwarding hooks __objc_msg_forward2 / __objc_msg_forward (objc4:
     _objc_msgForward).
   The associated-object side table is in Swift (AutoTrackObjCBackend). */
#ifndef AUTOTRACK_GNU_RUNTIME_H
#define AUTOTRACK_GNU_RUNTIME_H

#include <objc/message.h>
#include <objc/runtime.h>

/* The IMP a send of `selector` to `receiver` runs. */
static inline IMP atr_lookUp(id receiver, SEL selector) { return objc_msg_lookup(receiver, selector); }

/* The IMP `[super selector]` runs when the superclass implements it. */
static inline IMP atr_lookUpSuperImplemented(id receiver, Class superclass, SEL selector) {
    struct objc_super target = {receiver, superclass};
    return objc_msg_lookup_super(&target, selector);
}

/* The forwarding IMP for `selector` sent to `receiver`. */
static inline IMP atr_forwardingImplementation(id receiver, SEL selector) {
    IMP forward = __objc_msg_forward2 ? __objc_msg_forward2(receiver, selector) : NULL;
    if (forward == NULL && __objc_msg_forward) forward = __objc_msg_forward(selector);
    return forward;
}

/* Rebuilds `cls`'s dispatch table and its subclasses'. */
extern void __objc_update_dispatch_table_for_class(Class);
static inline void atr_refreshDispatchTables(Class cls) { __objc_update_dispatch_table_for_class(cls); }

/* Prepares `cif` for a method of type encoding `types` (return type, then self, _cmd and
   each argument), its argument types in `argumentTypes` (at most `capacity`); false for
   an encoding closures cannot pass (a struct by value). Closures.m. */
#include <ffi.h>
#include <stdbool.h>
bool atr_prepareCif(const char *types, ffi_cif *cif, ffi_type **argumentTypes, int capacity);

/* libobjc's own method_setImplementation and method_exchangeImplementations, past the
   process-wide ones of NativeMethodChanges.m. */
IMP atr_libobjcSetImplementation(Method method, IMP implementation);
void atr_libobjcExchangeImplementations(Method first, Method second);
/* The same changes written in place under the runtime's lock, for a caller that then
   rebuilds the owners' dispatch tables (NativeMethodChanges.m). */
IMP atr_writeImplementation(Method method, IMP implementation);
void atr_swapImplementations(Method first, Method second);

/* The method generation (NativeSuperCache.m): advanced after every change that can alter
   a lookup's answer, once that change is visible in every dispatch table it reaches. */
void atr_noteMethodsChanged(void);
unsigned long atr_methodGeneration(void);
/* libobjc's definition of `name`, past the process-wide one, found once and kept in
   `slot`; aborts with a message when libobjc has none. */
void *atr_libobjcFunction(void **slot, const char *name);
/* The IMP objc_msgSendSuper jumps to (NativeMessageSend.m). */
IMP atr_superSendImplementation(struct objc_super *super, SEL selector);

#endif
