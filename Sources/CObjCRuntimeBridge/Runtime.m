/* The runtime operations and message sends of CObjCRuntimeBridge.h over GCC's
   libobjc and GNUstep Base. */
#import <Foundation/Foundation.h>
#include <objc/message.h>
#include <objc/runtime.h>
#include <string.h>
#include <objc/thr.h>
#include "CObjCRuntimeBridge.h"
#include "GNURuntime.h"

#define AS_CLASS(c) ((Class)(void *)(c))
#define AS_ID(o) ((id)(void *)(o))
#define AS_SEL(s) ((SEL)(void *)(s))
#define AS_METHOD(m) ((Method)(void *)(m))

ATClassRef atr_lookUpClass(const char *name) { return (ATClassRef)(void *)objc_lookUpClass(name); }

const char *atr_className(ATClassRef cls) { return class_getName(AS_CLASS(cls)); }

ATClassRef atr_metaclass(ATClassRef cls) { return (ATClassRef)(void *)object_getClass((id)AS_CLASS(cls)); }

ATClassRef atr_superclass(ATClassRef cls) { return (ATClassRef)(void *)class_getSuperclass(AS_CLASS(cls)); }

ATSelectorRef atr_selector(const char *name) { return (ATSelectorRef)(void *)sel_registerName(name); }

const char *atr_selectorName(ATSelectorRef selector) { return sel_getName(AS_SEL(selector)); }

ATMethodRef atr_instanceMethod(ATClassRef cls, ATSelectorRef selector) {
    return (ATMethodRef)(void *)class_getInstanceMethod(AS_CLASS(cls), AS_SEL(selector));
}

/* GCC's runtime frees a class's old dispatch table at once when it believes the process
   has one thread — and it counts only the threads it started (objc_thread_detach) or was
   told of (objc_thread_add). Swift's and Dispatch's threads are neither, so a table
   rebuilt on one thread (an implementation change, the deallocation observer's install)
   was freed while others were still looking messages up in it. Declaring one more thread
   makes the runtime keep old tables as garbage instead.
   The count is checked rather than the declaration latched: libobjc sets it back to one
   when it registers its first library, so a declaration made before that is lost, and a
   later one must still take. Two threads declaring at once only count one thread too
   many, which keeps garbage longer and is safe. */
extern int __objc_runtime_threads_alive;
void atr_declareThreads(void) {
    if (__atomic_load_n(&__objc_runtime_threads_alive, __ATOMIC_RELAXED) <= 1) objc_thread_add();
}

/* Declared when the process starts as well as when a backend is made: native code (a
   hook library, the interposed class_addMethod and method_setImplementation, the
   dispatch benchmarks) rebuilds tables too, while other threads send messages.
   objc_thread_add only counts, under a lock libobjc tolerates not having yet. */
__attribute__((constructor)) static void declareThreadsAtStart(void) { atr_declareThreads(); }

bool atr_isClassObject(ATObjectRef object) { return class_isMetaClass(object_getClass((id)(void *)object)); }

int atr_ownMethods(ATClassRef cls, ATMethodRef *methods, int capacity) {
    unsigned int count = 0;
    Method *list = class_copyMethodList(AS_CLASS(cls), &count);
    for (unsigned int index = 0; index < count && (int)index < capacity; index++) methods[index] = (ATMethodRef)(void *)list[index];
    free(list);
    return (int)count;
}

ATSelectorRef atr_methodSelector(ATMethodRef method) { return (ATSelectorRef)(void *)method_getName((Method)(void *)method); }

ATMethodRef atr_ownMethod(ATClassRef cls, ATSelectorRef selector) {
    unsigned int count = 0;
    Method *methods = class_copyMethodList(AS_CLASS(cls), &count);
    Method found = NULL;
    for (unsigned int index = 0; index < count; index++) {
        if (sel_isEqual(method_getName(methods[index]), AS_SEL(selector))) {
            found = methods[index];
            break;
        }
    }
    free(methods);
    return (ATMethodRef)(void *)found;
}

ATImplementation atr_methodImplementation(ATMethodRef method) {
    return (ATImplementation)method_getImplementation(AS_METHOD(method));
}

const char *atr_methodTypes(ATMethodRef method) {
    const char *types = method_getTypeEncoding(AS_METHOD(method));
    return types ? types : "";
}

bool atr_addMethod(ATClassRef cls, ATSelectorRef selector, ATImplementation imp, const char *types) {
    return class_addMethod(AS_CLASS(cls), AS_SEL(selector), (IMP)imp, types) ? true : false;
}

