/* Closures: IMPs made at run time, one per implementation of a mirrored runtime, each
   callable from native code with the C calling convention of its method's type
   encoding (libffi builds the entry for the encoding). A closure hands its call to one
   handler — every argument widened to 64 bits with a kind character — and writes back
   the result the handler gives. */
#import <Foundation/Foundation.h>
#include <ffi.h>
#include <objc/runtime.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "CObjCRuntimeBridge.h"
#include "GNURuntime.h"

enum { MAX_ARGUMENTS = 16 };

typedef struct Closure {
    ffi_closure *closure;
    void *entry;
    ffi_cif cif;
    ffi_type *types[MAX_ARGUMENTS];
    char kinds[MAX_ARGUMENTS + 1];
    char returnKind;
    int count;
    void *context;
    struct Closure *next;
} Closure;

static ATClosureHandler handler = NULL;
static Closure *closures = NULL;
static pthread_mutex_t closuresLock = PTHREAD_MUTEX_INITIALIZER;

void atr_setClosureHandler(ATClosureHandler newHandler) { handler = newHandler; }

/* Skips type qualifiers (const, in, out, by copy …). */
static const char *skip_qualifiers(const char *type) {
    while (*type && strchr("rnNoORVA", *type)) type++;
    return type;
}

/* Skips the frame offset digits after a type. */
static const char *skip_digits(const char *type) {
    while (*type == '-' || (*type >= '0' && *type <= '9')) type++;
    return type;
}

/* Reads one type: its kind and libffi type; NULL when closures cannot pass it. */
static const char *read_type(const char *type, char *kind, ffi_type **ffiType) {
    type = skip_qualifiers(type);
    char code = *type;
    if (code == 0) return NULL;
    type++;
    switch (code) {
    case 'v': *kind = 'v'; *ffiType = &ffi_type_void; break;
    case 'c': *kind = 'c'; *ffiType = &ffi_type_schar; break;
    case 'C': case 'B': *kind = 'C'; *ffiType = &ffi_type_uchar; break;
    case 's': *kind = 's'; *ffiType = &ffi_type_sshort; break;
    case 'S': *kind = 'S'; *ffiType = &ffi_type_ushort; break;
    case 'i': *kind = 'i'; *ffiType = &ffi_type_sint; break;
    case 'I': *kind = 'I'; *ffiType = &ffi_type_uint; break;
    case 'l': case 'q': *kind = 'q'; *ffiType = &ffi_type_sint64; break;
    case 'L': case 'Q': *kind = 'Q'; *ffiType = &ffi_type_uint64; break;
    case 'f': *kind = 'f'; *ffiType = &ffi_type_float; break;
    case 'd': *kind = 'd'; *ffiType = &ffi_type_double; break;
    case '#': *kind = '#'; *ffiType = &ffi_type_pointer; break;
    case ':': *kind = ':'; *ffiType = &ffi_type_pointer; break;
    case '*': *kind = '^'; *ffiType = &ffi_type_pointer; break;
    case '@':
        if (*type == '?') { type++; *kind = '?'; } else { *kind = '@'; }
        if (*type == '"') { /* a class name in quotes */
            const char *end = strchr(type + 1, '"');
            if (end == NULL) return NULL;
            type = end + 1;
        }
        *ffiType = &ffi_type_pointer;
        break;
    case '^': {
        /* A pointer: skip what it points to (one type, possibly a struct). */
        int depth = 0;
        do {
            if (*type == '{' || *type == '(' || *type == '[') depth++;
            else if (*type == '}' || *type == ')' || *type == ']') depth--;
            else if (*type == 0) return NULL;
            type++;
        } while (depth > 0);
        *kind = '^';
        *ffiType = &ffi_type_pointer;
        break;
    }
    default:
        return NULL; /* structs, unions, arrays and bitfields by value */
    }
    return skip_digits(type);
}

