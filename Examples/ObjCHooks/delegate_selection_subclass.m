/* List selections by dynamic subclass, the way KVO itself works and some SDKs hook
   delegates: on -setDelegate: (exchanged on UITableView and UICollectionView), the
   delegate is moved (object_setClass) to a subclass of its class made at run time, once
   per class, whose selection method reports the click and runs the class's own.

   What makes it correct where a tutorial's is not:
   - the subclass answers -class as the class below it does, so the app, the click's
     $screen_name and a KVO-observed delegate (whose class already masks -class) see
     what they saw before;
   - the original is found from the superclass the subclass was made for, kept with it —
     never from object_getClass(self), which KVO may have moved on top of ours;
   - only selection methods the delegate's class implements are overridden:
     -respondsToSelector: keeps the app's answer;
   - a delegate already moved (set on a second list, or again) is not moved again.
   Uninstalling turns the installation off: the subclasses stay and pass calls through. */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "autotrack_hook.h"
#include "add_then_exchange.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
static BOOL exchanged;

static const char prefix[] = "AutoTrackExampleSelection_";

/* Each generated subclass with the class it was made under. Entries are only appended,
   under the lock, and published by the count. */
enum { MAX_SUBCLASSES = 512 };
static struct { Class subclass; Class superclass; } made[MAX_SUBCLASSES];
static int madeCount;
static pthread_mutex_t madeLock = PTHREAD_MUTEX_INITIALIZER;

/* The class a generated subclass was made under; Nil for any other class. */
static Class superclassOf(Class subclass) {
    int count = __atomic_load_n(&madeCount, __ATOMIC_ACQUIRE);
    for (int index = 0; index < count; index++) {
        if (made[index].subclass == subclass) return made[index].superclass;
    }
    return Nil;
}

/* The generated subclass in `cls`'s chain (from the object's real class up: KVO may sit
   on top of ours), and the class it was made under. */
static Class generatedIn(Class cls, Class *below) {
    for (Class current = cls; current != Nil; current = class_getSuperclass(current)) {
        Class superclass = superclassOf(current);
        if (superclass != Nil) {
            *below = superclass;
            return current;
        }
    }
    return Nil;
}

struct selection {
    id delegate;
    SEL selector;
    id list;
    id indexPath;
    IMP original;
};

static void runOriginal(void *context) {
    struct selection *call = context;
    ((void (*)(id, SEL, id, id))(void *)call->original)(call->delegate, call->selector, call->list, call->indexPath);
}

static void subclassSelection(id self, SEL selector, id list, id indexPath) {
    Class below = Nil;
    generatedIn(object_getClass(self), &below);
    /* The class's own selection method: what [super …] from the subclass runs. */
    struct selection call = {self, selector, list, indexPath, class_getMethodImplementation(below, selector)};
    autotrack_call intercepted = AUTOTRACK_CALL(self, selector, 2, AUTOTRACK_ARG(list), AUTOTRACK_ARG(indexPath));
    kit->intercept(installation, &intercepted, runOriginal, &call);
}

/* -class as the class below answers it: the delegate's class, or what KVO's subclass
   reports for an observed delegate. */
static Class subclassReportedClass(id self, SEL selector) {
    Class below = Nil;
    generatedIn(object_getClass(self), &below);
    return ((Class (*)(id, SEL))(void *)class_getMethodImplementation(below, selector))(self, selector);
}

/* The generated subclass of `cls`, made once; Nil when `cls` implements no selection
   method (nothing to report, nothing to change). */
static Class subclassOf(Class cls) {
    SEL selections[] = {@selector(tableView:didSelectRowAtIndexPath:), @selector(collectionView:didSelectItemAtIndexPath:)};
    BOOL implements = NO;
    for (int index = 0; index < 2; index++) implements = implements || class_respondsToSelector(cls, selections[index]);
    if (!implements) return Nil;
    char name[256];
    snprintf(name, sizeof(name), "%s%s", prefix, class_getName(cls));
    pthread_mutex_lock(&madeLock);
    Class subclass = objc_getClass(name);
    if (subclass == Nil && madeCount < MAX_SUBCLASSES) {
        subclass = objc_allocateClassPair(cls, name, 0);
        if (subclass != Nil) {
            for (int index = 0; index < 2; index++) {
                if (class_respondsToSelector(cls, selections[index])) {
                    class_addMethod(subclass, selections[index], (IMP)(void *)subclassSelection, "v@:@@");
                }
            }
            class_addMethod(subclass, @selector(class), (IMP)(void *)subclassReportedClass, "#@:");
            objc_registerClassPair(subclass);
            made[madeCount].subclass = subclass;
            made[madeCount].superclass = cls;
            __atomic_store_n(&madeCount, madeCount + 1, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&madeLock);
    return subclass;
}

@interface UITableView (ExampleSubclassHook)
- (void)example_subclass_setDelegate:(id)delegate;
@end

@interface ExampleSubclassHook : NSObject
- (void)example_subclass_setDelegate:(id)delegate;
@end

@implementation ExampleSubclassHook
- (void)example_subclass_setDelegate:(id)delegate {
    Class below = Nil;
    if (delegate != nil && generatedIn(object_getClass(delegate), &below) == Nil) {
        Class subclass = subclassOf(object_getClass(delegate));
        if (subclass != Nil) object_setClass(delegate, subclass);
    }
    /* After the exchange, this selector runs UIKit's -setDelegate:. */
    [(UITableView *)self example_subclass_setDelegate:delegate];
}
@end

static int install(autotrack_hook_installation *newInstallation, const autotrack_hook_api *api, char *error, size_t capacity) {
    installation = newInstallation;
    kit = api;
    if (exchanged) return 0;
    const char *names[] = {"UITableView", "UICollectionView"};
    for (int index = 0; index < 2; index++) {
        Class list = (Class)api->class_named(newInstallation, names[index]);
        if (list == Nil) {
            snprintf(error, capacity, "the host has no %s", names[index]);
            return -1;
        }
        if (!add_then_exchange([ExampleSubclassHook class], list, @selector(setDelegate:), @selector(example_subclass_setDelegate:), error, capacity)) return -1;
    }
    exchanged = YES;
    return 0;
}

static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const hookedMethods[] = {
    "UITableView setDelegate:", "UITableView example_subclass_setDelegate:",
    "UICollectionView setDelegate:", "UICollectionView example_subclass_setDelegate:", NULL,
};

static const autotrack_hook_definition hook = {
    .name = "delegate-selection/objc-subclass",
    .point = "delegate-selection",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&hook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
