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

bool atr_prepareCif(const char *types, ffi_cif *cif, ffi_type **argumentTypes, int capacity) {
    char kind;
    ffi_type *returnType = NULL;
    const char *cursor = read_type(types, &kind, &returnType);
    int count = 0;
    while (cursor != NULL && *cursor != 0) {
        if (count == capacity) return false;
        char argumentKind;
        cursor = read_type(cursor, &argumentKind, &argumentTypes[count]);
        if (cursor != NULL) count++;
    }
    if (cursor == NULL || returnType == NULL || count < 2) return false;
    return ffi_prep_cif(cif, FFI_DEFAULT_ABI, (unsigned)count, returnType, argumentTypes) == FFI_OK;
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

/* Real forwarding: a message nothing implements, sent the way compiled code sends it —
   the forwarding IMP GNUstep's hook gives for the receiver and selector (which asks the
   receiver's -methodSignatureForSelector:), called with the C calling convention of
   `types`, arguments widened to 64 bits as closures pass them. GNUstep then packs the
   call into an NSInvocation and hands it to -forwardInvocation: (or to the object
   -forwardingTargetForSelector: names). */

/* Stores one 64-bit argument as the C type its kind names. */
typedef union {
    signed char c; unsigned char C; short s; unsigned short S; int i; unsigned int I;
    int64_t q; uint64_t Q; float f; double d; void *p;
} ATArgument;

static void store_argument(char kind, uint64_t bits, ATArgument *slot) {
    switch (kind) {
    case 'c': slot->c = (signed char)(int64_t)bits; break;
    case 'C': slot->C = (unsigned char)bits; break;
    case 's': slot->s = (short)(int64_t)bits; break;
    case 'S': slot->S = (unsigned short)bits; break;
    case 'i': slot->i = (int)(int64_t)bits; break;
    case 'I': slot->I = (unsigned int)bits; break;
    case 'f': { double wide; memcpy(&wide, &bits, 8); slot->f = (float)wide; break; }
    case 'd': memcpy(&slot->d, &bits, 8); break;
    case 'q': slot->q = (int64_t)bits; break;
    case 'Q': slot->Q = bits; break;
    default: slot->p = (void *)(uintptr_t)bits; break;
    }
}

static uint64_t load_result(char kind, const ffi_arg *raw) {
    switch (kind) {
    case 'v': return 0;
    case 'c': return (uint64_t)(int64_t)(signed char)*raw;
    case 'C': return (uint64_t)(unsigned char)*raw;
    case 's': return (uint64_t)(int64_t)(short)*raw;
    case 'S': return (uint64_t)(unsigned short)*raw;
    case 'i': return (uint64_t)(int64_t)(int)*raw;
    case 'I': return (uint64_t)(unsigned int)*raw;
    case 'f': { double wide = *(const float *)raw; uint64_t bits; memcpy(&bits, &wide, 8); return bits; }
    default: return *(const uint64_t *)raw;
    }
}

/* Calls `imp` — or, when it is NULL, the forwarding IMP GNUstep's hook gives for the
   receiver and selector — with the C convention of `types`. */
static ATSendResult call_natively(ATImplementation imp, ATObjectRef receiver, ATSelectorRef selector, const char *types,
                                  const uint64_t *arguments, int count, uint64_t *result) {
    ATSendResult outcome = {0, false, {0}};
    ffi_type *types_[MAX_ARGUMENTS];
    char kinds[MAX_ARGUMENTS];
    ffi_type *returnType = NULL;
    char returnKind = 'v';
    const char *cursor = read_type(types, &returnKind, &returnType);
    int parsed = 0;
    while (cursor != NULL && *cursor != 0 && parsed < MAX_ARGUMENTS) {
        cursor = read_type(cursor, &kinds[parsed], &types_[parsed]);
        if (cursor != NULL) parsed++;
    }
    if (cursor == NULL || returnType == NULL || parsed != count + 2) {
        outcome.raised = true;
        strncpy(outcome.exceptionName, "AutoTrackUnpassableSignature", sizeof(outcome.exceptionName) - 1);
        return outcome;
    }
    ATArgument storage[MAX_ARGUMENTS];
    void *values[MAX_ARGUMENTS];
    storage[0].p = (void *)receiver;
    storage[1].p = (void *)selector;
    for (int index = 0; index < count; index++) store_argument(kinds[index + 2], arguments[index], &storage[index + 2]);
    for (int index = 0; index < parsed; index++) values[index] = &storage[index];
    ffi_cif cif;
    if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, (unsigned)parsed, returnType, types_) != FFI_OK) {
        outcome.raised = true;
        strncpy(outcome.exceptionName, "AutoTrackUnpassableSignature", sizeof(outcome.exceptionName) - 1);
        return outcome;
    }
    ffi_arg raw[2] = {0, 0};
    @autoreleasepool {
    @try {
        IMP target = imp != NULL ? (IMP)imp : atr_forwardingImplementation((id)(void *)receiver, (SEL)(void *)selector);
        if (target == NULL) {
            outcome.raised = true;
            strncpy(outcome.exceptionName, "NSInvalidArgumentException", sizeof(outcome.exceptionName) - 1);
        } else {
            ffi_call(&cif, (void (*)(void))target, raw, values);
            *result = load_result(returnKind, raw);
        }
    } @catch (NSException *exception) {
        outcome.raised = true;
        const char *name = [[exception name] UTF8String];
        strncpy(outcome.exceptionName, name ? name : "unnamed", sizeof(outcome.exceptionName) - 1);
    }
    }
    return outcome;
}

