/* NAIVE — caught by rule 5 (transparency). Delegate selection by dynamic subclass, as a
   tutorial writes it: on -setDelegate:, the delegate is moved (object_setClass) to a
   subclass of its class made at run time, whose selection method reports the click and
   calls super — but the subclass does not override -class, so the app (and the click's
   $screen_name, when the delegate is a controller) sees the generated class's name. */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <stdio.h>
#include <string.h>
#include "autotrack_hook.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
static BOOL exchanged;

struct selection {
    id delegate;
    Class superclass;
    SEL selector;
    id list;
    id indexPath;
};

static void runSuper(void *context) {
    struct selection *call = context;
    IMP original = class_getMethodImplementation(call->superclass, call->selector);
    ((void (*)(id, SEL, id, id))(void *)original)(call->delegate, call->selector, call->list, call->indexPath);
}

static void subclassSelection(id self, SEL selector, id list, id indexPath) {
    struct selection call = {self, class_getSuperclass(object_getClass(self)), selector, list, indexPath};
    autotrack_call intercepted = AUTOTRACK_CALL(self, selector, 2, AUTOTRACK_ARG(list), AUTOTRACK_ARG(indexPath));
    kit->intercept(installation, &intercepted, runSuper, &call);
}

/* The generated subclass of `cls`, made once. */
static Class subclassOf(Class cls) {
    char name[256];
    snprintf(name, sizeof(name), "NaiveTracking_%s", class_getName(cls));
    Class existing = objc_getClass(name);
    if (existing != Nil) return existing;
    Class made = objc_allocateClassPair(cls, name, 0);
    if (made == Nil) return Nil;
    const char *types = "v@:@@";
    class_addMethod(made, @selector(tableView:didSelectRowAtIndexPath:), (IMP)(void *)subclassSelection, types);
    class_addMethod(made, @selector(collectionView:didSelectItemAtIndexPath:), (IMP)(void *)subclassSelection, types);
    objc_registerClassPair(made);
    return made;
}

@interface UITableView (NaiveSubclassHook)
- (void)naive_subclass_setDelegate:(id)delegate;
@end

@interface NaiveSubclassHook : NSObject
@end

@implementation NaiveSubclassHook
- (void)naive_subclass_setDelegate:(id)delegate {
    if (delegate != nil && strncmp(class_getName(object_getClass(delegate)), "NaiveTracking_", 14) != 0) {
        Class subclass = subclassOf(object_getClass(delegate));
        if (subclass != Nil) object_setClass(delegate, subclass);
    }
    [(UITableView *)self naive_subclass_setDelegate:delegate];
}
@end

static int install(autotrack_hook_installation *newInstallation, const autotrack_hook_api *api, char *error, size_t capacity) {
    installation = newInstallation;
    kit = api;
    if (exchanged) return 0;
    const char *names[] = {"UITableView", "UICollectionView"};
    for (int index = 0; index < 2; index++) {
        Class list = (Class)api->class_named(newInstallation, names[index]);
        Method original = list ? class_getInstanceMethod(list, @selector(setDelegate:)) : NULL;
        Method replacement = class_getInstanceMethod([NaiveSubclassHook class], @selector(naive_subclass_setDelegate:));
        if (original == NULL) {
            snprintf(error, capacity, "the host has no -[%s setDelegate:]", names[index]);
            return -1;
        }
        class_addMethod(list, @selector(setDelegate:), method_getImplementation(original), method_getTypeEncoding(original));
        class_addMethod(list, @selector(naive_subclass_setDelegate:), method_getImplementation(replacement), method_getTypeEncoding(replacement));
        method_exchangeImplementations(class_getInstanceMethod(list, @selector(setDelegate:)),
                                       class_getInstanceMethod(list, @selector(naive_subclass_setDelegate:)));
    }
    exchanged = YES;
    return 0;
}

static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const hookedMethods[] = {
    "UITableView setDelegate:", "UITableView naive_subclass_setDelegate:",
    "UICollectionView setDelegate:", "UICollectionView naive_subclass_setDelegate:", NULL,
};

static const autotrack_hook_definition hook = {
    .name = "delegate-selection/naive-subclass-without-class",
    .point = "delegate-selection",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&hook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
