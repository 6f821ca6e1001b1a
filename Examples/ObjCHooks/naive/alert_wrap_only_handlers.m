/* NAIVE — caught by rule 2 (one interaction). The alert handler wrap as a tutorial
   writes it: +[UIAlertAction actionWithTitle:style:handler:] is exchanged with a
   replacement that wraps the app's handler — but only when there is one. An action made
   with a nil handler ("OK" on an information alert) keeps none, and picking it records
   nothing. */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <stdio.h>
#include "autotrack_hook.h"
#include "../add_then_exchange.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
static BOOL exchanged;

typedef void (^ActionHandler)(UIAlertAction *action);

@interface UIAlertAction (NaiveAlertHook)
+ (instancetype)naive_actionWithTitle:(NSString *)title style:(UIAlertActionStyle)style handler:(ActionHandler)handler;
@end

@interface NaiveAlertHook : NSObject
+ (instancetype)naive_actionWithTitle:(NSString *)title style:(UIAlertActionStyle)style handler:(ActionHandler)handler;
@end

struct handlerCall {
    ActionHandler handler;
    UIAlertAction *action;
};

static void runHandler(void *context) {
    struct handlerCall *call = context;
    if (call->handler) call->handler(call->action);
}

@implementation NaiveAlertHook
+ (instancetype)naive_actionWithTitle:(NSString *)title style:(UIAlertActionStyle)style handler:(ActionHandler)handler {
    if (handler == NULL) return [(Class)self naive_actionWithTitle:title style:style handler:NULL];
    ActionHandler wrapped = ^(UIAlertAction *action) {
        struct handlerCall call = {handler, action};
        autotrack_call intercepted = AUTOTRACK_CALL(action, @selector(naive_actionWithTitle:style:handler:), 0);
        kit->intercept(installation, &intercepted, runHandler, &call);
    };
    /* After the exchange, this selector runs UIKit's factory. */
    return [(Class)self naive_actionWithTitle:title style:style handler:wrapped];
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
    if (!add_then_exchange(object_getClass([NaiveAlertHook class]), object_getClass(action), @selector(actionWithTitle:style:handler:),
                           @selector(naive_actionWithTitle:style:handler:), error, capacity)) return -1;
    exchanged = YES;
    return 0;
}

static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const hookedMethods[] = {
    "+UIAlertAction actionWithTitle:style:handler:", "+UIAlertAction naive_actionWithTitle:style:handler:", NULL,
};

static const autotrack_hook_definition naiveHandlerWrap = {
    .name = "alert-action/naive-wrap-only-handlers",
    .point = "alert-action",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&naiveHandlerWrap, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
