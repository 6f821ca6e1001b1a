/* NAIVE — caught by rule 3 (record then forward). The hook runs UIKit's original first
   and reports the click afterwards, handing the combinator an empty original: a click
   is recorded after the events its action caused (a screen it pushed, a list it
   reloaded), and with the state the action left behind. */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <stdio.h>
#include "autotrack_hook.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
static BOOL exchanged;

@interface UIControl (NaiveRecordAfter)
- (void)naive_sendAction:(SEL)action to:(id)target forEvent:(UIEvent *)event;
- (void)naive_sendAction:(id)closureAction;
@end

@interface NaiveRecordAfterHook : NSObject
@end

static void nothing(void *context) { (void)context; }

@implementation NaiveRecordAfterHook
- (void)naive_sendAction:(SEL)action to:(id)target forEvent:(UIEvent *)event {
    [(UIControl *)self naive_sendAction:action to:target forEvent:event];
    autotrack_call call = AUTOTRACK_CALL(self, @selector(sendAction:to:forEvent:), 3,
                                         AUTOTRACK_SEL(action), AUTOTRACK_ARG(target), AUTOTRACK_ARG(event));
    kit->intercept(installation, &call, nothing, NULL);
}

- (void)naive_sendAction:(id)closureAction {
    [(UIControl *)self naive_sendAction:closureAction];
    autotrack_call call = AUTOTRACK_CALL(self, @selector(sendAction:), 1, AUTOTRACK_ARG(closureAction));
    kit->intercept(installation, &call, nothing, NULL);
}
@end

static void exchange(Class cls, SEL original, SEL replacement) {
    Method replacementMethod = class_getInstanceMethod([NaiveRecordAfterHook class], replacement);
    Method originalMethod = class_getInstanceMethod(cls, original);
    class_addMethod(cls, original, method_getImplementation(originalMethod), method_getTypeEncoding(originalMethod));
    class_addMethod(cls, replacement, method_getImplementation(replacementMethod), method_getTypeEncoding(replacementMethod));
    method_exchangeImplementations(class_getInstanceMethod(cls, original), class_getInstanceMethod(cls, replacement));
}

static int install(autotrack_hook_installation *newInstallation, const autotrack_hook_api *api, char *error, size_t capacity) {
    installation = newInstallation;
    kit = api;
    if (exchanged) return 0;
    Class control = (Class)api->class_named(newInstallation, "UIControl");
    if (control == Nil) {
        snprintf(error, capacity, "the host has no UIControl");
        return -1;
    }
    exchange(control, @selector(sendAction:to:forEvent:), @selector(naive_sendAction:to:forEvent:));
    exchange(control, @selector(sendAction:), @selector(naive_sendAction:));
    exchanged = YES;
    return 0;
}

static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const hookedMethods[] = {
    "UIControl sendAction:to:forEvent:", "UIControl naive_sendAction:to:forEvent:",
    "UIControl sendAction:", "UIControl naive_sendAction:", NULL,
};

static const autotrack_hook_definition hook = {
    .name = "send-action/naive-record-after-original",
    .point = "send-action",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&hook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
