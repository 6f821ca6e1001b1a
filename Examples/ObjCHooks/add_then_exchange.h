/* Add-then-exchange swizzling, as Sensors' and GrowingIO's SDKs do it: the method
   `replacement` of `source` (a class of the hook's own) is added to `cls`, then exchanged
   with `original`. The original is added to `cls` first: when `cls` only inherits it,
   exchanging the inherited method would change the superclass and every sibling. After
   the exchange, sending `replacement` runs the original. */
#ifndef ADD_THEN_EXCHANGE_H
#define ADD_THEN_EXCHANGE_H

#include <objc/runtime.h>
#include <stdio.h>

static inline BOOL add_then_exchange(Class source, Class cls, SEL original, SEL replacement, char *error, size_t capacity) {
    Method added = class_getInstanceMethod(source, replacement);
    Method existing = class_getInstanceMethod(cls, original);
    if (existing == NULL) {
        snprintf(error, capacity, "%s has no -%s", class_getName(cls), sel_getName(original));
        return NO;
    }
    class_addMethod(cls, original, method_getImplementation(existing), method_getTypeEncoding(existing));
    if (!class_addMethod(cls, replacement, method_getImplementation(added), method_getTypeEncoding(added))) {
        snprintf(error, capacity, "%s already has -%s", class_getName(cls), sel_getName(replacement));
        return NO;
    }
    method_exchangeImplementations(class_getInstanceMethod(cls, original), class_getInstanceMethod(cls, replacement));
    return YES;
}

#endif
