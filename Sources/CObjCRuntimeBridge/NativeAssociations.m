/* Associated objects for native code. GCC's runtime has none, and hooks written for iOS
   keep their proxies and state on the objects they hook with objc_setAssociatedObject:
   these definitions, exported by the executable, give hook libraries objc4's functions.
   A value is retained for the RETAIN policies (copied for COPY) and released when it is
   replaced or when its object is deallocated (DeallocationObserver.m calls
   atr_forgetNativeAssociations first thing in -dealloc). */
#import <Foundation/Foundation.h>
#include <objc/runtime.h>
#include <pthread.h>
#include <stdlib.h>
#include "CObjCRuntimeBridge.h"

enum {
    ASSOCIATION_ASSIGN = 0,
    ASSOCIATION_RETAIN_NONATOMIC = 1,
    ASSOCIATION_COPY_NONATOMIC = 3,
    ASSOCIATION_RETAIN = 01401,
    ASSOCIATION_COPY = 01403,
};

typedef struct {
    id object;
    const void *key;
    id value;
    bool retained;
} Association;

static Association *associations = NULL;
static size_t associationCount = 0, associationCapacity = 0;
static pthread_mutex_t associationsLock = PTHREAD_MUTEX_INITIALIZER;
/* Set (atomically, never cleared) once a value is first stored: until then a
   deallocation has nothing to look for and takes no lock. */
static bool anyAssociations = false;

static bool retains(uintptr_t policy) { return policy != ASSOCIATION_ASSIGN; }
static bool copies(uintptr_t policy) { return policy == ASSOCIATION_COPY_NONATOMIC || policy == ASSOCIATION_COPY; }

void objc_setAssociatedObject(id object, const void *key, id value, uintptr_t policy) {
    if (object == nil || key == NULL) return;
    id stored = value;
    if (value != nil && retains(policy)) stored = copies(policy) ? [value copy] : [value retain];
    id released = nil;
    bool releasedRetained = false;
    pthread_mutex_lock(&associationsLock);
    size_t index = 0;
    while (index < associationCount && !(associations[index].object == object && associations[index].key == key)) index++;
    if (index < associationCount) {
        released = associations[index].value;
        releasedRetained = associations[index].retained;
        if (stored == nil) {
            associations[index] = associations[--associationCount];
        } else {
            associations[index].value = stored;
            associations[index].retained = value != nil && retains(policy);
        }
    } else if (stored != nil) {
        if (associationCount == associationCapacity) {
            associationCapacity = associationCapacity ? associationCapacity * 2 : 64;
            associations = realloc(associations, associationCapacity * sizeof(Association));
        }
        associations[associationCount++] = (Association){object, key, stored, retains(policy)};
        __atomic_store_n(&anyAssociations, true, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&associationsLock);
    if (released != nil && releasedRetained) [released release];
}

id objc_getAssociatedObject(id object, const void *key) {
    id found = nil;
    pthread_mutex_lock(&associationsLock);
    for (size_t index = 0; index < associationCount; index++) {
        if (associations[index].object == object && associations[index].key == key) {
            found = associations[index].value;
            break;
        }
    }
    pthread_mutex_unlock(&associationsLock);
    return found;
}

/* Releases (outside the lock) every value associated with `object`. */
static void removeAll(id object) {
    if (!__atomic_load_n(&anyAssociations, __ATOMIC_ACQUIRE)) return;
    id released[64];
    int count = 0;
    bool more = true;
    while (more) {
        more = false;
        count = 0;
        pthread_mutex_lock(&associationsLock);
        for (size_t index = 0; index < associationCount;) {
            if (associations[index].object != object) {
                index++;
                continue;
            }
            if (count == 64) {
                more = true;
                break;
            }
            if (associations[index].retained) released[count++] = associations[index].value;
            associations[index] = associations[--associationCount];
        }
        pthread_mutex_unlock(&associationsLock);
        for (int index = 0; index < count; index++) [released[index] release];
    }
}

void objc_removeAssociatedObjects(id object) { removeAll(object); }

void atr_forgetNativeAssociations(ATObjectRef object) { removeAll((id)(void *)object); }
