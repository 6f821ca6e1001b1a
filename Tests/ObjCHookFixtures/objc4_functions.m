/* A hook library whose install checks the objc4 functions the process running a host
   defines for hook libraries (GCC's runtime lacks them): objc_msgSend and
   objc_msgSendSuper with integer, floating-point and object arguments and results, and
   imp_implementationWithBlock with imp_getBlock and imp_removeBlock. A failed check
   fails the install with a message naming it; otherwise the hook installs nothing. */
#import <UIKit/UIKit.h>
#include <objc/message.h>
#include <objc/runtime.h>
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

@interface FixtureDerived : FixtureBase
@end

@implementation FixtureDerived
- (double)scale:(double)value by:(long)factor { return -[super scale:value by:factor]; }
@end

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
    FixtureDerived *derived = [[FixtureDerived alloc] init];
    double scaled = ((double (*)(id, SEL, double, long))objc_msgSend)(derived, @selector(scale:by:), 2.5, 3L);
    CHECK(scaled == -7.5, "objc_msgSend answered %g for -7.5", scaled);
    CHECK(((id (*)(id, SEL, id))objc_msgSend)(derived, @selector(echo:), derived) == derived, "objc_msgSend lost an object");
    CHECK(((double (*)(id, SEL, double, long))objc_msgSend)(nil, @selector(scale:by:), 2.5, 3L) == 0, "a nil receiver did not answer 0");

    struct objc_super above = {derived, [FixtureBase class]};
    double fromSuper = ((double (*)(struct objc_super *, SEL, double, long))objc_msgSendSuper)(&above, @selector(scale:by:), 2.5, 3L);
    CHECK(fromSuper == 7.5, "objc_msgSendSuper answered %g for 7.5", fromSuper);

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
