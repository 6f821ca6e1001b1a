/* objc4's fast forwarding for every send native code makes. GNUstep Base on GCC's
   runtime asks -forwardingTargetForSelector: only for selectors without type
   information never forwarded the slow way, so compiled code sending a typed selector
   to an object that forwards by the fast path alone (RxCocoa's delegate proxies, many
   SDKs' proxies) gets an exception instead of reaching the target (the backend's fourth
   pinned difference). atr_installFastForwarding() puts a forwarding hook in front of
   GNUstep's: it asks the receiver's -forwardingTargetForSelector: first, as objc4 does,
   and for a target answers a trampoline — a libffi closure for the message's encoding —
   that sends the message on to the target with the caller's arguments. Anything else
   goes to GNUstep's hook, which forwards the slow way. */
#import <Foundation/Foundation.h>
#include <objc/message.h>
#include <objc/runtime.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "CObjCRuntimeBridge.h"
#include "GNURuntime.h"

enum { MAX_TRAMPOLINE_ARGUMENTS = 16 };

typedef struct Trampoline {
    char *types;
    ffi_closure *closure;
    void *entry;
    ffi_cif cif;
    ffi_type *argumentTypes[MAX_TRAMPOLINE_ARGUMENTS];
    struct Trampoline *next;
} Trampoline;

static Trampoline *trampolines = NULL;
static pthread_mutex_t trampolinesLock = PTHREAD_MUTEX_INITIALIZER;
static IMP (*gnustepForward)(id, SEL) = NULL;
/* The target the trampoline just returned is to send to: set by the hook, read once by
   the trampoline the caller calls next, on the same thread. */
static __thread id pendingTarget = nil;

static void trampoline_entry(ffi_cif *cif, void *returnValue, void **arguments, void *userData) {
    (void)userData;
    id target = pendingTarget;
    pendingTarget = nil;
    SEL selector = *(SEL *)arguments[1];
    void *values[MAX_TRAMPOLINE_ARGUMENTS];
    for (unsigned index = 0; index < cif->nargs && index < MAX_TRAMPOLINE_ARGUMENTS; index++) values[index] = arguments[index];
    values[0] = &target;
    IMP imp = atr_lookUp(target, selector);
    ffi_call(cif, (void (*)(void))imp, returnValue, values);
}

/* The trampoline for `types`, made once per encoding; NULL when libffi cannot pass it. */
static IMP trampolineFor(const char *types) {
    pthread_mutex_lock(&trampolinesLock);
    Trampoline *found = trampolines;
    while (found != NULL && strcmp(found->types, types) != 0) found = found->next;
    if (found == NULL) {
        Trampoline *made = calloc(1, sizeof(Trampoline));
        if (made != NULL && atr_prepareCif(types, &made->cif, made->argumentTypes, MAX_TRAMPOLINE_ARGUMENTS)
            && (made->closure = ffi_closure_alloc(sizeof(ffi_closure), &made->entry)) != NULL
            && ffi_prep_closure_loc(made->closure, &made->cif, trampoline_entry, made, made->entry) == FFI_OK) {
            made->types = strdup(types);
            made->next = trampolines;
            trampolines = made;
            found = made;
        } else if (made != NULL) {
            if (made->closure) ffi_closure_free(made->closure);
            free(made);
        }
    }
    pthread_mutex_unlock(&trampolinesLock);
    return found ? (IMP)found->entry : NULL;
}

/* The encoding of `selector` as sent: the typed selector's, else the target's method's. */
static const char *typesOf(SEL selector, id target) {
    const char *types = sel_getTypeEncoding(selector);
    if (types != NULL && *types != 0) return types;
    Method method = class_getInstanceMethod(object_getClass(target), selector);
    return method ? method_getTypeEncoding(method) : NULL;
}

static IMP fastForward(id receiver, SEL selector) {
    static SEL forwardingTarget = NULL;
    if (forwardingTarget == NULL) forwardingTarget = sel_registerName("forwardingTargetForSelector:");
    if (receiver != nil && !sel_isEqual(selector, forwardingTarget)
        && class_respondsToSelector(object_getClass(receiver), forwardingTarget)) {
        id target = ((id (*)(id, SEL, SEL))atr_lookUp(receiver, forwardingTarget))(receiver, forwardingTarget, selector);
        const char *types = target != nil && target != receiver ? typesOf(selector, target) : NULL;
        IMP trampoline = types ? trampolineFor(types) : NULL;
        if (trampoline != NULL) {
            pendingTarget = target;
            return trampoline;
        }
    }
    return gnustepForward ? gnustepForward(receiver, selector) : NULL;
}

static pthread_once_t installed = PTHREAD_ONCE_INIT;
static void install(void) {
    gnustepForward = __objc_msg_forward2;
    __objc_msg_forward2 = fastForward;
}

void atr_installFastForwarding(void) { pthread_once(&installed, install); }
