/* The method a class defines itself for a selector — not one it inherits — as hooks that
   wrap every override of a method look for it: class_getInstanceMethod would answer the
   inherited one, and wrapping that would wrap the superclass's method for every sibling. */
#ifndef OWN_METHOD_H
#define OWN_METHOD_H

#include <objc/runtime.h>
#include <stdlib.h>

static inline Method own_method(Class cls, SEL selector) {
    unsigned int count = 0;
    Method *methods = class_copyMethodList(cls, &count);
    Method found = NULL;
    for (unsigned int index = 0; index < count && found == NULL; index++) {
        if (sel_isEqual(method_getName(methods[index]), selector)) found = methods[index];
    }
    free(methods);
    return found;
}

#endif
