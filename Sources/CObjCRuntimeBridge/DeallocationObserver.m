/* Deallocation, observed: GCC's runtime has no associated objects, so the backend keeps
   them in a side table, and that table must forget an object when it goes — before its
   address can be reused. The observer runs at the start of -[NSObject dealloc] and
   -[NSProxy dealloc] (every object's deallocation reaches one of them through
   [super dealloc]), before the original. */
#import <Foundation/Foundation.h>
#include <objc/runtime.h>
#include <pthread.h>
#include "CObjCRuntimeBridge.h"

static ATDeallocationObserver observer = NULL;
static IMP originalObjectDealloc = NULL;
static IMP originalProxyDealloc = NULL;

static void observingObjectDealloc(id self, SEL _cmd) {
    atr_forgetNativeAssociations((ATObjectRef)(void *)self);
    if (observer) observer((ATObjectRef)(void *)self);
    ((void (*)(id, SEL))originalObjectDealloc)(self, _cmd);
}

static void observingProxyDealloc(id self, SEL _cmd) {
    atr_forgetNativeAssociations((ATObjectRef)(void *)self);
    if (observer) observer((ATObjectRef)(void *)self);
    ((void (*)(id, SEL))originalProxyDealloc)(self, _cmd);
}

static IMP wrap(Class root, IMP replacement) {
    SEL dealloc = sel_registerName("dealloc");
    ATMethodRef own = atr_ownMethod((ATClassRef)(void *)root, (ATSelectorRef)(void *)dealloc);
    if (own == NULL) return NULL;
    return (IMP)atr_setImplementation((ATClassRef)(void *)root, own, (ATImplementation)replacement);
}

static pthread_once_t installed = PTHREAD_ONCE_INIT;
static void install(void) {
    originalObjectDealloc = wrap([NSObject class], (IMP)observingObjectDealloc);
    originalProxyDealloc = wrap([NSProxy class], (IMP)observingProxyDealloc);
}

void atr_observeDeallocation(ATDeallocationObserver newObserver) {
    observer = newObserver;
    /* Installing rebuilds every class's dispatch table: none may be freed under a
       thread looking a message up. */
    atr_declareThreads();
    pthread_once(&installed, install);
}
