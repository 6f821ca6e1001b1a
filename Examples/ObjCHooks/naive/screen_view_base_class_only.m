/* NAIVE — caught by rule 3 (record then forward) and rule 2. Screen views the way most
   SDKs start: -viewDidAppear: (and -viewDidDisappear:) of UIViewController exchanged,
   and nothing else. An app controller's override runs its own code before calling
   super — the screen view is recorded after what the screen did on appearing — or never
   calls super, and no screen view is recorded at all; nor is one when the app returns
   from the background. A correct hook wraps each override too, and records on return to
   the foreground. */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <stdio.h>
#include "autotrack_hook.h"
#include "../add_then_exchange.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
static BOOL exchanged;

@interface UIViewController (ExampleScreenViewHook)
- (void)example_viewDidAppear:(BOOL)animated;
- (void)example_viewDidDisappear:(BOOL)animated;
@end

@interface ExampleScreenViewHook : NSObject
@end

struct appearance {
    UIViewController *controller;
    BOOL animated;
};

static void runDidAppear(void *context) {
    struct appearance *call = context;
    [call->controller example_viewDidAppear:call->animated];
}

static void runDidDisappear(void *context) {
    struct appearance *call = context;
    [call->controller example_viewDidDisappear:call->animated];
}

@implementation ExampleScreenViewHook
- (void)example_viewDidAppear:(BOOL)animated {
    struct appearance call = {(UIViewController *)self, animated};
    autotrack_call intercepted = AUTOTRACK_CALL(self, @selector(viewDidAppear:), 1, AUTOTRACK_ARG(animated));
    kit->intercept(installation, &intercepted, runDidAppear, &call);
}

- (void)example_viewDidDisappear:(BOOL)animated {
    struct appearance call = {(UIViewController *)self, animated};
    autotrack_call intercepted = AUTOTRACK_CALL(self, @selector(viewDidDisappear:), 1, AUTOTRACK_ARG(animated));
    kit->intercept(installation, &intercepted, runDidDisappear, &call);
}
@end

static int install(autotrack_hook_installation *newInstallation, const autotrack_hook_api *api, char *error, size_t capacity) {
    installation = newInstallation;
    kit = api;
    if (exchanged) return 0;
    Class controller = (Class)api->class_named(newInstallation, "UIViewController");
    if (controller == Nil) {
        snprintf(error, capacity, "the host has no UIViewController");
        return -1;
    }
    if (!add_then_exchange([ExampleScreenViewHook class], controller, @selector(viewDidAppear:), @selector(example_viewDidAppear:), error, capacity)) return -1;
    if (!add_then_exchange([ExampleScreenViewHook class], controller, @selector(viewDidDisappear:), @selector(example_viewDidDisappear:), error, capacity)) return -1;
    exchanged = YES;
    return 0;
}

static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const hookedMethods[] = {
    "UIViewController viewDidAppear:", "UIViewController example_viewDidAppear:",
    "UIViewController viewDidDisappear:", "UIViewController example_viewDidDisappear:", NULL,
};

static const autotrack_hook_definition hook = {
    .name = "screen-view/naive-base-class-only",
    .point = "screen-view",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&hook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
