/* A hook library whose install checks the objc4 functions the process running a host
   defines for hook libraries (GCC's runtime lacks them): objc_msgSend and
   objc_msgSendSuper with integer, floating-point and object arguments and results, and
   imp_implementationWithBlock with imp_getBlock and imp_removeBlock; and
   atr_cachedSuperImplementation, which must follow every kind of method change and
   never answer one class's implementation for another's, even while threads share a
   call site. A failed check
   fails the install with a message naming it; otherwise the hook installs nothing. */
#import <UIKit/UIKit.h>
#include <objc/message.h>
#include <objc/runtime.h>
#include <pthread.h>
#include <stdio.h>
#include "autotrack_hook.h"

@interface FixtureBase : NSObject
- (double)scale:(double)value by:(long)factor;
- (id)echo:(id)object;
@end

@implementation FixtureBase
- (double)scale:(double)value by:(long)factor { return value * (double)factor; }
- (id)echo:(id)object { return object; }
@end

@interface FixtureMiddle : FixtureBase
@end

@implementation FixtureMiddle
@end

@interface FixtureDerived : FixtureMiddle
@end

@implementation FixtureDerived
- (double)scale:(double)value by:(long)factor { return -[super scale:value by:factor]; }
@end

/* A superclass whose -scale:by: is added on first use (+resolveInstanceMethod:), and a
   subclass sending it to super. */
@interface FixtureLazy : NSObject
@end

@interface FixtureLazyDerived : FixtureLazy
@end

@implementation FixtureLazyDerived
@end

/* A function as an IMP, and an IMP as the function it is (through void (*)(void), the
   cast the compiler accepts between function types). */
#define AS_IMP(function) ((IMP)(void (*)(void))(function))

/* Implementations the cached-super checks install: each answers its number. */
#define ANSWER(number) \
    static double answer##number(id self, SEL _cmd, double value, long factor) { \
        (void)self, (void)_cmd, (void)value, (void)factor; \
        return number; \
    }
ANSWER(1)
ANSWER(2)
ANSWER(3)
ANSWER(9)
ANSWER(100)
ANSWER(200)
ANSWER(300)
ANSWER(400)

@implementation FixtureLazy
+ (BOOL)resolveInstanceMethod:(SEL)selector {
    if (sel_isEqual(selector, @selector(scale:by:))) return class_addMethod(self, selector, AS_IMP(answer9), "d@:dl");
    return [super resolveInstanceMethod:selector];
}
@end

/* `[super scale:2.5 by:3]` from a method of a subclass of `superclass`, through one call
   site's cache. */
static double cachedSuperScale(id receiver, Class superclass) {
    static atr_super_cache cache;
    IMP imp = atr_cachedSuperImplementation(&cache, receiver, superclass, @selector(scale:by:));
    return ((double (*)(id, SEL, double, long))(void (*)(void))imp)(receiver, @selector(scale:by:), 2.5, 3L);
}

/* `[receiver scale:2.5 by:3]` through one call site's cache. */
static double cachedScale(id receiver) {
    static atr_super_cache cache;
    IMP imp = atr_cachedImplementation(&cache, receiver, @selector(scale:by:));
    return ((double (*)(id, SEL, double, long))(void (*)(void))imp)(receiver, @selector(scale:by:), 2.5, 3L);
}

/* Threads sharing one call site over two classes while the main thread changes one. */
static Class sideA, sideB;
static id sharedReceiver;
static volatile long sharedFailures;

