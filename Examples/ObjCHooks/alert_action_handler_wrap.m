/* Clicks on alert actions, the way iOS SDKs capture them: UIKit runs an action's handler
   block when the action is picked, so +[UIAlertAction actionWithTitle:style:handler:] is
   exchanged (on the metaclass, add-then-exchange) with a replacement that wraps the app's
   handler in a block of its own. The wrapper hands each run to the kit's combinator —
   the call's receiver is the action — which records the click and runs the app's handler
   exactly once. An action made without a handler still gets one, so that picking it is a
   click too. */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <stdio.h>
#include "autotrack_hook.h"
#include "add_then_exchange.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
static BOOL exchanged;

typedef void (^ActionHandler)(UIAlertAction *action);

@interface UIAlertAction (ExampleAlertHook)
+ (instancetype)example_actionWithTitle:(NSString *)title style:(UIAlertActionStyle)style handler:(ActionHandler)handler;
@end

@interface ExampleAlertHook : NSObject
+ (instancetype)example_actionWithTitle:(NSString *)title style:(UIAlertActionStyle)style handler:(ActionHandler)handler;
@end

struct handlerCall {
    ActionHandler handler;
    UIAlertAction *action;
};

static void runHandler(void *context) {
    struct handlerCall *call = context;
    if (call->handler) call->handler(call->action);
}

@implementation ExampleAlertHook
+ (instancetype)example_actionWithTitle:(NSString *)title style:(UIAlertActionStyle)style handler:(ActionHandler)handler {
    /* The wrapper captures the app's handler (copied with it); the kit decides, each time
       the action is picked, whether it is a click, and runs the handler once either way. */
    ActionHandler wrapped = ^(UIAlertAction *action) {
        struct handlerCall call = {handler, action};
        autotrack_call intercepted = AUTOTRACK_CALL(action, @selector(example_actionWithTitle:style:handler:), 0);
        kit->intercept(installation, &intercepted, runHandler, &call);
    };
    /* After the exchange, this selector runs UIKit's factory. */
    return [(Class)self example_actionWithTitle:title style:style handler:wrapped];
}
@end

static int install(autotrack_hook_installation *newInstallation, const autotrack_hook_api *api, char *error, size_t capacity) {
    installation = newInstallation;
    kit = api;
    if (exchanged) return 0;
    Class action = (Class)api->class_named(newInstallation, "UIAlertAction");
    if (action == Nil) {
        snprintf(error, capacity, "the host has no UIAlertAction");
        return -1;
    }
    /* Class methods live on the metaclasses. */
    if (!add_then_exchange(object_getClass([ExampleAlertHook class]), object_getClass(action), @selector(actionWithTitle:style:handler:),
                           @selector(example_actionWithTitle:style:handler:), error, capacity)) return -1;
    exchanged = YES;
    return 0;
}

/* Handlers already wrapped stay wrapped; the kit turns this installation off, and the
   wrappers then only run the app's handlers. */
static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const hookedMethods[] = {
    "+UIAlertAction actionWithTitle:style:handler:", "+UIAlertAction example_actionWithTitle:style:handler:", NULL,
};

static const autotrack_hook_definition alertHandlerWrap = {
    .name = "alert-action/objc-handler-wrap",
    .point = "alert-action",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&alertHandlerWrap, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