ATSendResult atr_forwardNatively(ATObjectRef receiver, ATSelectorRef selector, const char *types, const uint64_t *arguments,
                                 int count, uint64_t *result) {
    return call_natively(NULL, receiver, selector, types, arguments, count, result);
}

ATSendResult atr_callNatively(ATImplementation imp, ATObjectRef receiver, ATSelectorRef selector, const char *types,
                              const uint64_t *arguments, int count, uint64_t *result) {
    return call_natively(imp, receiver, selector, types, arguments, count, result);
}

ATObjectRef atr_methodSignature(const char *types) {
    return (ATObjectRef)(void *)[[NSMethodSignature signatureWithObjCTypes:types] retain];
}

bool atr_isInvocation(ATObjectRef object) {
    return object != NULL && [(id)(void *)object isKindOfClass:[NSInvocation class]];
}

const char *atr_invocationTypes(ATObjectRef invocation, char *buffer, int capacity) {
    /* The signature's types: return type, then each argument's (self and _cmd included). */
    NSMethodSignature *signature = [(NSInvocation *)(void *)invocation methodSignature];
    int used = 0;
    const char *type = [signature methodReturnType];
    size_t length = strlen(type);
    if ((int)length + 1 > capacity) return NULL;
    memcpy(buffer, type, length);
    used = (int)length;
    for (NSUInteger index = 0; index < [signature numberOfArguments]; index++) {
        type = [signature getArgumentTypeAtIndex:index];
        length = strlen(type);
        if (used + (int)length + 1 > capacity) return NULL;
        memcpy(buffer + used, type, length);
        used += (int)length;
    }
    buffer[used] = 0;
    return buffer;
}

ATSelectorRef atr_invocationSelector(ATObjectRef invocation) {
    return (ATSelectorRef)(void *)[(NSInvocation *)(void *)invocation selector];
}

ATObjectRef atr_invocationTarget(ATObjectRef invocation) {
    return (ATObjectRef)(void *)[(NSInvocation *)(void *)invocation target];
}

uint64_t atr_invocationArgument(ATObjectRef invocation, int index) {
    NSInvocation *call = (NSInvocation *)(void *)invocation;
    const char *type = [[call methodSignature] getArgumentTypeAtIndex:(NSUInteger)index];
    char kind = 'Q';
    ffi_type *ignored = NULL;
    if (read_type(type, &kind, &ignored) == NULL) return 0;
    ATArgument value;
    memset(&value, 0, sizeof(value));
    [call getArgument:&value atIndex:index];
    uint64_t bits = 0;
    switch (kind) {
    case 'c': bits = (uint64_t)(int64_t)value.c; break;
    case 'C': bits = value.C; break;
    case 's': bits = (uint64_t)(int64_t)value.s; break;
    case 'S': bits = value.S; break;
    case 'i': bits = (uint64_t)(int64_t)value.i; break;
    case 'I': bits = value.I; break;
    case 'f': { double wide = value.f; memcpy(&bits, &wide, 8); break; }
    case 'd': memcpy(&bits, &value.d, 8); break;
    default: bits = value.Q; break;
    }
    return bits;
}

void atr_invocationSetReturn(ATObjectRef invocation, uint64_t bits) {
    NSInvocation *call = (NSInvocation *)(void *)invocation;
    const char *type = [[call methodSignature] methodReturnType];
    char kind = 'v';
    ffi_type *ignored = NULL;
    if (read_type(type, &kind, &ignored) == NULL || kind == 'v') return;
    ATArgument value;
    memset(&value, 0, sizeof(value));
    store_argument(kind, bits, &value);
    [call setReturnValue:&value];
}
