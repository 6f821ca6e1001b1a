/* Touches as the application delivers them, the way Datadog's and PostHog's SDKs see
   SwiftUI taps and dead clicks: -[UIApplication sendEvent:] is exchanged (add-then-
   exchange), and every event is handed to the kit's combinator, which records what a
   touch that ended is — before the event is delivered, once per touch — and passes
   every other event straight on. Two hooks share the technique, each under a selector
   of its own: one at the touch-end point (every ended touch, for dead clicks), one at
   the SwiftUI-tap point (a click on the SwiftUI element a tap activates). */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <stdio.h>
#include "autotrack_hook.h"
#include "add_then_exchange.h"

/* One hook's state: its installation and whether its exchange is in place. */
struct sendEventHook {
    autotrack_hook_installation *installation;
    const autotrack_hook_api *kit;
    BOOL exchanged;
};

static struct sendEventHook touchEnd, swiftUITap;

@interface UIApplication (ExampleSendEventHook)
- (void)example_touchEnd_sendEvent:(UIEvent *)event;
- (void)example_swiftUITap_sendEvent:(UIEvent *)event;
@end

struct delivery {
    UIApplication *application;
    UIEvent *event;
    BOOL swiftUI;
};

static void deliver(void *context) {
    struct delivery *call = context;
    if (call->swiftUI) {
        [call->application example_swiftUITap_sendEvent:call->event];
    } else {
        [call->application example_touchEnd_sendEvent:call->event];
    }
}

static void intercept(struct sendEventHook *hook, UIApplication *application, UIEvent *event, BOOL swiftUI) {
    struct delivery call = {application, event, swiftUI};
    autotrack_call intercepted = AUTOTRACK_CALL(application, @selector(sendEvent:), 1, AUTOTRACK_ARG(event));
    hook->kit->intercept(hook->installation, &intercepted, deliver, &call);
}

@interface ExampleSendEventHook : NSObject
@end

@implementation ExampleSendEventHook
- (void)example_touchEnd_sendEvent:(UIEvent *)event {
    intercept(&touchEnd, (UIApplication *)self, event, NO);
}

- (void)example_swiftUITap_sendEvent:(UIEvent *)event {
    intercept(&swiftUITap, (UIApplication *)self, event, YES);
}
@end

static int installHook(struct sendEventHook *hook, SEL replacement, autotrack_hook_installation *installation,
                       const autotrack_hook_api *api, char *error, size_t capacity) {
    hook->installation = installation;
    hook->kit = api;
    if (hook->exchanged) return 0;
    Class application = (Class)api->class_named(installation, "UIApplication");
    if (application == Nil) {
        snprintf(error, capacity, "the host has no UIApplication");
        return -1;
    }
    if (!add_then_exchange([ExampleSendEventHook class], application, @selector(sendEvent:), replacement, error, capacity)) return -1;
    hook->exchanged = YES;
    return 0;
}

static int installTouchEnd(autotrack_hook_installation *installation, const autotrack_hook_api *api, char *error, size_t capacity) {
    return installHook(&touchEnd, @selector(example_touchEnd_sendEvent:), installation, api, error, capacity);
}

static int installSwiftUITap(autotrack_hook_installation *installation, const autotrack_hook_api *api, char *error, size_t capacity) {
    return installHook(&swiftUITap, @selector(example_swiftUITap_sendEvent:), installation, api, error, capacity);
}

/* The exchanges stay: an uninstalled installation passes events straight on. */
static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const touchEndMethods[] = {"UIApplication sendEvent:", "UIApplication example_touchEnd_sendEvent:", NULL};
static const char *const swiftUITapMethods[] = {"UIApplication sendEvent:", "UIApplication example_swiftUITap_sendEvent:", NULL};

static const autotrack_hook_definition touchEndHook = {
    .name = "touch-end/objc-send-event",
    .point = "touch-end",
    .hooked_methods = touchEndMethods,
    .install = installTouchEnd,
    .uninstall = uninstall,
};

static const autotrack_hook_definition swiftUITapHook = {
    .name = "swiftui-tap/objc-send-event",
    .point = "swiftui-tap",
    .hooked_methods = swiftUITapMethods,
    .install = installSwiftUITap,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&touchEndHook, &swiftUITapHook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
