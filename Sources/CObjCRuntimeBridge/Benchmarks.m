/* Message loops on the real runtime for `autotrack bench`: each dispatch situation a
   hook creates, sent the way compiled code sends (objc_msg_lookup, then the call). */
#import <Foundation/Foundation.h>
#include <objc/message.h>
#include <pthread.h>
#include <objc/runtime.h>
#include "CObjCRuntimeBridge.h"
#include "GNURuntime.h"

static intptr_t one(id self, SEL _cmd) { return 1; }

/* A hook's wrapper: tracking is checked (off while measuring, as the disabled-tracking
   rows of the model's benchmark), then the original runs. The flag is a global no code
   here writes but the compiler cannot prove so, as a hook's switch is: every call loads it. */
__attribute__((visibility("hidden"))) bool atr_benchmarkTrackingOn = false;
#define trackingOn atr_benchmarkTrackingOn
static intptr_t recorded = 0;
static IMP exchangedOriginal = NULL;

static intptr_t exchangeHookWrapper(id self, SEL _cmd) {
    if (__atomic_load_n(&trackingOn, __ATOMIC_RELAXED)) __atomic_fetch_add(&recorded, 1, __ATOMIC_RELAXED);
    return ((intptr_t (*)(id, SEL))exchangedOriginal)(self, _cmd);
}

/* A wrapper with nothing to check, over its own copy of the method. */
static IMP emptyWrapperOriginal = NULL;

static intptr_t emptyWrapper(id self, SEL _cmd) { return ((intptr_t (*)(id, SEL))emptyWrapperOriginal)(self, _cmd); }

/* The generated subclass's superclass (the app's class), as a hook keeps it when it
   makes the subclass. */
static Class subclassHookSuperclass = Nil;

/* The generated subclass's override: tracking is checked, then the app's method runs
   through the call site's cached super implementation, as a hook written for this
   runtime calls super. */
static intptr_t subclassHookRun(id self, SEL _cmd) {
    if (__atomic_load_n(&trackingOn, __ATOMIC_RELAXED)) __atomic_fetch_add(&recorded, 1, __ATOMIC_RELAXED);
    static atr_super_cache cache;
    IMP super = atr_cachedSuperImplementation(&cache, self, subclassHookSuperclass, _cmd);
    return ((intptr_t (*)(id, SEL))super)(self, _cmd);
}

/* The same override with a super send as compiled code makes it for GCC's runtime
   (`[super autotrackBenchRun]` is objc_msg_lookup_super with the static superclass). */
static intptr_t uncachedSubclassHookRun(id self, SEL _cmd) {
    if (__atomic_load_n(&trackingOn, __ATOMIC_RELAXED)) __atomic_fetch_add(&recorded, 1, __ATOMIC_RELAXED);
    struct objc_super above = { self, subclassHookSuperclass };
    IMP super = objc_msg_lookup_super(&above, _cmd);
    return ((intptr_t (*)(id, SEL))super)(self, _cmd);
}

/* A forwarding proxy's own implementation of the hooked method: tracking is checked,
   then the method is sent on to the object the proxy stands for through the call site's
   cached send. */
static id proxiedTarget = nil;

static intptr_t proxyHookRun(id self, SEL _cmd) {
    if (__atomic_load_n(&trackingOn, __ATOMIC_RELAXED)) __atomic_fetch_add(&recorded, 1, __ATOMIC_RELAXED);
    static atr_super_cache cache;
    id target = proxiedTarget;
    IMP imp = atr_cachedImplementation(&cache, target, _cmd);
    return ((intptr_t (*)(id, SEL))imp)(target, _cmd);
}

static id proxyForwardTo(id self, SEL _cmd, SEL selector) { return proxiedTarget; }

static Class reportedClass = Nil;
static id reportOriginalClass(id self, SEL _cmd) { return reportedClass; }

static id forwardingTarget = nil;
static id forwardTo(id self, SEL _cmd, SEL selector) { return forwardingTarget; }
static id signatureFor(id self, SEL _cmd, SEL selector) { return [NSMethodSignature signatureWithObjCTypes:"q@:"]; }
static void forwardInvocationTo(id self, SEL _cmd, NSInvocation *invocation) { [invocation invokeWithTarget:forwardingTarget]; }

static id receivers[ATR_BENCH_KINDS];
static SEL run;
/* Fast forwarding has its own selector: once GNUstep has forwarded a selector the slow
   way, it never asks forwardingTargetForSelector: for that selector again. */
static SEL runForwarded;

static Class makeClass(const char *name, Class superclass) {
    Class cls = objc_allocateClassPair(superclass, name, 0);
    objc_registerClassPair(cls);
    return cls;
}

static void setUpOnce(void);

/* Once, whichever thread asks first: the others wait until every receiver exists. */
bool atr_benchmarkSetUp(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, setUpOnce);
    return true;
}

