/* Implementation changes made by native code — an Objective-C hook's
   method_setImplementation or method_exchangeImplementations — made to behave as on
   objc4. GCC's runtime writes the new IMP only into the dispatch table of the class that
   owns the method (and, for a class never messaged, into the one table all such classes
   share); classes below it that were already messaged keep the old IMP. The backend's
   own changes work around this (Runtime.m); these two definitions, which the
   executable exports so they interpose libobjc's for every library loaded later, do the
   same for code the backend does not control: install the owner's table first, make
   the change (in place, atr_writeImplementation below), then rebuild the owner's and
   its subclasses' tables. The backend's own calls skip the search (Runtime.m): it knows
   the owner, and finding it costs a walk over every class. */
#import <Foundation/Foundation.h>
#include <dlfcn.h>
#include <objc/runtime.h>
#include <stdlib.h>
#include "GNURuntime.h"

/* The class (or metaclass) whose own method list holds `method`, or Nil. */
static Class ownerOf(Method method) {
    int count = objc_getClassList(NULL, 0);
    Class *classes = malloc(sizeof(Class) * (size_t)(count > 0 ? count : 1));
    count = objc_getClassList(classes, count);
    Class owner = Nil;
    for (int index = 0; index < count && owner == Nil; index++) {
        Class candidates[2] = {classes[index], object_getClass((id)classes[index])};
        for (int which = 0; which < 2 && owner == Nil; which++) {
            unsigned int methods = 0;
            Method *list = class_copyMethodList(candidates[which], &methods);
            for (unsigned int position = 0; position < methods; position++) {
                if (list[position] == method) {
                    owner = candidates[which];
                    break;
                }
            }
            free(list);
        }
    }
    free(classes);
    return owner;
}

static void prepare(Class owner, Method method) {
    if (owner != Nil) (void)class_respondsToSelector(owner, method_getName(method));
}

static void refresh(Class owner) {
    if (owner != Nil) atr_refreshDispatchTables(owner);
}

static void *libobjcSetImplementation, *libobjcExchangeImplementations;

/* GCC's struct objc_method (objc-private/module-abi-8.h), which <objc/runtime.h> keeps
   opaque. */
struct atr_gcc_method {
    SEL name;
    const char *types;
    IMP implementation;
};

/* The runtime's lock, which libobjc's own method changes hold. */
#include <objc/thr.h>
extern objc_mutex_t __objc_runtime_mutex;

/* Whether `method` is laid out as struct atr_gcc_method says: else the writes below
   leave the change to libobjc. */
static bool layoutHolds(Method method) {
    struct atr_gcc_method *fields = (struct atr_gcc_method *)(void *)method;
    return fields->name == method_getName(method) && fields->implementation == method_getImplementation(method);
}

/* libobjc's method_setImplementation writes the IMP, then walks every class and
   metaclass of the process to find the one whose list holds the method and update that
   class's dispatch table — which makes installing hooks on an app of 10 000 classes
   quadratic. The callers know the owner and rebuild its and its subclasses' tables
   afterwards (which also puts the new IMP in the owner's), so the write alone is done
   here, under the runtime's lock as libobjc's is. */
IMP atr_writeImplementation(Method method, IMP implementation) {
    if (!layoutHolds(method)) return atr_libobjcSetImplementation(method, implementation);
    struct atr_gcc_method *fields = (struct atr_gcc_method *)(void *)method;
    objc_mutex_lock(__objc_runtime_mutex);
    IMP previous = fields->implementation;
    __atomic_store_n(&fields->implementation, implementation, __ATOMIC_RELEASE);
    objc_mutex_unlock(__objc_runtime_mutex);
    return previous;
}

void atr_swapImplementations(Method first, Method second) {
    if (!layoutHolds(first) || !layoutHolds(second)) {
        atr_libobjcExchangeImplementations(first, second);
        return;
    }
    struct atr_gcc_method *one = (struct atr_gcc_method *)(void *)first, *other = (struct atr_gcc_method *)(void *)second;
    objc_mutex_lock(__objc_runtime_mutex);
    IMP held = one->implementation;
    __atomic_store_n(&one->implementation, other->implementation, __ATOMIC_RELEASE);
    __atomic_store_n(&other->implementation, held, __ATOMIC_RELEASE);
    objc_mutex_unlock(__objc_runtime_mutex);
}

IMP atr_libobjcSetImplementation(Method method, IMP implementation) {
    IMP (*libobjc)(Method, IMP) = atr_libobjcFunction(&libobjcSetImplementation, "method_setImplementation");
    return libobjc(method, implementation);
}

void atr_libobjcExchangeImplementations(Method first, Method second) {
    void (*libobjc)(Method, Method) = atr_libobjcFunction(&libobjcExchangeImplementations, "method_exchangeImplementations");
    libobjc(first, second);
}

IMP method_setImplementation(Method method, IMP implementation) {
    if (method == NULL || implementation == NULL) {
        IMP previous = atr_libobjcSetImplementation(method, implementation);
        atr_noteMethodsChanged();
        return previous;
    }
    Class owner = ownerOf(method);
    prepare(owner, method);
    IMP previous = owner != Nil ? atr_writeImplementation(method, implementation) : atr_libobjcSetImplementation(method, implementation);
    refresh(owner);
    atr_noteMethodsChanged();
    return previous;
}

void method_exchangeImplementations(Method first, Method second) {
    if (first == NULL || second == NULL) {
        atr_libobjcExchangeImplementations(first, second);
        atr_noteMethodsChanged();
        return;
    }
    Class firstOwner = ownerOf(first), secondOwner = ownerOf(second);
    prepare(firstOwner, first);
    prepare(secondOwner, second);
    if (firstOwner != Nil && secondOwner != Nil) {
        atr_swapImplementations(first, second);
    } else {
        atr_libobjcExchangeImplementations(first, second);
    }
    refresh(firstOwner);
    if (secondOwner != firstOwner) refresh(secondOwner);
    atr_noteMethodsChanged();
}
