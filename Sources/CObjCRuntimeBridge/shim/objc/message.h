/* GCC's <objc/message.h>, plus objc4's message sends, which GCC's runtime lacks: the
   process running a host on the real runtime defines them (NativeMessageSend.m; x86-64,
   not for methods returning structures in memory). As objc4 declares them, cast to the
   method's type to call: ((id (*)(id, SEL, id))objc_msgSend)(object, selector, argument).
   GCC's struct objc_super names its fields self and super_class (objc4: receiver and
   super_class); initialise it by position. A system header, as objc4's is: the compiler
   knows these functions as builtins with variadic types. */
#pragma GCC system_header
#include_next <objc/message.h>

#ifndef AUTOTRACK_OBJC_MESSAGE_SENDS
#define AUTOTRACK_OBJC_MESSAGE_SENDS
void objc_msgSend(void);
void objc_msgSendSuper(void);

/* Not in objc4: a super send's IMP cached at its call site (NativeSuperCache.m). GCC's
   runtime looks `[super message]` up in full on every call; a dynamic subclass's
   override that calls super through this pays a few loads instead, and the cache
   refills after any method change (set, exchange, add, replace, a class registered or
   a library loaded). Give each call site its own zeroed static cache:

       static atr_super_cache cache;
       IMP original = atr_cachedSuperImplementation(&cache, self, superclass, _cmd);
       ((void (*)(id, SEL, id))original)(self, _cmd, argument);

   A method the superclass lacks answers the receiver's forwarding, as objc_msgSendSuper
   does, and is not cached; a nil receiver answers objc_msgSend, which returns zero in
   every result register (a method returning a structure in memory must check for nil
   itself, as with objc_msgSend_stret). On objc4, use objc_msgSendSuper or
   `[super message]`.
   atr_cachedImplementation below does the same for an ordinary send. */
typedef struct atr_super_cache {
    unsigned long sequence;
    unsigned long generation;
    void *superclass;
    void *selector;
    void *implementation;
} atr_super_cache;

/* The method generation the caches check, and the slow path that looks up and fills a
   cache; the process running a host defines both. */
extern unsigned long atr_superCacheGeneration;
IMP atr_fillSuperCache(atr_super_cache *cache, id receiver, Class superclass, SEL selector);

/* Inline, so that a hit costs a few loads from the cache's line and no call: a sequence
   lock, so a reader never takes one fill's class with another's implementation. */
static inline IMP atr_cachedSuperImplementation(atr_super_cache *cache, id receiver, Class superclass, SEL selector) {
    unsigned long sequence = __atomic_load_n(&cache->sequence, __ATOMIC_ACQUIRE);
    void *cachedClass = __atomic_load_n(&cache->superclass, __ATOMIC_RELAXED);
    void *cachedSelector = __atomic_load_n(&cache->selector, __ATOMIC_RELAXED);
    void *implementation = __atomic_load_n(&cache->implementation, __ATOMIC_RELAXED);
    unsigned long generation = __atomic_load_n(&cache->generation, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__builtin_expect((sequence & 1) == 0 && __atomic_load_n(&cache->sequence, __ATOMIC_RELAXED) == sequence
                             && generation == __atomic_load_n(&atr_superCacheGeneration, __ATOMIC_ACQUIRE)
                             && cachedClass == (void *)superclass && cachedSelector == (void *)selector
                             && receiver != nil,
                         1)) {
        return (IMP)implementation;
    }
    return atr_fillSuperCache(cache, receiver, superclass, selector);
}

/* A send's IMP cached the same way, keyed by the receiver's class: for a proxy that
   sends each hooked message on to the object it stands for. The same cache type; one
   per call site. */
static inline IMP atr_cachedImplementation(atr_super_cache *cache, id receiver, SEL selector) {
    if (receiver == nil) return (IMP)(void (*)(void))objc_msgSend;
    /* An object's first word is its class (object_getClass, without its header). */
    return atr_cachedSuperImplementation(cache, receiver, *(Class const *)(void *)receiver, selector);
}
#endif
