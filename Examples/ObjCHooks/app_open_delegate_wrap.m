/* The app opened from a link or a notification, the way Sensors' and GrowingIO's SDKs
   see it: -setDelegate: of UIApplication (and of UNUserNotificationCenter) is exchanged,
   and the delegate's own method — application:openURL:options: (and
   userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:) — is
   wrapped on every class of the delegate's chain that implements it, for the delegate
   set before the install too. Each wrapper is a block capturing that class's original
   (imp_implementationWithBlock); a subclass calling super runs two wrappers, which the
   combinator records as one call. Two hooks share the technique. */
#import <UIKit/UIKit.h>
#import <UserNotifications/UserNotifications.h>
#include <objc/runtime.h>
#include <stdio.h>
#include "autotrack_hook.h"
#include "add_then_exchange.h"
#include "own_method.h"

/* One hook's state: its installation, the delegate method it wraps and the classes
   whose own method is wrapped. */
struct delegateHook {
    autotrack_hook_installation *installation;
    const autotrack_hook_api *kit;
    BOOL exchanged;
    SEL method;
    Class wrapped[256];
    int wrappedCount;
};

static struct delegateHook openURL, notificationResponse;

struct opening {
    id delegate;
    IMP original;
    SEL selector;
    id first, second, third;
    BOOL answer;
};

static void runOpenURL(void *context) {
    struct opening *call = context;
    call->answer = ((BOOL (*)(id, SEL, id, id, id))(void *)call->original)(call->delegate, call->selector, call->first, call->second, call->third);
}

static void runNotificationResponse(void *context) {
    struct opening *call = context;
    ((void (*)(id, SEL, id, id, id))(void *)call->original)(call->delegate, call->selector, call->first, call->second, call->third);
}

static BOOL isWrapped(struct delegateHook *hook, Class cls) {
    for (int index = 0; index < hook->wrappedCount; index++) {
        if (hook->wrapped[index] == cls) return YES;
    }
    return NO;
}

/* Wraps the hook's method on every class of `delegate`'s chain that implements it. */
static void wrapDelegate(struct delegateHook *hook, id delegate) {
    if (delegate == nil) return;
    for (Class cls = object_getClass(delegate); cls != Nil; cls = class_getSuperclass(cls)) {
        Method method = own_method(cls, hook->method);
        if (method == NULL || isWrapped(hook, cls) || hook->wrappedCount == 256) continue;
        hook->wrapped[hook->wrappedCount++] = cls;
        IMP original = method_getImplementation(method);
        SEL selector = hook->method;
        IMP wrapper;
        if (hook == &openURL) {
            wrapper = imp_implementationWithBlock(^BOOL(id self, id application, id url, id options) {
                struct opening call = {self, original, selector, application, url, options, NO};
                autotrack_call intercepted = AUTOTRACK_CALL(self, selector, 3, AUTOTRACK_ARG(application), AUTOTRACK_ARG(url), AUTOTRACK_ARG(options));
                openURL.kit->intercept(openURL.installation, &intercepted, runOpenURL, &call);
                return call.answer;
            });
        } else {
            wrapper = imp_implementationWithBlock(^(id self, id center, id response, id completion) {
                struct opening call = {self, original, selector, center, response, completion, NO};
                autotrack_call intercepted = AUTOTRACK_CALL(self, selector, 3, AUTOTRACK_ARG(center), AUTOTRACK_ARG(response), AUTOTRACK_ARG(completion));
                notificationResponse.kit->intercept(notificationResponse.installation, &intercepted, runNotificationResponse, &call);
            });
        }
        if (wrapper != NULL) method_setImplementation(method, wrapper);
    }
}

@interface UIApplication (ExampleAppOpenHook)
- (void)example_application_setDelegate:(id)delegate;
@end

@interface UNUserNotificationCenter (ExampleAppOpenHook)
- (void)example_center_setDelegate:(id)delegate;
@end

@interface ExampleAppOpenHook : NSObject
@end

@implementation ExampleAppOpenHook
- (void)example_application_setDelegate:(id)delegate {
    wrapDelegate(&openURL, delegate);
    [(UIApplication *)self example_application_setDelegate:delegate];
}

- (void)example_center_setDelegate:(id)delegate {
    wrapDelegate(&notificationResponse, delegate);
    [(UNUserNotificationCenter *)self example_center_setDelegate:delegate];
}
@end

static int installOpenURL(autotrack_hook_installation *installation, const autotrack_hook_api *api, char *error, size_t capacity) {
    openURL.installation = installation;
    openURL.kit = api;
    openURL.method = @selector(application:openURL:options:);
    if (openURL.exchanged) return 0;
    Class application = (Class)api->class_named(installation, "UIApplication");
    if (application == Nil) {
        snprintf(error, capacity, "the host has no UIApplication");
        return -1;
    }
    if (!add_then_exchange([ExampleAppOpenHook class], application, @selector(setDelegate:), @selector(example_application_setDelegate:), error, capacity)) return -1;
    openURL.exchanged = YES;
    wrapDelegate(&openURL, [[application sharedApplication] delegate]);
    return 0;
}

static int installNotificationResponse(autotrack_hook_installation *installation, const autotrack_hook_api *api, char *error, size_t capacity) {
    notificationResponse.installation = installation;
    notificationResponse.kit = api;
    notificationResponse.method = @selector(userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:);
    if (notificationResponse.exchanged) return 0;
    Class center = (Class)api->class_named(installation, "UNUserNotificationCenter");
    if (center == Nil) {
        snprintf(error, capacity, "the host has no UNUserNotificationCenter");
        return -1;
    }
    if (!add_then_exchange([ExampleAppOpenHook class], center, @selector(setDelegate:), @selector(example_center_setDelegate:), error, capacity)) return -1;
    notificationResponse.exchanged = YES;
    wrapDelegate(&notificationResponse, [[center currentNotificationCenter] delegate]);
    return 0;
}

/* The wrappers stay: an uninstalled installation runs the originals alone. */
static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const openURLMethods[] = {"UIApplication setDelegate:", "UIApplication example_application_setDelegate:", NULL};
static const char *const notificationMethods[] = {
    "UNUserNotificationCenter setDelegate:", "UNUserNotificationCenter example_center_setDelegate:", NULL,
};

static const autotrack_hook_definition openURLHook = {
    .name = "open-url/objc-delegate-wrap",
    .point = "open-url",
    .hooked_methods = openURLMethods,
    .install = installOpenURL,
    .uninstall = uninstall,
};

static const autotrack_hook_definition notificationResponseHook = {
    .name = "notification-response/objc-delegate-wrap",
    .point = "notification-response",
    .hooked_methods = notificationMethods,
    .install = installNotificationResponse,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&openURLHook, &notificationResponseHook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
