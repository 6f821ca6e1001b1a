/* List selections through a forwarding proxy, the way GrowingIO's and PostHog's SDKs
   capture them: -setDelegate: of UITableView and UICollectionView is exchanged so that
   the list gets an NSProxy standing for the app's delegate. The proxy implements the
   selection methods (each hands the call to the kit's combinator, then to the app's
   delegate) and forwards every other message; it answers respondsToSelector: from the
   delegate. The list holds its delegate weakly, so the proxy is kept alive by the
   delegate itself (an associated object), one per delegate; -delegate is exchanged too,
   so the app reads back its own object. */
#import <UIKit/UIKit.h>
#include <objc/runtime.h>
#include <stdio.h>
#include "autotrack_hook.h"
#include "add_then_exchange.h"

static autotrack_hook_installation *installation;
static const autotrack_hook_api *kit;
static BOOL exchanged;
static char proxyKey;

@interface ExampleDelegateProxy : NSProxy {
  @public
    /* The app's delegate: not retained (it retains the proxy). */
    __unsafe_unretained id target;
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

static void intercept(ExampleDelegateProxy *proxy, SEL selector, id list, id indexPath, autotrack_original_function original) {
    struct selection call = {proxy->target, selector, list, indexPath};
    /* The receiver the framework method has is the app's delegate, not the proxy. */
    autotrack_call intercepted = AUTOTRACK_CALL(proxy->target, selector, 2, AUTOTRACK_ARG(list), AUTOTRACK_ARG(indexPath));
    kit->intercept(installation, &intercepted, original, &call);
}

@implementation ExampleDelegateProxy
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
    if (delegate == nil || object_getClass(delegate) == [ExampleDelegateProxy class]) return delegate;
    ExampleDelegateProxy *proxy = objc_getAssociatedObject(delegate, &proxyKey);
    if (proxy == nil) {
        proxy = [ExampleDelegateProxy alloc];
        proxy->target = delegate;
        objc_setAssociatedObject(delegate, &proxyKey, proxy, OBJC_ASSOCIATION_RETAIN_NONATOMIC);
        [proxy release];
    }
    return proxy;
}

/* What the app reads back: its own delegate, never the proxy. */
static id unwrapped(id delegate) {
    if (delegate != nil && object_getClass(delegate) == [ExampleDelegateProxy class]) return ((ExampleDelegateProxy *)delegate)->target;
    return delegate;
}

@interface UITableView (ExampleProxyHook)
- (void)example_proxy_setDelegate:(id)delegate;
- (id)example_proxy_delegate;
@end
@interface UICollectionView (ExampleProxyHook)
- (void)example_proxy_setDelegate:(id)delegate;
- (id)example_proxy_delegate;
@end

@interface ExampleProxyHook : NSObject
@end

@implementation ExampleProxyHook
- (void)example_proxy_setDelegate:(id)delegate {
    [(UITableView *)self example_proxy_setDelegate:proxyFor(delegate)];
}

- (id)example_proxy_delegate {
    return unwrapped([(UITableView *)self example_proxy_delegate]);
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
        if (!add_then_exchange([ExampleProxyHook class], list, @selector(setDelegate:), @selector(example_proxy_setDelegate:), error, capacity)) return -1;
        if (!add_then_exchange([ExampleProxyHook class], list, @selector(delegate), @selector(example_proxy_delegate), error, capacity)) return -1;
    }
    exchanged = YES;
    return 0;
}

static int uninstall(autotrack_hook_installation *old) {
    (void)old;
    return 0;
}

static const char *const hookedMethods[] = {
    "UITableView setDelegate:", "UITableView example_proxy_setDelegate:", "UITableView delegate", "UITableView example_proxy_delegate",
    "UICollectionView setDelegate:", "UICollectionView example_proxy_setDelegate:", "UICollectionView delegate",
    "UICollectionView example_proxy_delegate", NULL,
};

static const autotrack_hook_definition hook = {
    .name = "delegate-selection/objc-proxy",
    .point = "delegate-selection",
    .hooked_methods = hookedMethods,
    .install = install,
    .uninstall = uninstall,
};

static const autotrack_hook_definition *const hooks[] = {&hook, NULL};

const autotrack_hook_definition *const *autotrack_hook_library(void) { return hooks; }
