/* Screen views, over every override of -viewDidAppear:. -viewDidAppear: and
   -viewDidDisappear: of UIViewController are exchanged (add-then-exchange), as most SDKs
   start; but an app's controller that overrides -viewDidAppear: runs its own code before
   calling super, or never calls it, so each override is wrapped as well: at install for
   the classes that exist (objc_getClassList), and for classes registered later at their
   first -viewDidLoad. An override's wrapper is a block capturing that class's original,
   installed with imp_implementationWithBlock and method_setImplementation, as Swift SDKs
   do it. However many levels of a controller's class are wrapped, the combinator records
   one screen view per appearance, before the first line of app code. UIKit sends no
   -viewDidAppear: when the app returns from the background: an observer of
   UIApplicationWillEnterForegroundNotification hands that moment to the combinator, which
   records the visible screen. */
#import <UIKit/UIKit.h>
#include <objc/message.h>
#include <objc/runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include "autotrack_hook.h"
#include "add_then_exchange.h"
#include "own_method.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
/* Exchanged once per process: a reinstall finds the wrappers in place. */
static BOOL exchanged;
static Class controllerClass;
/* The classes whose own -viewDidAppear: is wrapped, so that none is wrapped twice. */
static Class *wrappedClasses;
static size_t wrappedCount, wrappedCapacity;

@interface UIViewController (ExampleScreenViewHook)
- (void)example_viewDidAppear:(BOOL)animated;
- (void)example_viewDidDisappear:(BOOL)animated;
- (void)example_viewDidLoad;
@end

struct appearance {
    UIViewController *controller;
    BOOL animated;
    /* The override's original, or NULL for UIViewController's own (the exchanged copy). */
    IMP original;
};

static void runDidAppear(void *context) {
    struct appearance *call = context;
    if (call->original != NULL) {
        ((void (*)(id, SEL, BOOL))(void (*)(void))call->original)(call->controller, @selector(viewDidAppear:), call->animated);
    } else {
        /* UIViewController's own, under the exchanged selector (a send as iOS SDKs write
           it; [call->controller example_viewDidAppear:] is the same). */
        ((void (*)(id, SEL, BOOL))objc_msgSend)(call->controller, @selector(example_viewDidAppear:), call->animated);
    }
}

static void runDidDisappear(void *context) {
    struct appearance *call = context;
    [call->controller example_viewDidDisappear:call->animated];
}

static void interceptAppearance(UIViewController *controller, BOOL animated, IMP original) {
    struct appearance call = {controller, animated, original};
    autotrack_call intercepted = AUTOTRACK_CALL(controller, @selector(viewDidAppear:), 1, AUTOTRACK_ARG(animated));
    kit->intercept(installation, &intercepted, runDidAppear, &call);
}

static BOOL isWrapped(Class cls) {
    for (size_t index = 0; index < wrappedCount; index++) {
        if (wrappedClasses[index] == cls) return YES;
    }
    return NO;
}

/* Wraps every override of -viewDidAppear: from `cls` up to UIViewController. */
static void wrapOverrides(Class cls) {
    for (Class current = cls; current != Nil && current != controllerClass; current = class_getSuperclass(current)) {
        Method override = own_method(current, @selector(viewDidAppear:));
        if (override == NULL || isWrapped(current)) continue;
        if (wrappedCount == wrappedCapacity) {
            size_t capacity = wrappedCapacity == 0 ? 64 : wrappedCapacity * 2;
            Class *grown = realloc(wrappedClasses, capacity * sizeof(Class));
            if (grown == NULL) return;
            wrappedClasses = grown;
            wrappedCapacity = capacity;
        }
        IMP original = method_getImplementation(override);
        IMP wrapper = imp_implementationWithBlock(^(UIViewController *controller, BOOL animated) {
            interceptAppearance(controller, animated, original);
        });
        if (wrapper == NULL) continue;
        method_setImplementation(override, wrapper);
        wrappedClasses[wrappedCount++] = current;
    }
}