static void *sendThroughSharedSite(void *unused) {
    (void)unused;
    for (int round = 0; round < 20000; round++) {
        double a = cachedSuperScale(sharedReceiver, sideA), b = cachedSuperScale(sharedReceiver, sideB);
        if (a != 1 || (b != 2 && b != 3)) __atomic_fetch_add(&sharedFailures, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

#define CHECK(condition, ...) \
    do { \
        if (!(condition)) { \
            snprintf(error, capacity, "objc4 function check failed: " __VA_ARGS__); \
            return -1; \
        } \
    } while (0)

static int install(autotrack_hook_installation *installation, const autotrack_hook_api *api, char *error, size_t capacity) {
    (void)installation;
    (void)api;
    /* The process told libobjc it runs threads libobjc did not start, so rebuilt
       dispatch tables are kept, not freed under other threads' lookups. */
    extern int __objc_runtime_threads_alive;
    CHECK(__objc_runtime_threads_alive > 1, "libobjc counts %d thread(s): old dispatch tables would be freed at once", __objc_runtime_threads_alive);
    FixtureDerived *derived = [[FixtureDerived alloc] init];
    double scaled = ((double (*)(id, SEL, double, long))objc_msgSend)(derived, @selector(scale:by:), 2.5, 3L);
    CHECK(scaled == -7.5, "objc_msgSend answered %g for -7.5", scaled);
    CHECK(((id (*)(id, SEL, id))objc_msgSend)(derived, @selector(echo:), derived) == derived, "objc_msgSend lost an object");
    CHECK(((double (*)(id, SEL, double, long))objc_msgSend)(nil, @selector(scale:by:), 2.5, 3L) == 0, "a nil receiver did not answer 0");

    struct objc_super above = {derived, [FixtureBase class]};
    double fromSuper = ((double (*)(struct objc_super *, SEL, double, long))objc_msgSendSuper)(&above, @selector(scale:by:), 2.5, 3L);
    CHECK(fromSuper == 7.5, "objc_msgSendSuper answered %g for 7.5", fromSuper);

    /* The cached super implementation follows each kind of change to the superclass. */
    Class middle = [FixtureMiddle class];
    SEL scale = @selector(scale:by:);
    CHECK(cachedSuperScale(derived, middle) == 7.5, "the cached super send answered %g for 7.5", cachedSuperScale(derived, middle));
    CHECK(class_addMethod(middle, scale, AS_IMP(answer100), "d@:dl"), "class_addMethod refused an override");
    CHECK(cachedSuperScale(derived, middle) == 100, "after class_addMethod the cache answered %g", cachedSuperScale(derived, middle));
    class_replaceMethod(middle, scale, AS_IMP(answer200), "d@:dl");
    CHECK(cachedSuperScale(derived, middle) == 200, "after class_replaceMethod the cache answered %g", cachedSuperScale(derived, middle));
    method_setImplementation(class_getInstanceMethod(middle, scale), AS_IMP(answer300));
    CHECK(cachedSuperScale(derived, middle) == 300, "after method_setImplementation the cache answered %g", cachedSuperScale(derived, middle));
    CHECK(class_addMethod(middle, @selector(offset:by:), AS_IMP(answer400), "d@:dl"), "class_addMethod refused a second method");
    method_exchangeImplementations(class_getInstanceMethod(middle, scale), class_getInstanceMethod(middle, @selector(offset:by:)));
    CHECK(cachedSuperScale(derived, middle) == 400, "after method_exchangeImplementations the cache answered %g", cachedSuperScale(derived, middle));
    CHECK(cachedSuperScale(derived, [FixtureBase class]) == 7.5, "one call site answered another class's implementation");
    CHECK(cachedSuperScale(derived, middle) == 400, "switching the call site's class back answered %g", cachedSuperScale(derived, middle));
    CHECK(cachedScale(derived) == -400, "the cached send answered %g for -400", cachedScale(derived));
    CHECK(cachedScale(nil) == 0, "a cached send to nil answered %g", cachedScale(nil));

    /* A method the superclass resolves on first use is found, as [super message] finds
       it, not forwarded. */
    FixtureLazyDerived *lazy = [[FixtureLazyDerived alloc] init];
    CHECK(cachedSuperScale(lazy, [FixtureLazy class]) == 9, "a method added by +resolveInstanceMethod: was not found");
    CHECK(cachedSuperScale(lazy, [FixtureLazy class]) == 9, "a resolved method was not found again");
    [lazy release];

    sideA = objc_allocateClassPair([FixtureBase class], "FixtureSideA", 0);
    sideB = objc_allocateClassPair([FixtureBase class], "FixtureSideB", 0);
    class_addMethod(sideA, scale, AS_IMP(answer1), "d@:dl");
    class_addMethod(sideB, scale, AS_IMP(answer2), "d@:dl");
    objc_registerClassPair(sideA);
    objc_registerClassPair(sideB);
    sharedReceiver = derived;
    pthread_t threads[3];
    for (int index = 0; index < 3; index++) pthread_create(&threads[index], NULL, sendThroughSharedSite, NULL);
    Method sideBScale = class_getInstanceMethod(sideB, scale);
    for (int round = 0; round < 2000; round++) method_setImplementation(sideBScale, AS_IMP(round % 2 == 0 ? answer3 : answer2));
    for (int index = 0; index < 3; index++) pthread_join(threads[index], NULL);
    CHECK(sharedFailures == 0, "threads sharing a call site got a wrong implementation %ld times", sharedFailures);

    __block long calls = 0;
    IMP blockIMP = imp_implementationWithBlock(^double(id receiver, double value, long factor) {
        calls += 1;
        return receiver == derived ? value + (double)factor : -1;
    });
    CHECK(blockIMP != NULL, "imp_implementationWithBlock answered NULL");
    CHECK(class_addMethod([FixtureDerived class], @selector(add:to:), blockIMP, "d@:dl"), "class_addMethod refused the block's IMP");
    double added = ((double (*)(id, SEL, double, long))objc_msgSend)(derived, @selector(add:to:), 1.25, 4L);
    CHECK(added == 5.25 && calls == 1, "a block's IMP answered %g after %ld calls", added, calls);
    CHECK(imp_getBlock(blockIMP) != nil, "imp_getBlock lost the block");
    /* A second block, installed nowhere, to remove. */
    IMP spare = imp_implementationWithBlock(^long(id receiver) { return receiver != nil; });
    CHECK(spare != NULL && spare != blockIMP, "a second block got no IMP of its own");
    CHECK(imp_removeBlock(spare), "imp_removeBlock refused");
    CHECK(imp_getBlock(spare) == nil, "imp_getBlock still answers after imp_removeBlock");
    CHECK(imp_getBlock(blockIMP) != nil, "imp_removeBlock removed another block");
    [derived release];
    return 0;
}

static int uninstall(autotrack_hook_installation *installation) {
    (void)installation;
    return 1;
}

static const char *const hookedMethods[] = {NULL};

static const autotrack_hook_definition hook = {
    .name = "fixture/objc4-functions",
    .point = "send-action",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&hook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
