/* NAIVE — caught by rule 3 (record then forward). A tracking target added to each tap
   or long-press recognizer with -addTarget:action: after the app's pair, as most
   tutorials show it: UIKit sends a recognizer's actions in the order the targets were
   added, so the click is recorded after the app's action ran — after the screen it
   pushed or the view it removed. The correct hook (../gesture_target_tracking.m) puts
   its target first. */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <stdio.h>
#include "autotrack_hook.h"
#include "../add_then_exchange.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
static BOOL exchanged;
static char trackerKey;
static Class tapClass, longPressClass;

@interface UIGestureRecognizer (NaiveAppendedTarget)
- (id)naive_initWithTarget:(id)target action:(SEL)action;
- (void)naive_addTarget:(id)target action:(SEL)action;
@end

@interface NaiveGestureTracker : NSObject
@end

@implementation NaiveGestureTracker
- (void)naive_recognized:(UIGestureRecognizer *)recognizer {
    autotrack_call recognized = AUTOTRACK_CALL(self, _cmd, 1, AUTOTRACK_ARG(recognizer));
    kit->intercept(installation, &recognized, NULL, NULL);
}
@end

/* Appends a tracking target once per tap or long-press recognizer. */
static void appendTracker(UIGestureRecognizer *recognizer) {
    if (!([recognizer isKindOfClass:tapClass] || [recognizer isKindOfClass:longPressClass]) || objc_getAssociatedObject(recognizer, &trackerKey) != nil) return;
    NaiveGestureTracker *tracker = [[NaiveGestureTracker alloc] init];
    objc_setAssociatedObject(recognizer, &trackerKey, tracker, OBJC_ASSOCIATION_RETAIN_NONATOMIC);
    [recognizer naive_addTarget:tracker action:@selector(naive_recognized:)];
    [tracker release];
}

@interface NaiveAppendedTargetHook : NSObject
@end

@implementation NaiveAppendedTargetHook
- (id)naive_initWithTarget:(id)target action:(SEL)action {
    UIGestureRecognizer *recognizer = [(UIGestureRecognizer *)self naive_initWithTarget:target action:action];
    if (target != nil) appendTracker(recognizer);
    return recognizer;
}

- (void)naive_addTarget:(id)target action:(SEL)action {
    [(UIGestureRecognizer *)self naive_addTarget:target action:action];
    if (target != nil) appendTracker((UIGestureRecognizer *)self);
}
@end

static int install(autotrack_hook_installation *newInstallation, const autotrack_hook_api *api, char *error, size_t capacity) {
    installation = newInstallation;
    kit = api;
    if (exchanged) return 0;
    Class recognizer = (Class)api->class_named(newInstallation, "UIGestureRecognizer");
    tapClass = (Class)api->class_named(newInstallation, "UITapGestureRecognizer");
    longPressClass = (Class)api->class_named(newInstallation, "UILongPressGestureRecognizer");
    if (recognizer == Nil || tapClass == Nil || longPressClass == Nil) {
        snprintf(error, capacity, "the host has no gesture recognizers");
        return -1;
    }
    if (!add_then_exchange([NaiveAppendedTargetHook class], recognizer, @selector(initWithTarget:action:),
                           @selector(naive_initWithTarget:action:), error, capacity)) return -1;
    if (!add_then_exchange([NaiveAppendedTargetHook class], recognizer, @selector(addTarget:action:),
                           @selector(naive_addTarget:action:), error, capacity)) return -1;
    exchanged = YES;
    return 0;
}

static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const hookedMethods[] = {
    "UIGestureRecognizer initWithTarget:action:", "UIGestureRecognizer naive_initWithTarget:action:",
    "UIGestureRecognizer addTarget:action:", "UIGestureRecognizer naive_addTarget:action:", NULL,
};

static const autotrack_hook_definition hook = {
    .name = "gesture/naive-appended-target",
    .point = "gesture",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&hook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