static void closure_entry(ffi_cif *cif, void *returnValue, void **arguments, void *userData) {
    (void)cif;
    Closure *closure = userData;
    uint64_t values[MAX_ARGUMENTS];
    for (int index = 0; index < closure->count; index++) {
        void *argument = arguments[index];
        switch (closure->kinds[index]) {
        case 'c': values[index] = (uint64_t)(int64_t)*(signed char *)argument; break;
        case 'C': values[index] = *(unsigned char *)argument; break;
        case 's': values[index] = (uint64_t)(int64_t)*(short *)argument; break;
        case 'S': values[index] = *(unsigned short *)argument; break;
        case 'i': values[index] = (uint64_t)(int64_t)*(int *)argument; break;
        case 'I': values[index] = *(unsigned int *)argument; break;
        case 'f': { double widened = *(float *)argument; memcpy(&values[index], &widened, 8); break; }
        case 'd': memcpy(&values[index], argument, 8); break;
        case 'q': case 'Q': values[index] = *(uint64_t *)argument; break;
        default: values[index] = (uint64_t)(uintptr_t)*(void **)argument; break;
        }
    }
    uint64_t result = 0;
    if (handler) handler(closure->context, closure->count, closure->kinds, values, closure->returnKind, &result);
    switch (closure->returnKind) {
    case 'v': break;
    case 'f': { double wide; memcpy(&wide, &result, 8); *(float *)returnValue = (float)wide; break; }
    case 'd': memcpy(returnValue, &result, 8); break;
    case 'c': case 's': case 'i': *(ffi_sarg *)returnValue = (ffi_sarg)(int64_t)result; break;
    case 'C': case 'S': case 'I': *(ffi_arg *)returnValue = (ffi_arg)result; break;
    default: *(uint64_t *)returnValue = result; break;
    }
}

ATImplementation atr_makeClosure(const char *types, void *context) {
    Closure *closure = calloc(1, sizeof(Closure));
    if (closure == NULL) return NULL;
    ffi_type *returnType = NULL;
    const char *cursor = read_type(types, &closure->returnKind, &returnType);
    while (cursor != NULL && *cursor != 0) {
        if (closure->count == MAX_ARGUMENTS) { cursor = NULL; break; }
        cursor = read_type(cursor, &closure->kinds[closure->count], &closure->types[closure->count]);
        if (cursor != NULL) closure->count++;
    }
    if (cursor == NULL || closure->count < 2 || returnType == NULL) {
        free(closure);
        return NULL;
    }
    closure->context = context;
    closure->closure = ffi_closure_alloc(sizeof(ffi_closure), &closure->entry);
    if (closure->closure == NULL
        || ffi_prep_cif(&closure->cif, FFI_DEFAULT_ABI, (unsigned)closure->count, returnType, closure->types) != FFI_OK
        || ffi_prep_closure_loc(closure->closure, &closure->cif, closure_entry, closure, closure->entry) != FFI_OK) {
        if (closure->closure) ffi_closure_free(closure->closure);
        free(closure);
        return NULL;
    }
    pthread_mutex_lock(&closuresLock);
    closure->next = closures;
    closures = closure;
    pthread_mutex_unlock(&closuresLock);
    return (ATImplementation)closure->entry;
}

void *atr_closureContext(ATImplementation imp) {
    /* Not on a mirrored runtime's send path (it keeps its own table); for diagnostics
       and tests. */
    void *found = NULL;
    pthread_mutex_lock(&closuresLock);
    for (Closure *closure = closures; closure != NULL; closure = closure->next) {
        if (closure->entry == (void *)imp) { found = closure->context; break; }
    }
    pthread_mutex_unlock(&closuresLock);
    return found;
}

ATImplementation atr_messageLookup(ATObjectRef receiver, ATSelectorRef selector) {
    return (ATImplementation)atr_lookUp((id)(void *)receiver, (SEL)(void *)selector);
}

bool atr_classResponds(ATClassRef cls, ATSelectorRef selector) {
    return class_respondsToSelector((Class)(void *)cls, (SEL)(void *)selector) ? true : false;
}

ATObjectRef atr_alloc(ATClassRef cls) { return (ATObjectRef)(void *)[(Class)(void *)cls alloc]; }

ATSendResult atr_sendNative(ATObjectRef object, ATSelectorRef selector, uintptr_t first, uintptr_t second) {
    ATSendResult result = {0, false, {0}};
    @autoreleasepool {
    @try {
        IMP imp = atr_lookUp((id)(void *)object, (SEL)(void *)selector);
        result.value = ((intptr_t (*)(id, SEL, uintptr_t, uintptr_t))imp)((id)(void *)object, (SEL)(void *)selector, first, second);
    } @catch (NSException *exception) {
        result.raised = true;
        const char *name = [[exception name] UTF8String];
        strncpy(result.exceptionName, name ? name : "unnamed", sizeof(result.exceptionName) - 1);
    }
    }
    return result;
}

double atr_sendNativeDouble(ATObjectRef object, ATSelectorRef selector, double argument) {
    IMP imp = atr_lookUp((id)(void *)object, (SEL)(void *)selector);
    return ((double (*)(id, SEL, double))imp)((id)(void *)object, (SEL)(void *)selector, argument);
}

ATImplementation atr_superLookupImplemented(ATObjectRef receiver, ATClassRef superclass, ATSelectorRef selector) {
    return (ATImplementation)atr_lookUpSuperImplemented((id)(void *)receiver, (Class)(void *)superclass, (SEL)(void *)selector);
}