static BOOL isControllerClass(Class cls) {
    for (Class current = class_getSuperclass(cls); current != Nil; current = class_getSuperclass(current)) {
        if (current == controllerClass) return YES;
    }
    return NO;
}

static void wrapExistingOverrides(void) {
    int count = objc_getClassList(NULL, 0);
    Class *classes = malloc(sizeof(Class) * (size_t)(count > 0 ? count : 1));
    if (classes == NULL) return;
    count = objc_getClassList(classes, count);
    for (int index = 0; index < count; index++) {
        if (isControllerClass(classes[index])) wrapOverrides(classes[index]);
    }
    free(classes);
}

@interface ExampleScreenViewHook : NSObject
@end

@implementation ExampleScreenViewHook
- (void)example_viewDidAppear:(BOOL)animated {
    interceptAppearance((UIViewController *)self, animated, NULL);
}

- (void)example_viewDidDisappear:(BOOL)animated {
    struct appearance call = {(UIViewController *)self, animated, NULL};
    autotrack_call intercepted = AUTOTRACK_CALL(self, @selector(viewDidDisappear:), 1, AUTOTRACK_ARG(animated));
    kit->intercept(installation, &intercepted, runDidDisappear, &call);
}

/* A controller class registered after install has its overrides wrapped as its first
   instance loads, before its -viewDidAppear: can run. */
- (void)example_viewDidLoad {
    wrapOverrides(object_getClass(self));
    [(UIViewController *)self example_viewDidLoad];
}
@end

/* Hands the return to the foreground to the combinator. */
@interface ExampleForegroundObserver : NSObject
- (void)applicationWillEnterForeground:(NSNotification *)notification;
@end

@implementation ExampleForegroundObserver
- (void)applicationWillEnterForeground:(NSNotification *)notification {
    autotrack_call returned = AUTOTRACK_CALL(self, _cmd, 1, AUTOTRACK_ARG([notification object]));
    kit->intercept(installation, &returned, NULL, NULL);
}
@end

static int install(autotrack_hook_installation *newInstallation, const autotrack_hook_api *api, char *error, size_t capacity) {
    installation = newInstallation;
    kit = api;
    if (exchanged) return 0;
    controllerClass = (Class)api->class_named(newInstallation, "UIViewController");
    if (controllerClass == Nil) {
        snprintf(error, capacity, "the host has no UIViewController");
        return -1;
    }
    Class hook = [ExampleScreenViewHook class];
    if (!add_then_exchange(hook, controllerClass, @selector(viewDidAppear:), @selector(example_viewDidAppear:), error, capacity)) return -1;
    if (!add_then_exchange(hook, controllerClass, @selector(viewDidDisappear:), @selector(example_viewDidDisappear:), error, capacity)) return -1;
    if (!add_then_exchange(hook, controllerClass, @selector(viewDidLoad), @selector(example_viewDidLoad), error, capacity)) return -1;
    wrapExistingOverrides();
    /* Observed for the process's life, like the wrappers. */
    [[NSNotificationCenter defaultCenter] addObserver:[[ExampleForegroundObserver alloc] init]
                                             selector:@selector(applicationWillEnterForeground:)
                                                 name:UIApplicationWillEnterForegroundNotification
                                               object:nil];
    exchanged = YES;
    return 0;
}

static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    /* The wrappers stay: an uninstalled installation records nothing, and a reinstall
       reports through them again. */
    return 0;
}

static const char *const hookedMethods[] = {
    "UIViewController viewDidAppear:", "UIViewController example_viewDidAppear:",
    "UIViewController viewDidDisappear:", "UIViewController example_viewDidDisappear:",
    "UIViewController viewDidLoad", "UIViewController example_viewDidLoad", NULL,
};

static const autotrack_hook_definition hook = {
    .name = "screen-view/objc-every-override",
    .point = "screen-view",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&hook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