ATImplementation atr_replaceMethod(ATClassRef cls, ATSelectorRef selector, ATImplementation imp, const char *types) {
    /* objc4's semantics, not GCC's class_replaceMethod: that one finds an inherited
       method too and replaces the superclass's implementation. */
    ATMethodRef own = atr_ownMethod(cls, selector);
    if (own != NULL) return atr_setImplementation(cls, own, imp);
    class_addMethod(AS_CLASS(cls), AS_SEL(selector), (IMP)imp, types);
    return NULL;
}

ATImplementation atr_gccReplaceMethod(ATClassRef cls, ATSelectorRef selector, ATImplementation imp, const char *types) {
    return (ATImplementation)class_replaceMethod(AS_CLASS(cls), AS_SEL(selector), (IMP)imp, types);
}

/* GCC's method_setImplementation and method_exchangeImplementations write the new IMP
   into the dispatch table of the class that owns the method — and when that class has
   never been messaged, its table is the one table every such class shares, so every
   class not messaged yet would answer with it. Installing the owner's own table first
   keeps the write in it; refreshing the owner afterwards rebuilds its subclasses'. */

static void install_dispatch_table(ATClassRef owner, SEL selector) {
    (void)class_respondsToSelector(AS_CLASS(owner), selector);
}

ATClassRef atr_methodOwner(ATClassRef cls, ATMethodRef method) {
    SEL selector = method_getName(AS_METHOD(method));
    for (Class current = AS_CLASS(cls); current != Nil; current = class_getSuperclass(current)) {
        if (atr_ownMethod((ATClassRef)(void *)current, (ATSelectorRef)(void *)selector) == method) return (ATClassRef)(void *)current;
    }
    return NULL;
}

void atr_exchangeImplementations(ATClassRef firstOwner, ATMethodRef first, ATClassRef secondOwner, ATMethodRef second) {
    install_dispatch_table(firstOwner, method_getName(AS_METHOD(first)));
    install_dispatch_table(secondOwner, method_getName(AS_METHOD(second)));
    atr_swapImplementations(AS_METHOD(first), AS_METHOD(second));
    atr_refreshDispatchTables(AS_CLASS(firstOwner));
    if (secondOwner != firstOwner) atr_refreshDispatchTables(AS_CLASS(secondOwner));
    atr_noteMethodsChanged();
}

ATImplementation atr_setImplementation(ATClassRef owner, ATMethodRef method, ATImplementation imp) {
    install_dispatch_table(owner, method_getName(AS_METHOD(method)));
    IMP previous = atr_writeImplementation(AS_METHOD(method), (IMP)imp);
    atr_refreshDispatchTables(AS_CLASS(owner));
    atr_noteMethodsChanged();
    return (ATImplementation)previous;
}

void atr_gccSetImplementation(ATMethodRef method, ATImplementation imp) {
    atr_libobjcSetImplementation(AS_METHOD(method), (IMP)imp);
    atr_noteMethodsChanged();
}

ATClassRef atr_allocateClassPair(ATClassRef superclass, const char *name) {
    return (ATClassRef)(void *)objc_allocateClassPair(AS_CLASS(superclass), name, 0);
}

void atr_registerClassPair(ATClassRef cls) { objc_registerClassPair(AS_CLASS(cls)); }

ATClassRef atr_objectClass(ATObjectRef object) { return (ATClassRef)(void *)object_getClass(AS_ID(object)); }

Class atr_libobjcSetClass(id object, Class cls);

ATClassRef atr_setClass(ATObjectRef object, ATClassRef cls) {
    /* libobjc's own: the model made this change (NativeClassChanges.m). */
    return (ATClassRef)(void *)atr_libobjcSetClass(AS_ID(object), AS_CLASS(cls));
}

ATObjectRef atr_new(ATClassRef cls) { return (ATObjectRef)(void *)[AS_CLASS(cls) new]; }

void atr_retain(ATObjectRef object) { [AS_ID(object) retain]; }

void atr_release(ATObjectRef object) { [AS_ID(object) release]; }

bool atr_isForwardingImplementation(ATImplementation imp) {
    if (imp == NULL) return true;
    /* A selector no class implements: what lookup answers is the forwarding entry. */
    static IMP forwarding = NULL;
    if (forwarding == NULL) {
        forwarding = atr_lookUp([NSObject new], sel_registerName("autotrack_no_such_selector_for_forwarding_probe"));
    }
    return (IMP)imp == forwarding;
}

