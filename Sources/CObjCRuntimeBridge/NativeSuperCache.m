/* A super send's implementation, cached at its call site until a method changes.

   GCC's runtime compiles `[super message]` as objc_msg_lookup_super: a second full
   dispatch-table lookup on every call, which doubles the cost of a dynamic subclass's
   override that only checks a flag and calls super. objc4 caches super lookups; here a
   call site keeps the IMP it found with the method generation it found it in, and uses
   it while the generation holds.

   The generation advances after every change that can alter what a lookup answers:
   method_setImplementation and method_exchangeImplementations (NativeMethodChanges.m,
   and the backend's own changes in Runtime.m), class_addMethod, class_replaceMethod,
   class registration and disposal (a disposed class's address can come back as another
   class), and the loading of a module (its categories add and replace methods). The
   definitions below are exported by the executable, so they interpose libobjc's for
   every library, GNUstep Base's categories included. A change is published before the
   generation moves, so a call site that reads the new generation finds the new IMP;
   one that read the old generation refills on its next call.

   A call site's cache is a sequence lock over four words: a reader that sees the
   sequence change under it, or a writer in progress, takes the lookup instead; a writer
   that cannot take the lock leaves the cache as it is. Nothing is allocated, so a call
   site shared by several classes (one override installed on many dynamic subclasses)
   refills on each change of class and never grows. */
#import <Foundation/Foundation.h>
#include <dlfcn.h>
#include <objc/message.h>
#include <objc/runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include "GNURuntime.h"

/* Starts at 1 so that a zeroed cache (generation 0) never matches. */
unsigned long atr_superCacheGeneration = 1;

void atr_noteMethodsChanged(void) { __atomic_add_fetch(&atr_superCacheGeneration, 1, __ATOMIC_SEQ_CST); }

unsigned long atr_methodGeneration(void) { return __atomic_load_n(&atr_superCacheGeneration, __ATOMIC_ACQUIRE); }

void *atr_libobjcFunction(void **slot, const char *name) {
    void *function = __atomic_load_n(slot, __ATOMIC_RELAXED);
    if (function != NULL) return function;
    function = dlsym(RTLD_NEXT, name);
    if (function == NULL) {
        fprintf(stderr, "autotrack: libobjc has no %s (%s); the runtime cannot be interposed\n", name, dlerror());
        abort();
    }
    __atomic_store_n(slot, function, __ATOMIC_RELAXED);
    return function;
}

/* A miss of atr_cachedSuperImplementation (<objc/message.h>, inline): looks up and,
   unless another thread is filling the cache, fills it. */
IMP atr_fillSuperCache(atr_super_cache *cache, id receiver, Class superclass, SEL selector) {
    struct objc_super above = {receiver, superclass};
    struct objc_super *super = &above;
    if (receiver == nil) return (IMP)(void (*)(void))objc_msgSend;
    unsigned long sequence = __atomic_load_n(&cache->sequence, __ATOMIC_RELAXED);
    /* The generation is read before the lookup: a change that lands during it moves the
       generation past the one stored, and the next call looks up again. */
    unsigned long generation = atr_methodGeneration();
    if (!class_respondsToSelector(super->super_class, selector)) {
        /* The receiver's forwarding, which depends on the receiver: never cached. */
        return atr_superSendImplementation(super, selector);
    }
    IMP found = objc_msg_lookup_super(super, selector);
    if ((sequence & 1) == 0
        && __atomic_compare_exchange_n(&cache->sequence, &sequence, sequence + 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
        /* A reader that sees any store below sees the odd sequence on its second read. */
        __atomic_thread_fence(__ATOMIC_RELEASE);
        __atomic_store_n(&cache->generation, generation, __ATOMIC_RELAXED);
        __atomic_store_n(&cache->superclass, (void *)super->super_class, __ATOMIC_RELAXED);
        __atomic_store_n(&cache->selector, (void *)selector, __ATOMIC_RELAXED);
        __atomic_store_n(&cache->implementation, (void *)found, __ATOMIC_RELAXED);
        __atomic_store_n(&cache->sequence, sequence + 2, __ATOMIC_RELEASE);
    }
    return found;
}

/* libobjc's definitions, past the ones below. */
static void *libobjcAddMethod, *libobjcReplaceMethod, *libobjcRegisterClassPair, *libobjcDisposeClassPair, *libobjcExecClass;

BOOL class_addMethod(Class cls, SEL selector, IMP implementation, const char *types) {
    BOOL (*libobjc)(Class, SEL, IMP, const char *) = atr_libobjcFunction(&libobjcAddMethod, "class_addMethod");
    BOOL added = libobjc(cls, selector, implementation, types);
    if (added) atr_noteMethodsChanged();
    return added;
}

IMP class_replaceMethod(Class cls, SEL selector, IMP implementation, const char *types) {
    IMP (*libobjc)(Class, SEL, IMP, const char *) = atr_libobjcFunction(&libobjcReplaceMethod, "class_replaceMethod");
    IMP previous = libobjc(cls, selector, implementation, types);
    atr_noteMethodsChanged();
    return previous;
}

void objc_registerClassPair(Class cls) {
    void (*libobjc)(Class) = atr_libobjcFunction(&libobjcRegisterClassPair, "objc_registerClassPair");
    libobjc(cls);
    atr_noteMethodsChanged();
}

void objc_disposeClassPair(Class cls) {
    void (*libobjc)(Class) = atr_libobjcFunction(&libobjcDisposeClassPair, "objc_disposeClassPair");
    atr_noteMethodsChanged();
    libobjc(cls);
    atr_noteMethodsChanged();
}

/* What a module's constructor calls when a library with Objective-C code loads: its
   classes register and its categories add or replace methods. */
struct objc_module;
void __objc_exec_class(struct objc_module *module) {
    void (*libobjc)(struct objc_module *) = atr_libobjcFunction(&libobjcExecClass, "__objc_exec_class");
    libobjc(module);
    atr_noteMethodsChanged();
}
