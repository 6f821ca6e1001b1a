/* List selections, the way Sensors' SDK hooks them: -setDelegate: of UITableView and
   UICollectionView is exchanged, and each delegate class that implements the selection
   method gets its implementation replaced (method_setImplementation) by one wrapper,
   the original kept per class.

   A delegate subclass whose override calls super runs the wrapper twice — once for its
   own method, once for the superclass's — so the wrapper must find, each time, the
   original of the class whose method is running: it remembers on the thread which class
   the object's next original is looked for from. The kit's combinator makes the two
   runs one click (the same list and index path). */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "autotrack_hook.h"
#include "add_then_exchange.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
static BOOL exchanged;

/* The classes whose selection method was replaced, with its original. */
enum { MAX_CLASSES = 512 };
static struct { Class cls; SEL selector; IMP original; } replaced[MAX_CLASSES];
static int replacedCount;
/* Entries are only ever appended, under the lock, and published by the count (release);
   readers load the count (acquire) and read the prefix it covers, without the lock. */
static pthread_mutex_t replacedLock = PTHREAD_MUTEX_INITIALIZER;

static IMP originalOf(Class cls, SEL selector) {
    IMP found = NULL;
    int count = __atomic_load_n(&replacedCount, __ATOMIC_ACQUIRE);
    for (int index = 0; index < count && found == NULL; index++) {
        if (replaced[index].cls == cls && sel_isEqual(replaced[index].selector, selector)) found = replaced[index].original;
    }
    return found;
}

/* Where the running object's next original is looked for from: set while an original
   runs, so that its [super …] finds the superclass's. */
static __thread id searchObject;
static __thread Class searchFrom;

struct selection {
    id delegate;
    SEL selector;
    id list;
    id indexPath;
    IMP original;
    Class next;
};

static void runSelection(void *context) {
    struct selection *call = context;
    id savedObject = searchObject;
    Class savedClass = searchFrom;
    searchObject = call->delegate;
    searchFrom = call->next;
    ((void (*)(id, SEL, id, id))(void *)call->original)(call->delegate, call->selector, call->list, call->indexPath);
    searchObject = savedObject;
    searchFrom = savedClass;
}

static void wrappedSelection(id self, SEL selector, id list, id indexPath) {
    Class owner = (searchObject == self && searchFrom != Nil) ? searchFrom : object_getClass(self);
    IMP original = NULL;
    while (owner != Nil && (original = originalOf(owner, selector)) == NULL) owner = class_getSuperclass(owner);
    if (original == NULL) return; /* unreachable: the wrapper is only where an original was kept */
    struct selection call = {self, selector, list, indexPath, original, class_getSuperclass(owner)};
    autotrack_call intercepted = AUTOTRACK_CALL(self, selector, 2, AUTOTRACK_ARG(list), AUTOTRACK_ARG(indexPath));
    kit->intercept(installation, &intercepted, runSelection, &call);
}

/* Whether `cls` has a method of its own for `selector`. */
static BOOL ownsMethod(Class cls, SEL selector) {
    unsigned int count = 0;
    Method *methods = class_copyMethodList(cls, &count);
    BOOL owns = NO;
    for (unsigned int index = 0; index < count && !owns; index++) owns = sel_isEqual(method_getName(methods[index]), selector);
    free(methods);
    return owns;
}

/* The object that implements `selector` for `delegate`: the delegate, or — for a
   forwarding proxy such as RxCocoa's, which answers respondsToSelector: but implements
   nothing — the object its forwardingTargetForSelector: names (a few steps at most). */
static id implementorOf(id delegate, SEL selector) {
    id current = delegate;
    for (int step = 0; step < 4 && current != nil; step++) {
        if (class_respondsToSelector(object_getClass(current), selector)) return current;
        if (![current respondsToSelector:selector]) return nil;
        id next = [current forwardingTargetForSelector:selector];
        if (next == current) return nil;
        current = next;
    }
    return nil;
}

/* The class to wrap for `object`: its class, below any key-value observing layer (a
   class of its own answering removeObserver:forKeyPath:, which KVO removes again). */
static Class wrappableClass(id object) {
    Class cls = object_getClass(object);
    while (class_getSuperclass(cls) != Nil && ownsMethod(cls, @selector(removeObserver:forKeyPath:))) cls = class_getSuperclass(cls);
    return cls;
}

/* Wraps `selector` in the class of the object implementing it for `delegate`, once:
   its own method's implementation is replaced; an inherited one gets a method of the
   class's own first (added, the inherited implementation as its original), so the
   superclass and its other subclasses are untouched. */
static void wrapSelection(id delegate, SEL selector) {
    id implementor = implementorOf(delegate, selector);
    if (implementor == nil) return; /* nothing implements it: nothing to record, nothing to add */
    Class cls = wrappableClass(implementor);
    Method method = class_getInstanceMethod(cls, selector);
    if (method == NULL) return;
    IMP wrapper = (IMP)(void *)wrappedSelection;
    pthread_mutex_lock(&replacedLock);
    if (originalOf(cls, selector) == NULL && replacedCount < MAX_CLASSES) {
        IMP original = method_getImplementation(method);
        if (ownsMethod(cls, selector)) {
            original = method_setImplementation(method, wrapper);
        } else {
            class_addMethod(cls, selector, wrapper, method_getTypeEncoding(method));
        }
        replaced[replacedCount].cls = cls;
        replaced[replacedCount].selector = selector;
        replaced[replacedCount].original = original;
        __atomic_store_n(&replacedCount, replacedCount + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&replacedLock);
}

@interface UITableView (ExampleSelectionHook)
- (void)example_setTableDelegate:(id)delegate;
@end
@interface UICollectionView (ExampleSelectionHook)
- (void)example_setCollectionDelegate:(id)delegate;
@end

@interface ExampleSelectionHook : NSObject
@end

@implementation ExampleSelectionHook
- (void)example_setTableDelegate:(id)delegate {
    if (delegate != nil) wrapSelection(delegate, @selector(tableView:didSelectRowAtIndexPath:));
    [(UITableView *)self example_setTableDelegate:delegate];
}

- (void)example_setCollectionDelegate:(id)delegate {
    if (delegate != nil) wrapSelection(delegate, @selector(collectionView:didSelectItemAtIndexPath:));
    [(UICollectionView *)self example_setCollectionDelegate:delegate];
}
@end

/* Lists whose delegate was set before the hook: their delegates' classes now. */
static int install(autotrack_hook_installation *newInstallation, const autotrack_hook_api *api, char *error, size_t capacity) {
    installation = newInstallation;
    kit = api;
    if (exchanged) return 0;
    Class table = (Class)api->class_named(newInstallation, "UITableView");
    Class collection = (Class)api->class_named(newInstallation, "UICollectionView");
    if (table == Nil || collection == Nil) {
        snprintf(error, capacity, "the host has no UITableView or UICollectionView");
        return -1;
    }
    if (!add_then_exchange([ExampleSelectionHook class], table, @selector(setDelegate:), @selector(example_setTableDelegate:), error, capacity)) return -1;
    if (!add_then_exchange([ExampleSelectionHook class], collection, @selector(setDelegate:), @selector(example_setCollectionDelegate:), error, capacity)) return -1;
    exchanged = YES;
    return 0;
}

static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const hookedMethods[] = {
    "UITableView setDelegate:", "UITableView example_setTableDelegate:",
    "UICollectionView setDelegate:", "UICollectionView example_setCollectionDelegate:", NULL,
};

static const autotrack_hook_definition hook = {
    .name = "delegate-selection/objc-swizzle",
    .point = "delegate-selection",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&hook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
