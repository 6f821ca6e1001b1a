/* Class changes made by native code — an Objective-C hook's object_setClass, moving a
   delegate onto its dynamic subclass or stepping aside for KVO — told to the backend at
   once, so that the model's class of the object is right before its next message too
   (a program reading the class, a KVO removal deciding whether to restore it). The
   executable exports this definition, so it interposes libobjc's for every library
   loaded later — and for libobjc's and GNUstep Base's own calls through their PLTs; it makes the change with libobjc's function, then calls the observer
   the backend registered. The backend's own changes use libobjc's function directly
   (atr_libobjcSetClass): the model made them. */
#import <Foundation/Foundation.h>
#include <dlfcn.h>
#include <objc/runtime.h>
#include "CObjCRuntimeBridge.h"
#include "GNURuntime.h"

static ATClassChangeObserver observer = NULL;

void atr_observeNativeClassChanges(ATClassChangeObserver callback) {
    __atomic_store_n(&observer, callback, __ATOMIC_RELEASE);
}

/* libobjc's definition, past this one (resolved on first use, checked). */
static void *libobjcSetClass;

Class atr_libobjcSetClass(id object, Class cls) {
    Class (*libobjc)(id, Class) = atr_libobjcFunction(&libobjcSetClass, "object_setClass");
    return libobjc(object, cls);
}

Class object_setClass(id object, Class cls) {
    Class previous = atr_libobjcSetClass(object, cls);
    ATClassChangeObserver callback = __atomic_load_n(&observer, __ATOMIC_ACQUIRE);
    if (callback != NULL && object != nil && cls != Nil && previous != cls) callback((ATObjectRef)(void *)object, (ATClassRef)(void *)cls);
    return previous;
}
