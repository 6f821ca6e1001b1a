/* Implementation changes made by native code — an Objective-C hook's
   method_setImplementation or method_exchangeImplementations — made to behave as on
   objc4. GCC's runtime writes the new IMP only into the dispatch table of the class that
   owns the method (and, for a class never messaged, into the one table all such classes
   share); classes below it that were already messaged keep the old IMP. The backend's
   own changes work around this (Runtime.m); these two definitions, which the
   executable exports so they interpose libobjc's for every library loaded later, do the
   same for code the backend does not control: install the owner's table first, make
   the change with libobjc's function, then rebuild the owner's and its subclasses'
   tables. The backend's own calls use libobjc's functions directly
   (atr_libobjcSetImplementation, atr_libobjcExchangeImplementations): it knows the
   owner, and finding it costs a walk over every class. */
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
    IMP previous = atr_libobjcSetImplementation(method, implementation);
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
    atr_libobjcExchangeImplementations(first, second);
    refresh(firstOwner);
    if (secondOwner != firstOwner) refresh(secondOwner);
    atr_noteMethodsChanged();
}
