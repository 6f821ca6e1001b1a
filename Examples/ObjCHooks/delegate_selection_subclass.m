/* List selections by dynamic subclass, KVO-aware, the way Sensors' SDK isa-swizzles a
   delegate: -setDelegate: of UITableView and UICollectionView is exchanged, and the
   delegate is moved (object_setClass) onto a subclass of its class made at run time,
   one per class. The subclass's selection methods hand each call to the kit's
   combinator, whose original is the superclass's method (objc_msgSendSuper); its -class
   reports the app's class.

   Key-value observing isa-swizzles too, so the two must take turns: the subclass always
   sits on top of KVO's class. An object observed before it is hooked gets a subclass of
   KVO's class. One observed after answers -addObserver:forKeyPath:options:context: by
   stepping aside (back onto the class below), letting KVO build its class there, and
   stepping back on top; it answers -removeObserver:forKeyPath: the same way, so KVO
   finds its own class on top as it requires, then steps back onto whatever class KVO
   left: KVO's while observers remain, the app's once the last is gone. */
#import <UIKit/UIKit.h>
#include <objc/message.h>
#include <objc/runtime.h>
#include <stdio.h>
#include <string.h>
#include "autotrack_hook.h"
#include "add_then_exchange.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
static BOOL exchanged;

static const char subclassPrefix[] = "ExampleTracking_";

static BOOL isOurs(Class cls) { return strncmp(class_getName(cls), subclassPrefix, sizeof subclassPrefix - 1) == 0; }
static BOOL isKeyValueObserving(Class cls) { return strncmp(class_getName(cls), "NSKVONotifying_", 15) == 0; }

/* Our subclass in `object`'s class chain (normally its class itself), or Nil. */
static Class ourSubclass(id object) {
    for (Class cls = object_getClass(object); cls != Nil; cls = class_getSuperclass(cls)) {
        if (isOurs(cls)) return cls;
    }
    return Nil;
}

struct selection {
    id delegate;
    Class above;
    SEL selector;
    id list;
    id indexPath;
};

static void runSuper(void *context) {
    struct selection *call = context;
    struct objc_super above = {call->delegate, call->above};
    ((void (*)(struct objc_super *, SEL, id, id))objc_msgSendSuper)(&above, call->selector, call->list, call->indexPath);
}

static void subclassSelection(id self, SEL selector, id list, id indexPath) {
    struct selection call = {self, class_getSuperclass(ourSubclass(self)), selector, list, indexPath};
    autotrack_call intercepted = AUTOTRACK_CALL(self, selector, 2, AUTOTRACK_ARG(list), AUTOTRACK_ARG(indexPath));
    kit->intercept(installation, &intercepted, runSuper, &call);
}

/* The app's class: KVO's class, when ours sits on it, says which. */
static Class reportedClass(id self, SEL _cmd) {
    Class below = class_getSuperclass(ourSubclass(self));
    if (!isKeyValueObserving(below)) return below;
    struct objc_super above = {self, below};
    return ((Class (*)(struct objc_super *, SEL))objc_msgSendSuper)(&above, _cmd);
}

static Class subclassOf(Class cls, BOOL tables, BOOL collections);

/* Puts our layer back on top of whatever class `object` has now — when it takes
   selections at all: a delegate that answers neither selection method (asked as the
   list asks, so a forwarding proxy answers for its target) keeps its class, and keeps
   answering NO. */
static void relayer(id object) {
    if (ourSubclass(object) != Nil) return;
    BOOL tables = [object respondsToSelector:@selector(tableView:didSelectRowAtIndexPath:)];
    BOOL collections = [object respondsToSelector:@selector(collectionView:didSelectItemAtIndexPath:)];
    if (!tables && !collections) return;
    Class subclass = subclassOf(object_getClass(object), tables, collections);
    if (subclass != Nil) object_setClass(object, subclass);
}

/* -addObserver:forKeyPath:options:context: while ours is on top: KVO observes the class
   below, then ours goes back on top of KVO's class. */
static void stepAsideForNewObservation(id self, SEL _cmd, id observer, id keyPath, NSUInteger options, void *context) {
    Class ours = ourSubclass(self);
    if (ours != object_getClass(self)) {
        struct objc_super above = {self, class_getSuperclass(ours)};
        ((void (*)(struct objc_super *, SEL, id, id, NSUInteger, void *))objc_msgSendSuper)(&above, _cmd, observer, keyPath, options, context);
        return;
    }
    object_setClass(self, class_getSuperclass(ours));
    @try {
        ((void (*)(id, SEL, id, id, NSUInteger, void *))objc_msgSend)(self, _cmd, observer, keyPath, options, context);
    } @finally {
        relayer(self);
    }
}

/* -removeObserver:forKeyPath: while ours is on KVO's class: KVO removes it with its own
   class on top (restoring the app's class after the last), then ours goes back on top. */
static void stepAsideForRemoval(id self, SEL _cmd, id observer, id keyPath) {
    Class ours = ourSubclass(self);
    Class below = class_getSuperclass(ours);
    if (ours != object_getClass(self) || !isKeyValueObserving(below)) {
        struct objc_super above = {self, below};
        ((void (*)(struct objc_super *, SEL, id, id))objc_msgSendSuper)(&above, _cmd, observer, keyPath);
        return;
    }
    object_setClass(self, below);
    @try {
        ((void (*)(id, SEL, id, id))objc_msgSend)(self, _cmd, observer, keyPath);
    } @finally {
        relayer(self);
    }
}

/* The subclass of `cls`, made once, with the selection methods its instances answer. */
static Class subclassOf(Class cls, BOOL tables, BOOL collections) {
    /* One per class and answer: a forwarding proxy class's instances answer as their
       targets do. */
    char name[256];
    snprintf(name, sizeof name, "%s%s%s%s", subclassPrefix, class_getName(cls), tables ? "" : "_NoTables", collections ? "" : "_NoCollections");
    Class existing = objc_getClass(name);
    if (existing != Nil) return existing;
    Class made = objc_allocateClassPair(cls, name, 0);
    if (made == Nil) return Nil;
    if (tables) class_addMethod(made, @selector(tableView:didSelectRowAtIndexPath:), (IMP)(void *)subclassSelection, "v@:@@");
    if (collections) class_addMethod(made, @selector(collectionView:didSelectItemAtIndexPath:), (IMP)(void *)subclassSelection, "v@:@@");
    class_addMethod(made, @selector(class), (IMP)(void *)reportedClass, "#@:");
    class_addMethod(made, @selector(addObserver:forKeyPath:options:context:), (IMP)(void *)stepAsideForNewObservation, "v@:@@Q^v");
    class_addMethod(made, @selector(removeObserver:forKeyPath:), (IMP)(void *)stepAsideForRemoval, "v@:@@");
    objc_registerClassPair(made);
    return made;
}

@interface UITableView (ExampleSubclassHook)
- (void)example_subclass_setDelegate:(id)delegate;
@end

@interface ExampleSubclassHook : NSObject
@end

@implementation ExampleSubclassHook
- (void)example_subclass_setDelegate:(id)delegate {
    if (delegate != nil) relayer(delegate);
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
    /* Delegates keep our subclass: an uninstalled installation records nothing. */
    return 0;
}

static const char *const hookedMethods[] = {
    "UITableView setDelegate:", "UITableView example_subclass_setDelegate:",
    "UICollectionView setDelegate:", "UICollectionView example_subclass_setDelegate:", NULL,
};

static const autotrack_hook_definition hook = {
    .name = "delegate-selection/objc-kvo-aware-subclass",
    .point = "delegate-selection",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&hook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
