/* Clicks on controls, the way Sensors' and GrowingIO's SDKs hook them: a replacement
   method added to UIControl under a selector of our own, then exchanged with
   -sendAction:to:forEvent: (target-actions) and with -sendAction: (closure actions,
   UIAction). After the exchange, calling the replacement's selector runs UIKit's
   original. The wrappers hand each call to the kit's combinator, which records the click
   (one per touch, however many targets and closures) and runs the original exactly
   once. */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <stdio.h>
#include "autotrack_hook.h"
#include "add_then_exchange.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
/* Exchanged once per process: a reinstall finds the wrapper in place. */
static BOOL exchanged;

@interface UIControl (ExampleSendActionHook)
- (void)example_sendAction:(SEL)action to:(id)target forEvent:(UIEvent *)event;
- (void)example_sendAction:(id)closureAction;
@end

/* The replacements' code lives in a class of ours and is added to UIControl. */
@interface ExampleSendActionHook : NSObject
- (void)example_sendAction:(SEL)action to:(id)target forEvent:(UIEvent *)event;
- (void)example_sendAction:(id)closureAction;
@end

struct sendActionCall {
    UIControl *control;
    SEL action;
    id target;
    UIEvent *event;
};

static void runOriginal(void *context) {
    struct sendActionCall *call = context;
    [call->control example_sendAction:call->action to:call->target forEvent:call->event];
}

struct closureCall {
    UIControl *control;
    id closureAction;
};

static void runClosureOriginal(void *context) {
    struct closureCall *call = context;
    [call->control example_sendAction:call->closureAction];
}

@implementation ExampleSendActionHook
- (void)example_sendAction:(SEL)action to:(id)target forEvent:(UIEvent *)event {
    struct sendActionCall call = {(UIControl *)self, action, target, event};
    autotrack_call intercepted = AUTOTRACK_CALL(self, @selector(sendAction:to:forEvent:), 3,
                                                AUTOTRACK_SEL(action), AUTOTRACK_ARG(target), AUTOTRACK_ARG(event));
    kit->intercept(installation, &intercepted, runOriginal, &call);
}

- (void)example_sendAction:(id)closureAction {
    struct closureCall call = {(UIControl *)self, closureAction};
    autotrack_call intercepted = AUTOTRACK_CALL(self, @selector(sendAction:), 1, AUTOTRACK_ARG(closureAction));
    kit->intercept(installation, &intercepted, runClosureOriginal, &call);
}
@end

static int install(autotrack_hook_installation *newInstallation, const autotrack_hook_api *api, char *error, size_t capacity) {
    installation = newInstallation;
    kit = api;
    if (exchanged) return 0;
    Class control = (Class)api->class_named(newInstallation, "UIControl");
    if (control == Nil) {
        snprintf(error, capacity, "the host has no UIControl");
        return -1;
    }
    if (!add_then_exchange([ExampleSendActionHook class], control, @selector(sendAction:to:forEvent:), @selector(example_sendAction:to:forEvent:), error, capacity)) return -1;
    if (!add_then_exchange([ExampleSendActionHook class], control, @selector(sendAction:), @selector(example_sendAction:), error, capacity)) return -1;
    exchanged = YES;
    return 0;
}

/* The exchange cannot be undone safely once another library may have exchanged on top
   of it: the wrapper stays, and the kit turns this installation off. */
static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const hookedMethods[] = {
    "UIControl sendAction:to:forEvent:", "UIControl example_sendAction:to:forEvent:",
    "UIControl sendAction:", "UIControl example_sendAction:", NULL,
};

static const autotrack_hook_definition sendActionExchange = {
    .name = "send-action/objc-exchange",
    .point = "send-action",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&sendActionExchange, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