ATImplementation atr_lookUpSuper(ATObjectRef receiver, ATClassRef staticClass, ATSelectorRef selector) {
    Class start = class_getSuperclass(AS_CLASS(staticClass));
    if (start != Nil && class_respondsToSelector(start, AS_SEL(selector))) {
        return (ATImplementation)atr_lookUpSuperImplemented(AS_ID(receiver), start, AS_SEL(selector));
    }
    /* Not implemented above: GCC's objc_msg_lookup_super would ask the forwarding hook
       with a nil receiver, which GNUstep's hook dereferences. Ask it with the receiver,
       as objc_msg_lookup does for an ordinary send, so the receiver's forwarding
       (forwardingTargetForSelector:, forwardInvocation:, doesNotRecognizeSelector:) runs. */
    return (ATImplementation)atr_forwardingImplementation(AS_ID(receiver), AS_SEL(selector));
}

/* Messages: look the implementation up as a compiled send does, call it, and catch
   what it raises. */

static void note_exception(ATSendResult *result, NSException *exception) {
    result->raised = true;
    const char *name = [[exception name] UTF8String];
    strncpy(result->exceptionName, name ? name : "unnamed", sizeof(result->exceptionName) - 1);
    result->exceptionName[sizeof(result->exceptionName) - 1] = 0;
}

ATSendResult atr_send0(ATObjectRef object, ATSelectorRef selector) {
    ATSendResult result = {0, false, {0}};
    @autoreleasepool {
    @try {
        IMP imp = atr_lookUp(AS_ID(object), AS_SEL(selector));
        result.value = ((intptr_t (*)(id, SEL))imp)(AS_ID(object), AS_SEL(selector));
    } @catch (NSException *exception) {
        note_exception(&result, exception);
    }
    }
    return result;
}

ATSendResult atr_send1(ATObjectRef object, ATSelectorRef selector, ATObjectRef argument) {
    ATSendResult result = {0, false, {0}};
    @autoreleasepool {
    @try {
        IMP imp = atr_lookUp(AS_ID(object), AS_SEL(selector));
        result.value = ((intptr_t (*)(id, SEL, id))imp)(AS_ID(object), AS_SEL(selector), AS_ID(argument));
    } @catch (NSException *exception) {
        note_exception(&result, exception);
    }
    }
    return result;
}

ATSendResult atr_respondsToSelector(ATObjectRef object, ATSelectorRef selector) {
    ATSendResult result = {0, false, {0}};
    @autoreleasepool {
    @try {
        result.value = [AS_ID(object) respondsToSelector:AS_SEL(selector)] ? 1 : 0;
    } @catch (NSException *exception) {
        note_exception(&result, exception);
    }
    }
    return result;
}

ATClassRef atr_reportedClass(ATObjectRef object) {
    @try {
        return (ATClassRef)(void *)[AS_ID(object) class];
    } @catch (NSException *exception) {
        return NULL;
    }
}

ATSendResult atr_addObserver(ATObjectRef object, ATObjectRef observer, const char *keyPath) {
    ATSendResult result = {0, false, {0}};
    @autoreleasepool {
    @try {
        [AS_ID(object) addObserver:AS_ID(observer)
                        forKeyPath:[NSString stringWithUTF8String:keyPath]
                           options:NSKeyValueObservingOptionNew
                           context:NULL];
    } @catch (NSException *exception) {
        note_exception(&result, exception);
    }
    }
    return result;
}

ATSendResult atr_removeObserver(ATObjectRef object, ATObjectRef observer, const char *keyPath) {
    ATSendResult result = {0, false, {0}};
    @autoreleasepool {
    @try {
        [AS_ID(object) removeObserver:AS_ID(observer) forKeyPath:[NSString stringWithUTF8String:keyPath]];
    } @catch (NSException *exception) {
        note_exception(&result, exception);
    }
    }
    return result;
}

void atr_crashWithGCCSuperLookup(void) {
    id object = [NSObject new];
    struct objc_super target = {object, [NSObject class]};
    SEL selector = sel_registerName("autotrackNoSuperclassImplementsThis");
    IMP imp = objc_msg_lookup_super(&target, selector);
    ((void (*)(id, SEL))imp)(object, selector);
}

static id reportSuperclass(id self, SEL _cmd) { return (id)class_getSuperclass(object_getClass(self)); }

ATImplementation atr_reportSuperclassImplementation(void) { return (ATImplementation)reportSuperclass; }

bool atr_isKeyValueObservingClass(ATClassRef cls) {
    return strncmp(class_getName(AS_CLASS(cls)), "GSKVO", 5) == 0;
}
