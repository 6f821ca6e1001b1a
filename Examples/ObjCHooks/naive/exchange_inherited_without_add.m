/* NAIVE — caught by rule 4 (fail-open: the app crashes) and rule 1. The hook wants the
   clicks of buttons only, so it exchanges -sendAction:to:forEvent: on UIButton — which
   only inherits it — without adding it to UIButton first. method_exchangeImplementations
   then swaps UIControl's own method: every switch, slider and text field now runs the
   replacement, which sends a selector only UIButton has. */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <stdio.h>
#include "autotrack_hook.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
static BOOL exchanged;

@interface UIButton (NaiveInherited)
- (void)naive_sendAction:(SEL)action to:(id)target forEvent:(UIEvent *)event;
@end

@interface NaiveInheritedHook : NSObject
@end

struct sendActionCall {
    UIButton *button;
    SEL action;
    id target;
    UIEvent *event;
};

static void runOriginal(void *context) {
    struct sendActionCall *call = context;
    [call->button naive_sendAction:call->action to:call->target forEvent:call->event];
}

@implementation NaiveInheritedHook
- (void)naive_sendAction:(SEL)action to:(id)target forEvent:(UIEvent *)event {
    struct sendActionCall call = {(UIButton *)self, action, target, event};
    autotrack_call intercepted = AUTOTRACK_CALL(self, @selector(sendAction:to:forEvent:), 3,
                                                AUTOTRACK_SEL(action), AUTOTRACK_ARG(target), AUTOTRACK_ARG(event));
    kit->intercept(installation, &intercepted, runOriginal, &call);
}
@end

static int install(autotrack_hook_installation *newInstallation, const autotrack_hook_api *api, char *error, size_t capacity) {
    installation = newInstallation;
    kit = api;
    if (exchanged) return 0;
    Class button = (Class)api->class_named(newInstallation, "UIButton");
    if (button == Nil) {
        snprintf(error, capacity, "the host has no UIButton");
        return -1;
    }
    SEL replacement = @selector(naive_sendAction:to:forEvent:);
    Method replacementMethod = class_getInstanceMethod([NaiveInheritedHook class], replacement);
    class_addMethod(button, replacement, method_getImplementation(replacementMethod), method_getTypeEncoding(replacementMethod));
    /* The mistake: the inherited method is UIControl's. */
    method_exchangeImplementations(class_getInstanceMethod(button, @selector(sendAction:to:forEvent:)),
                                   class_getInstanceMethod(button, replacement));
    exchanged = YES;
    return 0;
}

static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const hookedMethods[] = {"UIButton naive_sendAction:to:forEvent:", NULL};

static const autotrack_hook_definition hook = {
    .name = "send-action/naive-exchange-inherited",
    .point = "send-action",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&hook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
