/* A send-action hook written the way SDKs written in Swift port their swizzles:
   method_setImplementation with C functions, the previous IMPs kept in statics, and the
   call reported with the selector the replacement was sent (`_cmd`). Once another
   library exchanges the same method on top of this one, `_cmd` is that library's own
   selector; the kit tells the call by its arguments, as UIKit's methods are told. */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <stdio.h>
#include "autotrack_hook.h"

/* IMPs are cast through a plain function pointer: -Wextra rejects casting between
   function types directly. */
typedef void (*plain_function)(void);

static autotrack_hook_installation *current;
static const autotrack_hook_api *kit;
static IMP originalApplicationSend;
static IMP originalClosureSend;

struct applicationCall {
    id application;
    SEL command;
    SEL action;
    id target;
    id sender;
    UIEvent *event;
    BOOL result;
};

static void runApplicationSend(void *context) {
    struct applicationCall *call = context;
    call->result = ((BOOL (*)(id, SEL, SEL, id, id, UIEvent *))(plain_function)originalApplicationSend)(
        call->application, call->command, call->action, call->target, call->sender, call->event);
}

static BOOL replacementApplicationSend(id self, SEL _cmd, SEL action, id target, id sender, UIEvent *event) {
    struct applicationCall call = {self, _cmd, action, target, sender, event, NO};
    autotrack_call intercepted = AUTOTRACK_CALL(self, _cmd, 4, AUTOTRACK_SEL(action), AUTOTRACK_ARG(target),
                                                AUTOTRACK_ARG(sender), AUTOTRACK_ARG(event));
    kit->intercept(current, &intercepted, runApplicationSend, &call);
    return call.result;
}

struct closureCall {
    id control;
    SEL command;
    id closureAction;
};

static void runClosureSend(void *context) {
    struct closureCall *call = context;
    ((void (*)(id, SEL, id))(plain_function)originalClosureSend)(call->control, call->command, call->closureAction);
}

static void replacementClosureSend(id self, SEL _cmd, id closureAction) {
    struct closureCall call = {self, _cmd, closureAction};
    autotrack_call intercepted = AUTOTRACK_CALL(self, _cmd, 1, AUTOTRACK_ARG(closureAction));
    kit->intercept(current, &intercepted, runClosureSend, &call);
}

static int install(autotrack_hook_installation *installation, const autotrack_hook_api *api, char *error, size_t capacity) {
    current = installation;
    kit = api;
    if (originalApplicationSend != NULL) return 0; /* set once per process */
    Method applicationSend = class_getInstanceMethod((Class)api->class_named(installation, "UIApplication"),
                                                     @selector(sendAction:to:from:forEvent:));
    Method closureSend = class_getInstanceMethod((Class)api->class_named(installation, "UIControl"), @selector(sendAction:));
    if (applicationSend == NULL || closureSend == NULL) {
        snprintf(error, capacity, "the host lacks -[UIApplication sendAction:to:from:forEvent:] or -[UIControl sendAction:]");
        return -1;
    }
    originalApplicationSend = method_setImplementation(applicationSend, (IMP)(plain_function)replacementApplicationSend);
    originalClosureSend = method_setImplementation(closureSend, (IMP)(plain_function)replacementClosureSend);
    return 0;
}

static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const hookedMethods[] = {"UIApplication sendAction:to:from:forEvent:", "UIControl sendAction:", NULL};

static const autotrack_hook_definition setImplementation = {
    .name = "send-action/objc-set-implementation",
    .point = "send-action",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&setImplementation, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
