/*
 * autotrack_hook.h — hooks written in C or Objective-C against the real Objective-C
 * runtime, proven by the AutoTrack conformance kit.
 *
 * A hook library is a shared library exporting one symbol, autotrack_hook_library(),
 * which lists its hooks. Each hook installs itself the way iOS SDKs do — method
 * exchange, a dynamic subclass, a forwarding proxy — and its wrapper hands every call it
 * intercepts to the exactly-once combinator, api->intercept(), with a function that
 * runs the original. The combinator records the interaction the call is (a click, a
 * screen view, or none), before the original, then runs the original exactly once —
 * with tracking off, filtered, deduplicated or failing alike. The wrapper never calls
 * the original itself.
 *
 *     static IMP originalSendAction;
 *     static autotrack_hook_installation *installation;
 *     static const autotrack_hook_api *api;
 *
 *     struct send { id self; SEL cmd; SEL action; id target; id event; };
 *     static void runOriginal(void *context) {
 *         struct send *s = context;
 *         ((void (*)(id, SEL, SEL, id, id))originalSendAction)(s->self, s->cmd, s->action, s->target, s->event);
 *     }
 *     static void wrappedSendAction(id self, SEL cmd, SEL action, id target, id event) {
 *         struct send s = {self, cmd, action, target, event};
 *         autotrack_call call = AUTOTRACK_CALL(self, @selector(sendAction:to:forEvent:), 3,
 *                                              AUTOTRACK_SEL(action), AUTOTRACK_ARG(target), AUTOTRACK_ARG(event));
 *         api->intercept(installation, &call, runOriginal, &s);
 *     }
 *
 * Examples/ObjCHooks has complete hooks, one per technique, and the naive versions the
 * kit catches. Build a library with the flags `autotrack cflags` and `autotrack ldflags`
 * print, and run the catalog on it with `autotrack conformance --hook-library PATH.so`.
 */
#ifndef AUTOTRACK_HOOK_H
#define AUTOTRACK_HOOK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface: api->version is at least this. */
#define AUTOTRACK_HOOK_API_VERSION 1

/* The most arguments (after self and _cmd) a call passes. */
#define AUTOTRACK_CALL_MAX_ARGUMENTS 8

/* One installation of a hook on one host, for one tracker: what the combinator records
 * for. Opaque; valid from install() until the process ends. */
typedef struct autotrack_hook_installation autotrack_hook_installation;

/* Runs the original implementation with the intercepted call's arguments (and keeps
 * its return value where the wrapper will return it). */
typedef void (*autotrack_original_function)(void *context);

/* An intercepted call, as the framework method receives it. */
typedef struct autotrack_call {
    /* The receiver: `self` of the framework method. */
    void *receiver;
    /* The framework method's selector, as the host names it (`sendAction:to:forEvent:`,
     * `tableView:didSelectRowAtIndexPath:`, `viewDidAppear:`) — best named outright, not
     * the selector a swizzled copy runs under. A hook passing `_cmd` still works: once
     * another library exchanged the method on top, `_cmd` is that library's selector,
     * and the kit then tells the call by its arguments (the send-action forms) or reads
     * it as the point's main method (`viewDidAppear:` at screen-view). */
    void *selector;
    /* How many of `arguments` the method takes. */
    int argument_count;
    /* The arguments after self and _cmd, each widened to 64 bits: objects, classes and
     * selectors as their pointers, BOOL as 0 or 1, integers sign-extended. */
    uint64_t arguments[AUTOTRACK_CALL_MAX_ARGUMENTS];
} autotrack_call;

/* An object, class, pointer, BOOL or integer as an argument of autotrack_call. */
#define AUTOTRACK_ARG(value) ((uint64_t)(uintptr_t)(value))
/* A selector as an argument of autotrack_call. */
#define AUTOTRACK_SEL(selector) ((uint64_t)(uintptr_t)(const void *)(selector))

/* An autotrack_call: AUTOTRACK_CALL(self, @selector(viewDidAppear:), 1, animated). */
#define AUTOTRACK_CALL(receiver_, selector_, count_, ...) \
    ((autotrack_call){(void *)(receiver_), (void *)(const void *)(selector_), (count_), {__VA_ARGS__}})

/* What the kit gives a hook. */
typedef struct autotrack_hook_api {
    /* AUTOTRACK_HOOK_API_VERSION or later. */
    uint32_t version;
    /* The exactly-once combinator: records the interaction `call` is, if any, then calls
     * original(context) exactly once, and returns after it. A call it cannot read, or an
     * installation that was uninstalled, runs the original alone. Thread-safe.
     * A call that has no original of its own passes NULL: a gesture hook's tracking
     * target, whose action the recognizer sends at every state change next to the app's
     * targets, hands over that call as it receives it (receiver: the tracking target,
     * its action, the recognizer as the one argument) and the combinator decides whether
     * it is a click; its receiver, an object of the hook's own, need not be one the host
     * knows. At the screen-view point, a call whose selector is
     * applicationWillEnterForeground: (an observer of
     * UIApplicationWillEnterForegroundNotification, or the app delegate's method, with
     * the application as the argument) records the visible screen: UIKit sends no
     * viewDidAppear: when the app returns. */
    void (*intercept)(autotrack_hook_installation *installation, const autotrack_call *call,
                      autotrack_original_function original, void *context);
    /* The host's class named `name` (`UIControl`, `UITableView` …) as a `Class`, or NULL.
     * Prefer it to objc_getClass(): a process may hold more than one host. */
    void *(*class_named)(autotrack_hook_installation *installation, const char *name);
} autotrack_hook_api;

/* One hook of a library. */
typedef struct autotrack_hook_definition {
    /* The hook's name, e.g. "send-action/objc-exchange". */
    const char *name;
    /* Its interception point: "send-action", "gesture", "alert-action",
     * "delegate-selection", "screen-view", "swiftui-tap" or "touch-end" (calls of
     * -[UIApplication sendEvent:]), "open-url" (the app delegate's
     * application:openURL:options:) or "notification-response" (the notification
     * center delegate's userNotificationCenter:didReceiveNotificationResponse:
     * withCompletionHandler:). */
    const char *point;
    /* The framework methods installing changes, NULL-terminated: "UIControl
     * sendAction:to:forEvent:" ("+UIView load" for a class method). Methods a hook adds
     * to a framework class (a swizzled copy) count. The kit checks this list. */
    const char *const *hooked_methods;
    /* Installs the hook: keep `installation` and `api` for the wrappers. Returns 0, or
     * -1 with a message in `error` (at most `error_capacity` bytes). May be called again
     * after uninstall(): a wrapper still in place must not be wrapped twice. */
    int (*install)(autotrack_hook_installation *installation, const autotrack_hook_api *api, char *error, size_t error_capacity);
    /* Uninstalls it. Returns 1 when the original behaviour is restored, 0 when the
     * wrapper stays in place (another library's hook was stacked on it): the combinator
     * then runs the original alone for it. */
    int (*uninstall)(autotrack_hook_installation *installation);
} autotrack_hook_definition;

/* The one symbol a hook library exports: its hooks, NULL-terminated. */
const autotrack_hook_definition *const *autotrack_hook_library(void);

#ifdef __cplusplus
}
#endif

#endif /* AUTOTRACK_HOOK_H */
