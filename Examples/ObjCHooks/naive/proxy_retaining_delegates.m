/* NAIVE — caught by rule 1 (original once: DS-09). A forwarding proxy as a hurried SDK
   writes it: the proxy retains the app's delegate and the SDK keeps every proxy it made
   in a list, so nothing it ever wrapped is released — a delegate the app let go of
   still receives selections, running code for a screen that is gone. */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <stdio.h>
#include "autotrack_hook.h"
#include "../add_then_exchange.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
static BOOL exchanged;
static NSMutableArray *allProxies;

@interface NaiveRetainingProxy : NSProxy {
  @public
    /* The app's delegate, retained. */
    id target;
}
@end

struct selection {
    id target;
    SEL selector;
    id list;
    id indexPath;
};

static void runTableSelection(void *context) {
    struct selection *call = context;
    [(id<UITableViewDelegate>)call->target tableView:call->list didSelectRowAtIndexPath:call->indexPath];
}

static void runCollectionSelection(void *context) {
    struct selection *call = context;
    [(id<UICollectionViewDelegate>)call->target collectionView:call->list didSelectItemAtIndexPath:call->indexPath];
}

static void intercept(NaiveRetainingProxy *proxy, SEL selector, id list, id indexPath, autotrack_original_function original) {
    struct selection call = {proxy->target, selector, list, indexPath};
    /* The receiver the framework method has is the app's delegate, not the proxy. */
    autotrack_call intercepted = AUTOTRACK_CALL(proxy->target, selector, 2, AUTOTRACK_ARG(list), AUTOTRACK_ARG(indexPath));
    kit->intercept(installation, &intercepted, original, &call);
}

@implementation NaiveRetainingProxy
- (void)tableView:(UITableView *)tableView didSelectRowAtIndexPath:(id)indexPath {
    intercept(self, _cmd, tableView, indexPath, runTableSelection);
}

- (void)collectionView:(UICollectionView *)collectionView didSelectItemAtIndexPath:(id)indexPath {
    intercept(self, _cmd, collectionView, indexPath, runCollectionSelection);
}

- (BOOL)respondsToSelector:(SEL)selector {
    return [target respondsToSelector:selector];
}

- (id)forwardingTargetForSelector:(SEL)selector {
    (void)selector;
    return target;
}

- (NSMethodSignature *)methodSignatureForSelector:(SEL)selector {
    return [target methodSignatureForSelector:selector];
}

- (void)forwardInvocation:(NSInvocation *)invocation {
    [invocation invokeWithTarget:target];
}
@end

/* The proxy standing for `delegate`, made once and kept by the delegate. */
static id proxyFor(id delegate) {
    if (delegate == nil || object_getClass(delegate) == [NaiveRetainingProxy class]) return delegate;
    NaiveRetainingProxy *proxy = [NaiveRetainingProxy alloc];
    proxy->target = [delegate retain];
    if (allProxies == nil) allProxies = [NSMutableArray new];
    [allProxies addObject:proxy];
    [proxy release];
    return proxy;
}

/* What the app reads back: its own delegate, never the proxy. */
static id unwrapped(id delegate) {
    if (delegate != nil && object_getClass(delegate) == [NaiveRetainingProxy class]) return ((NaiveRetainingProxy *)delegate)->target;
    return delegate;
}

@interface UITableView (NaiveRetainingProxyHook)
- (void)naive_retaining_setDelegate:(id)delegate;
- (id)naive_retaining_delegate;
@end
@interface UICollectionView (NaiveRetainingProxyHook)
- (void)naive_retaining_setDelegate:(id)delegate;
- (id)naive_retaining_delegate;
@end

@interface NaiveRetainingProxyHook : NSObject
@end

@implementation NaiveRetainingProxyHook
- (void)naive_retaining_setDelegate:(id)delegate {
    [(UITableView *)self naive_retaining_setDelegate:proxyFor(delegate)];
}

- (id)naive_retaining_delegate {
    return unwrapped([(UITableView *)self naive_retaining_delegate]);
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
        if (!add_then_exchange([NaiveRetainingProxyHook class], list, @selector(setDelegate:), @selector(naive_retaining_setDelegate:), error, capacity)) return -1;
        if (!add_then_exchange([NaiveRetainingProxyHook class], list, @selector(delegate), @selector(naive_retaining_delegate), error, capacity)) return -1;
    }
    exchanged = YES;
    return 0;
}

static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const hookedMethods[] = {
    "UITableView setDelegate:", "UITableView naive_retaining_setDelegate:", "UITableView delegate", "UITableView naive_retaining_delegate",
    "UICollectionView setDelegate:", "UICollectionView naive_retaining_setDelegate:", "UICollectionView delegate",
    "UICollectionView naive_retaining_delegate", NULL,
};

static const autotrack_hook_definition hook = {
    .name = "delegate-selection/naive-retaining-proxy",
    .point = "delegate-selection",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&hook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
