/* Taps and long presses on gesture recognizers, the way Sensors' and GrowingIO's SDKs
   capture them: -initWithTarget:action: and -addTarget:action: of UIGestureRecognizer
   are exchanged (add-then-exchange), and once a tap or long-press recognizer has the
   app's target, a tracking target of ours is added to it as well. The recognizer sends
   the tracking target's action at every state change, like any target's; its method
   hands that call to the kit's combinator with no original (the recognizer runs the
   app's targets itself), and the combinator records one click per recognition — a tap
   when it ends, a long press when it begins — while the recognizer still has an app
   target. Recognizers hold their targets weakly, so the tracking target is kept by the
   recognizer (an associated object), one per recognizer.

   The tracking target goes first in the recognizer's list, so the click is recorded
   before any app action runs (an action may remove the view the click names): for
   -initWithTarget:action: the app's pair is taken out and added again after ours, for a
   recognizer made with plain -init (storyboards) ours is added before the app's first
   pair. */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <stdio.h>
#include "autotrack_hook.h"
#include "add_then_exchange.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
/* Exchanged once per process: a reinstall finds the wrappers in place. */
static BOOL exchanged;
static char trackerKey;
static Class tapClass, longPressClass;

@interface UIGestureRecognizer (ExampleGestureHook)
- (instancetype)example_initWithTarget:(id)target action:(SEL)action;
- (void)example_addTarget:(id)target action:(SEL)action;
@end

/* The tracking target. */
@interface ExampleGestureTracker : NSObject
- (void)example_gestureRecognized:(UIGestureRecognizer *)recognizer;
@end

@implementation ExampleGestureTracker
- (void)example_gestureRecognized:(UIGestureRecognizer *)recognizer {
    /* The call as this target receives it; the combinator decides whether the state is
       the one that makes a click and reads the view, the app's action and the screen. */
    autotrack_call recognized = AUTOTRACK_CALL(self, _cmd, 1, AUTOTRACK_ARG(recognizer));
    kit->intercept(installation, &recognized, NULL, NULL);
}
@end

static BOOL tracksRecognitions(UIGestureRecognizer *recognizer) {
    return [recognizer isKindOfClass:tapClass] || [recognizer isKindOfClass:longPressClass];
}

/* Puts a tracking target on `recognizer` unless it has one, through the original
   -addTarget:action: (the exchanged selector). Returns whether it added one. */
static BOOL attachTracker(UIGestureRecognizer *recognizer) {
    if (!tracksRecognitions(recognizer) || objc_getAssociatedObject(recognizer, &trackerKey) != nil) return NO;
    ExampleGestureTracker *tracker = [[ExampleGestureTracker alloc] init];
    objc_setAssociatedObject(recognizer, &trackerKey, tracker, OBJC_ASSOCIATION_RETAIN_NONATOMIC);
    [recognizer example_addTarget:tracker action:@selector(example_gestureRecognized:)];
    [tracker release];
    return YES;
}

@interface ExampleGestureHook : NSObject
@end

@implementation ExampleGestureHook
- (id)example_initWithTarget:(id)target action:(SEL)action {
    UIGestureRecognizer *recognizer = [(UIGestureRecognizer *)self example_initWithTarget:target action:action];
    if (recognizer != nil && target != nil && action != NULL && attachTracker(recognizer)) {
        /* Ours was added after the app's pair: move the app's behind it. */
        [recognizer removeTarget:target action:action];
        [recognizer example_addTarget:target action:action];
    }
    return recognizer;
}

- (void)example_addTarget:(id)target action:(SEL)action {
    UIGestureRecognizer *recognizer = (UIGestureRecognizer *)self;
    if (target != nil && action != NULL) attachTracker(recognizer);
    [recognizer example_addTarget:target action:action];
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
        snprintf(error, capacity, "the host has no UIGestureRecognizer, UITapGestureRecognizer or UILongPressGestureRecognizer");
        return -1;
    }
    if (!add_then_exchange([ExampleGestureHook class], recognizer, @selector(initWithTarget:action:),
                           @selector(example_initWithTarget:action:), error, capacity)) return -1;
    if (!add_then_exchange([ExampleGestureHook class], recognizer, @selector(addTarget:action:),
                           @selector(example_addTarget:action:), error, capacity)) return -1;
    exchanged = YES;
    return 0;
}

static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    /* The wrappers and tracking targets stay: an uninstalled installation records
       nothing, and a reinstall reports through them again. */
    return 0;
}

static const char *const hookedMethods[] = {
    "UIGestureRecognizer initWithTarget:action:", "UIGestureRecognizer example_initWithTarget:action:",
    "UIGestureRecognizer addTarget:action:", "UIGestureRecognizer example_addTarget:action:", NULL,
};

static const autotrack_hook_definition hook = {
    .name = "gesture/objc-tracking-target",
    .point = "gesture",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&hook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