static void setUpOnce(void) {
    run = sel_registerName("autotrackBenchRun");
    runForwarded = sel_registerName("autotrackBenchRunForwarded");
    SEL other = sel_registerName("autotrackBenchOther");
    Class root = [NSObject class];

    Class target = makeClass("AutoTrackBenchTarget", root);
    class_addMethod(target, run, (IMP)one, "q@:");
    class_addMethod(target, runForwarded, (IMP)one, "q@:");
    receivers[ATR_BENCH_PLAIN] = [target new];
    forwardingTarget = receivers[ATR_BENCH_PLAIN];

    Class exchanged = makeClass("AutoTrackBenchExchanged", root);
    class_addMethod(exchanged, run, (IMP)one, "q@:");
    class_addMethod(exchanged, other, (IMP)one, "q@:");
    receivers[ATR_BENCH_EXCHANGED] = [exchanged new];
    atr_exchangeImplementations((ATClassRef)(void *)exchanged, (ATMethodRef)(void *)class_getInstanceMethod(exchanged, run),
                                (ATClassRef)(void *)exchanged, (ATMethodRef)(void *)class_getInstanceMethod(exchanged, other));

    /* A dynamic subclass whose -class reports the original, as KVO's and hooks' do. */
    receivers[ATR_BENCH_SUBCLASSED] = [target new];
    Class generated = makeClass("AutoTrackBenchTarget_Generated", target);
    reportedClass = target;
    class_addMethod(generated, @selector(class), (IMP)reportOriginalClass, "#@:");
    object_setClass(receivers[ATR_BENCH_SUBCLASSED], generated);

    Class fast = makeClass("AutoTrackBenchFastForwarder", root);
    class_addMethod(fast, @selector(forwardingTargetForSelector:), (IMP)forwardTo, "@@::");
    receivers[ATR_BENCH_FORWARDING_TARGET] = [fast new];

    Class slow = makeClass("AutoTrackBenchSlowForwarder", root);
    class_addMethod(slow, @selector(methodSignatureForSelector:), (IMP)signatureFor, "@@::");
    class_addMethod(slow, @selector(forwardInvocation:), (IMP)forwardInvocationTo, "v@:@");
    receivers[ATR_BENCH_FORWARD_INVOCATION] = [slow new];

    /* Hooks, tracking off: an exchange-style wrapper, and a dynamic subclass calling super. */
    Class hookedByExchange = makeClass("AutoTrackBenchHookedByExchange", root);
    class_addMethod(hookedByExchange, run, (IMP)one, "q@:");
    exchangedOriginal = method_getImplementation(class_getInstanceMethod(hookedByExchange, run));
    atr_setImplementation((ATClassRef)(void *)hookedByExchange, (ATMethodRef)(void *)class_getInstanceMethod(hookedByExchange, run),
                          (ATImplementation)exchangeHookWrapper);
    receivers[ATR_BENCH_EXCHANGE_HOOK] = [hookedByExchange new];

    Class wrappedEmpty = makeClass("AutoTrackBenchWrappedEmpty", root);
    class_addMethod(wrappedEmpty, run, (IMP)one, "q@:");
    emptyWrapperOriginal = method_setImplementation(class_getInstanceMethod(wrappedEmpty, run), (IMP)emptyWrapper);
    receivers[ATR_BENCH_EMPTY_WRAPPER] = [wrappedEmpty new];

    subclassHookSuperclass = target;
    struct { int kind; const char *name; IMP override; } subclassHooks[] = {
        {ATR_BENCH_SUBCLASS_HOOK, "AutoTrackBenchTarget_AutoTrackHook", (IMP)subclassHookRun},
        {ATR_BENCH_UNCACHED_SUBCLASS_HOOK, "AutoTrackBenchTarget_AutoTrackHookUncached", (IMP)uncachedSubclassHookRun},
    };
    for (int index = 0; index < 2; index++) {
        receivers[subclassHooks[index].kind] = [target new];
        Class subclass = makeClass(subclassHooks[index].name, target);
        class_addMethod(subclass, run, subclassHooks[index].override, "q@:");
        class_addMethod(subclass, @selector(class), (IMP)reportOriginalClass, "#@:");
        object_setClass(receivers[subclassHooks[index].kind], subclass);
    }

    /* A forwarding proxy hook, tracking off: the proxy answers the hooked method itself. */
    proxiedTarget = [target new];
    Class proxy = makeClass("AutoTrackBenchDelegateProxy", root);
    class_addMethod(proxy, run, (IMP)proxyHookRun, "q@:");
    class_addMethod(proxy, @selector(forwardingTargetForSelector:), (IMP)proxyForwardTo, "@@::");
    receivers[ATR_BENCH_PROXY_HOOK] = [proxy new];
}

intptr_t atr_benchmarkSend(int kind, intptr_t count) {
    if (kind < 0 || kind >= ATR_BENCH_KINDS || receivers[kind] == nil) return -1;
    id receiver = receivers[kind];
    SEL selector = kind == ATR_BENCH_FORWARDING_TARGET ? runForwarded : run;
    intptr_t total = 0;
    @autoreleasepool {
        for (intptr_t index = 0; index < count; index++) {
            IMP imp = atr_lookUp(receiver, selector);
            total += ((intptr_t (*)(id, SEL))imp)(receiver, selector);
        }
    }
    return total;
}
