/*
 * A plain C interface to a real Objective-C runtime (GCC's libobjc with GNUstep
 * Base), for Swift on Linux, which cannot import Objective-C headers: every object,
 * class, method, implementation and selector is an opaque pointer.
 *
 * The runtime calls are those of Apple's <objc/runtime.h> (class_addMethod,
 * method_setImplementation, object_setClass …); what is specific to GCC's runtime —
 * message lookup (objc_msg_lookup / objc_msg_lookup_super) — stays inside the bridge's
 * sources. Messages sent through the bridge catch Objective-C exceptions and report
 * them instead of unwinding into Swift.
 */
#ifndef COBJCRUNTIMEBRIDGE_H
#define COBJCRUNTIMEBRIDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** An instance (`id`). */
typedef struct ATObjCObject *ATObjectRef;
/** A class (`Class`). */
typedef struct ATObjCClass *ATClassRef;
/** A method (`Method`). */
typedef struct ATObjCMethod *ATMethodRef;
/** A selector (`SEL`). */
typedef struct ATObjCSelector *ATSelectorRef;
/** An implementation (`IMP`). */
typedef void (*ATImplementation)(void);

/* Runtime operations (their objc4 names in the comments). */

/** `objc_lookUpClass`; NULL when there is none. */
ATClassRef _Nullable atr_lookUpClass(const char *_Nonnull name);
/** `class_getName`. */
const char *_Nonnull atr_className(ATClassRef _Nonnull cls);
/** `object_getClass` of a class: its metaclass. */
ATClassRef _Nonnull atr_metaclass(ATClassRef _Nonnull cls);
/** `class_getSuperclass`. */
ATClassRef _Nullable atr_superclass(ATClassRef _Nonnull cls);
/** `sel_registerName`. */
ATSelectorRef _Nonnull atr_selector(const char *_Nonnull name);
/** `sel_getName`. */
const char *_Nonnull atr_selectorName(ATSelectorRef _Nonnull selector);
/** `class_getInstanceMethod`: own or inherited. */
ATMethodRef _Nullable atr_instanceMethod(ATClassRef _Nonnull cls, ATSelectorRef _Nonnull selector);
/** The method in `cls`'s own list (`class_copyMethodList`, filtered). */
ATMethodRef _Nullable atr_ownMethod(ATClassRef _Nonnull cls, ATSelectorRef _Nonnull selector);
/** `method_getImplementation`. */
ATImplementation _Nonnull atr_methodImplementation(ATMethodRef _Nonnull method);
/** `method_getTypeEncoding`. */
const char *_Nonnull atr_methodTypes(ATMethodRef _Nonnull method);
/** `class_addMethod`. */
bool atr_addMethod(ATClassRef _Nonnull cls, ATSelectorRef _Nonnull selector, ATImplementation _Nonnull imp, const char *_Nonnull types);
/** `class_replaceMethod` as objc4 defines it: sets the implementation of `cls`'s own
    method and returns the previous one, or adds a method to `cls` and returns NULL. */
ATImplementation _Nullable atr_replaceMethod(ATClassRef _Nonnull cls, ATSelectorRef _Nonnull selector, ATImplementation _Nonnull imp, const char *_Nonnull types);
/** GCC's own `class_replaceMethod`, which differs: for a method `cls` only inherits it
    replaces the superclass's implementation (and returns it) and adds nothing. Kept for
    the test that pins the difference; the backend never calls it. */
ATImplementation _Nullable atr_gccReplaceMethod(ATClassRef _Nonnull cls, ATSelectorRef _Nonnull selector, ATImplementation _Nonnull imp, const char *_Nonnull types);
/** The class whose own method list holds `method`: `cls` or one of its superclasses. */
ATClassRef _Nullable atr_methodOwner(ATClassRef _Nonnull cls, ATMethodRef _Nonnull method);
/** `method_exchangeImplementations`, with each method's owner so the dispatch tables
    are kept right: GCC's version writes into the table every never-messaged class
    shares when an owner has not been messaged yet. */
void atr_exchangeImplementations(ATClassRef _Nonnull firstOwner, ATMethodRef _Nonnull first, ATClassRef _Nonnull secondOwner, ATMethodRef _Nonnull second);
/** `method_setImplementation` (with the method's owner, as for an exchange): the
    previous implementation. */
ATImplementation _Nonnull atr_setImplementation(ATClassRef _Nonnull owner, ATMethodRef _Nonnull method, ATImplementation _Nonnull imp);
/** GCC's own `method_setImplementation`, for the test that pins its dispatch-table
    defect; the backend never calls it. */
void atr_gccSetImplementation(ATMethodRef _Nonnull method, ATImplementation _Nonnull imp);
/** `objc_allocateClassPair`; NULL when the name is taken. */
ATClassRef _Nullable atr_allocateClassPair(ATClassRef _Nonnull superclass, const char *_Nonnull name);
/** `objc_registerClassPair`. */
void atr_registerClassPair(ATClassRef _Nonnull cls);
/** `object_getClass`: the real class, isa-swizzling included. */
ATClassRef _Nonnull atr_objectClass(ATObjectRef _Nonnull object);
/** `object_setClass`: the previous class. */
ATClassRef _Nonnull atr_setClass(ATObjectRef _Nonnull object, ATClassRef _Nonnull cls);
/** `[cls new]` (+1). */
ATObjectRef _Nullable atr_new(ATClassRef _Nonnull cls);
/** `[object retain]`. */
void atr_retain(ATObjectRef _Nonnull object);
/** `[object release]`. */
void atr_release(ATObjectRef _Nonnull object);
/** The implementation `[super selector]` compiled in `staticClass` runs for
    `receiver` (objc_msgSendSuper2's lookup). When no superclass implements it, the
    receiver's forwarding runs, as objc4 does — GCC's own objc_msg_lookup_super hands
    the forwarding hook a nil receiver there, which crashes GNUstep's hook. */
ATImplementation _Nullable atr_lookUpSuper(ATObjectRef _Nonnull receiver, ATClassRef _Nonnull staticClass, ATSelectorRef _Nonnull selector);
/** Sends `[super message]` the way GCC's own objc_msg_lookup_super does, for a
    selector no superclass implements: on GNUstep Base the process dies (SIGSEGV). The
    crash the oracle's isolation test provokes on purpose. */
void atr_crashWithGCCSuperLookup(void);
/** A `-class` implementation for a generated subclass: reports the real class's
    superclass (the class the object was made of). Types `#@:`. */
ATImplementation _Nonnull atr_reportSuperclassImplementation(void);
/** Whether `cls` is a class GNUstep's key-value observing generated (GSKVO…). */
bool atr_isKeyValueObservingClass(ATClassRef _Nonnull cls);
/** Whether the implementation is the runtime's forwarding entry (no method found). */
bool atr_isForwardingImplementation(ATImplementation _Nullable imp);

/* Messages. Each catches an Objective-C exception and reports its name. */

/** What a message sent through the bridge did. */
typedef struct {
    /** The result (an integer, a BOOL, or an object's address). */
    intptr_t value;
    /** Whether an exception was raised (and caught). */
    bool raised;
    /** The exception's name, when one was raised. */
    char exceptionName[64];
} ATSendResult;

/** `[object selector]`, returning an integer. */
ATSendResult atr_send0(ATObjectRef _Nonnull object, ATSelectorRef _Nonnull selector);
/** `[object selector argument]`, an object argument, returning an integer. */
ATSendResult atr_send1(ATObjectRef _Nonnull object, ATSelectorRef _Nonnull selector, ATObjectRef _Nullable argument);
/** `[object respondsToSelector:selector]`. */
ATSendResult atr_respondsToSelector(ATObjectRef _Nonnull object, ATSelectorRef _Nonnull selector);
/** `[object class]`: the class the object reports (KVO's classes report the original). */
ATClassRef _Nullable atr_reportedClass(ATObjectRef _Nonnull object);

/* Key-value observing (GNUstep Base's, by isa-swizzling to a generated subclass). */

/** `[object addObserver:observer forKeyPath:keyPath options:new context:NULL]`. */
ATSendResult atr_addObserver(ATObjectRef _Nonnull object, ATObjectRef _Nonnull observer, const char *_Nonnull keyPath);
/** `[object removeObserver:observer forKeyPath:keyPath]`. */
ATSendResult atr_removeObserver(ATObjectRef _Nonnull object, ATObjectRef _Nonnull observer, const char *_Nonnull keyPath);

/* The differential oracle's implementations: a pool of distinct IMPs, each writing its
   tag to the calling thread's trace. */

/** How many tags each kind of oracle implementation has. */
enum { ATR_ORACLE_TAGS = 64 };
/** The trace entry written when a chain of super sends or forwards is cut off. */
enum { ATR_ORACLE_CUT = 9999 };
/** The most trace entries one send may write before chains are cut off. */
enum { ATR_ORACLE_TRACE_LIMIT = 48 };

/** Implementation `tag` (0 ..< ATR_ORACLE_TAGS): writes `tag`, returns `tag`. Types `q@:`. */
ATImplementation _Nonnull atr_oracleImplementation(int tag);
/** Implementation `100 + tag`: writes it, then sends the message to super of the class
    bound with atr_oracleBindSuper, as `[super message]` compiled in that class would. */
ATImplementation _Nonnull atr_oracleSuperImplementation(int tag);
/** Binds super implementation `tag` to the class it is "compiled in". */
void atr_oracleBindSuper(int tag, ATClassRef _Nullable cls);
/** A `forwardInvocation:` implementation: writes `200 + tag` and invokes the
    invocation on the object bound with atr_oracleBindForwardingTarget; when the trace
    is full it raises as `doesNotRecognizeSelector:`. Types `v@:@`. */
ATImplementation _Nonnull atr_oracleForwardingImplementation(int tag);
/** A setter (`setOracleValue:`, types `v@:@`) that writes 400: the key-value
    observed property of the oracle's programs. */
ATImplementation _Nonnull atr_oracleSetterImplementation(void);
/** Its getter (`oracleValue`, types `@@:`): always nil. KVO reads it for the change. */
ATImplementation _Nonnull atr_oracleGetterImplementation(void);
/** A `respondsToSelector:` override answering `answer` for every selector. Types `c@::`. */
ATImplementation _Nonnull atr_oracleRespondsImplementation(bool answer);
/** How many `-class` overrides the oracle has: one per class a program can make. */
#define ATR_ORACLE_CLASS_SLOTS 8
/** A `-class` override returning the class bound to `slot` (0…7) with
    atr_oracleBindReportedClass, as an app's or a library's override would. Types `#@:`. */
ATImplementation _Nonnull atr_oracleClassImplementation(int slot);
/** Binds `-class` override `slot` to the class it reports. */
void atr_oracleBindReportedClass(int slot, ATClassRef _Nullable cls);
/** The `methodSignatureForSelector:` that goes with the forwarding implementations:
    `q@:` for every selector. Types `@@::`. */
ATImplementation _Nonnull atr_oracleForwardingSignatureImplementation(void);
/** Binds forwarding implementation `tag` to its target. */
void atr_oracleBindForwardingTarget(int tag, ATObjectRef _Nullable target);
/** The oracle tag of an implementation: 0…63 plain, 100…163 super, 200…263
    forwarding; -1 for any other. */
int atr_oracleTag(ATImplementation _Nullable imp);
/** A `forwardingTargetForSelector:` implementation returning the object bound with
    atr_bindFastForwardingTarget (not retained), for the test that shows GNUstep Base on
    GCC's runtime never sends it. Types `@@::`. */
ATImplementation _Nonnull atr_fastForwardingImplementation(void);
/** Binds the target of the fast- and slow-forwarding test implementations. */
void atr_bindFastForwardingTarget(ATObjectRef _Nullable target);
/** A `forwardInvocation:` implementation that writes 300 and invokes the invocation on
    the object bound with atr_bindFastForwardingTarget (use with
    atr_oracleForwardingSignatureImplementation). Types `v@:@`. */
ATImplementation _Nonnull atr_slowForwardingImplementation(void);
/** Clears the calling thread's trace. */
void atr_oracleResetTrace(void);
/** The number of entries in the calling thread's trace. */
int atr_oracleTraceCount(void);
/** Entry `index` of the calling thread's trace. */
int atr_oracleTraceEntry(int index);

/* Closures: an IMP of its own for each implementation of a mirrored runtime, made with
   libffi for the method's type encoding, so native code can call it with the C calling
   convention of that encoding. Every argument reaches the handler as 64 bits (an
   integer, a pointer, or a double's bits) with its kind; the handler writes the result
   the same way. */

/** What every closure calls: its context, the number of arguments (the receiver and
    selector included), their kinds (one character each: `@ # : ^ c C s S i I l L q Q f d`;
    `?` for a block) and values, the return kind (`v` for none) and where to put the
    result. */
typedef void (*ATClosureHandler)(void *_Nullable context, int count, const char *_Nonnull kinds,
                                 const uint64_t *_Nonnull arguments, char returnKind, uint64_t *_Nonnull result);
/** Sets the handler every closure calls. */
void atr_setClosureHandler(ATClosureHandler _Nullable handler);
/** A new IMP for methods of encoding `types` that calls the handler with `context`, or
    NULL when the encoding takes what closures cannot pass (a struct by value). Never
    freed: an IMP may stay in a method list for the process's life. */
ATImplementation _Nullable atr_makeClosure(const char *_Nonnull types, void *_Nullable context);
/** The context `atr_makeClosure` gave `imp`, or NULL when `imp` is not a closure. */
void *_Nullable atr_closureContext(ATImplementation _Nullable imp);
/** `objc_msg_lookup`: the IMP a send of `selector` to `receiver` (an object or a class)
    runs, the forwarding entry when nothing implements it. */
ATImplementation _Nullable atr_messageLookup(ATObjectRef _Nonnull receiver, ATSelectorRef _Nonnull selector);
/** `objc_msg_lookup_super` from `superclass`, which must implement `selector`. */
ATImplementation _Nullable atr_superLookupImplemented(ATObjectRef _Nonnull receiver, ATClassRef _Nonnull superclass, ATSelectorRef _Nonnull selector);
/** `class_respondsToSelector`. */
bool atr_classResponds(ATClassRef _Nonnull cls, ATSelectorRef _Nonnull selector);
/** `[cls alloc]` (NSObject's and NSProxy's), owned by the caller. */
ATObjectRef _Nullable atr_alloc(ATClassRef _Nonnull cls);
/** Sends `selector` with up to four integer or pointer arguments from native code, as a
    compiled call would (`objc_msg_lookup`, then the IMP), catching what it raises. */
ATSendResult atr_sendNative(ATObjectRef _Nonnull object, ATSelectorRef _Nonnull selector, uintptr_t first, uintptr_t second);
/** Sends a method taking a double and returning a double, from native code. */
double atr_sendNativeDouble(ATObjectRef _Nonnull object, ATSelectorRef _Nonnull selector, double argument);

/* Blocks. */

/** What a block made by `atr_makeBlock` calls: its context and the block's first four
    arguments, each widened to 64 bits (integers and pointers only; arguments a block
    does not take arrive as whatever their registers held). */
typedef uint64_t (*ATBlockHandler)(void *_Nullable context, uint64_t first, uint64_t second, uint64_t third, uint64_t fourth);
/** A heap block that calls `handler` with `context` and its arguments. Never freed by the
    bridge: native code may keep it (Block_copy) for as long as it likes. */
ATObjectRef _Nonnull atr_makeBlock(void *_Nullable context, ATBlockHandler _Nonnull handler);
/** Calls a real block with up to four integer or pointer arguments, as compiled code
    calls one; its result as 64 bits (meaningless for a block returning nothing). */
uint64_t atr_callBlock(ATObjectRef _Nonnull block, int32_t count, const uint64_t *_Nullable arguments);
/** `Block_copy`. */
ATObjectRef _Nonnull atr_copyBlock(ATObjectRef _Nonnull block);
/** `Block_release`. */
void atr_releaseBlock(ATObjectRef _Nonnull block);

/* Deallocation. */

/** Called with each object about to be deallocated. */
typedef void (*ATDeallocationObserver)(ATObjectRef _Nonnull object);
/** Calls `observer` at the start of every -[NSObject dealloc] and -[NSProxy dealloc]
    (installed once; a later call replaces the observer). */
void atr_observeDeallocation(ATDeallocationObserver _Nullable observer);

/* Real forwarding, for mirrored runtimes. */

/** Sends `selector` — which nothing implements — to `receiver` as compiled code would:
    through the forwarding IMP GNUstep's hook gives, called with the C convention of
    `types` (return type, then self, _cmd and each argument) and `count` arguments
    widened to 64 bits; the result goes to `result`. Catches what it raises. */
ATSendResult atr_forwardNatively(ATObjectRef _Nonnull receiver, ATSelectorRef _Nonnull selector, const char *_Nonnull types,
                                 const uint64_t *_Nonnull arguments, int count, uint64_t *_Nonnull result);
/** Calls `imp` — an implementation native code installed — on `receiver` with the C
    convention of `types`, as atr_forwardNatively() calls the forwarding IMP. */
ATSendResult atr_callNatively(ATImplementation _Nonnull imp, ATObjectRef _Nonnull receiver, ATSelectorRef _Nonnull selector,
                              const char *_Nonnull types, const uint64_t *_Nonnull arguments, int count, uint64_t *_Nonnull result);
/** The methods `cls` has of its own, up to `capacity` written to `methods`; returns how
    many it has. */
int atr_ownMethods(ATClassRef _Nonnull cls, ATMethodRef _Nullable *_Nonnull methods, int capacity);
/** Releases the values native code associated with `object` (objc_setAssociatedObject),
    which is being deallocated. */
void atr_forgetNativeAssociations(ATObjectRef _Nonnull object);
/** Gives every send native code makes objc4's fast forwarding: a receiver's
    -forwardingTargetForSelector: is asked first (GNUstep asks it only for untyped
    selectors). Once per process; NativeForwarding.m. */
void atr_installFastForwarding(void);
/** Tells GCC's runtime the process has threads it did not start, so that it never frees
    a dispatch table another thread may be reading (a no-op while it already counts
    more than one thread; Runtime.m). */
void atr_declareThreads(void);
/** Whether `object` is a class (its isa is a metaclass). */
bool atr_isClassObject(ATObjectRef _Nonnull object);
/** The selector of `method`. */
ATSelectorRef _Nonnull atr_methodSelector(ATMethodRef _Nonnull method);
/** A retained NSMethodSignature for `types`. */
ATObjectRef _Nullable atr_methodSignature(const char *_Nonnull types);
/** Whether `object` is an NSInvocation. */
bool atr_isInvocation(ATObjectRef _Nullable object);
/** An invocation's signature types (return type first) written into `buffer`, or NULL
    when they do not fit. */
const char *_Nullable atr_invocationTypes(ATObjectRef _Nonnull invocation, char *_Nonnull buffer, int capacity);
/** An invocation's selector. */
ATSelectorRef _Nullable atr_invocationSelector(ATObjectRef _Nonnull invocation);
/** An invocation's target. */
ATObjectRef _Nullable atr_invocationTarget(ATObjectRef _Nonnull invocation);
/** An invocation's argument `index` (2 is the first after self and _cmd), widened to 64 bits. */
uint64_t atr_invocationArgument(ATObjectRef _Nonnull invocation, int index);
/** Sets an invocation's return value from 64 bits, by its return type. */
void atr_invocationSetReturn(ATObjectRef _Nonnull invocation, uint64_t bits);

/* The app's own classes (compiled from Objective-C): ATAppTable, ATAppDelegate,
   ATAppDelegateSubclass (its override calls super), ATAppViewController, ATAppObserver.
   Their methods write to the app log. */

/** Writes `entry` to the app log (a test's own events, between the app's). */
void atr_appLogNote(const char *_Nonnull entry);
/** Clears the app log. */
void atr_appLogClear(void);
/** The number of app log entries. */
int atr_appLogCount(void);
/** App log entry `index`. */
const char *_Nonnull atr_appLogEntry(int index);
/** A new ATAppTable (+1). */
ATObjectRef _Nonnull atr_appNewTable(void);
/** `[table setDelegate:delegate]` (held unretained, as UIKit holds delegates). */
void atr_appTableSetDelegate(ATObjectRef _Nonnull table, ATObjectRef _Nullable delegate);
/** A user's tap on row `row`: the table sends its delegate
    `tableView:didSelectRowAtIndexPath:` when it responds to it. */
ATSendResult atr_appUserSelectRow(ATObjectRef _Nonnull table, long row);
/** `[object setTitle:title]` on an ATAppDelegate (key-value observable). */
ATSendResult atr_appSetTitle(ATObjectRef _Nonnull object, const char *_Nonnull title);
/** How many changes ATAppObserver instances were told about. */
int atr_appObservedChanges(void);
/** A new ATAppObserver (+1). */
ATObjectRef _Nonnull atr_appNewObserver(void);
/** A new view controller of the class named `className` (ATAppViewController,
    ATAppNoSuperViewController, or one made at run time under ATViewController), +1. */
ATObjectRef _Nullable atr_appNewController(const char *_Nonnull className);
/** Presents `controller` as UIKit does: `viewDidLoad` the first time, then
    `viewDidAppear:`. */
ATSendResult atr_appPresent(ATObjectRef _Nonnull controller);
/** A `viewDidAppear:` override that logs and never calls super (types `v@:c`), for a
    controller class made at run time. */
ATImplementation _Nonnull atr_appOverrideWithoutSuperImplementation(void);
/** A new ATControl titled `title` (+1). */
ATObjectRef _Nonnull atr_appNewControl(const char *_Nonnull title);
/** The control's title. */
const char *_Nonnull atr_appControlTitle(ATObjectRef _Nonnull control);
/** A new ATAppActions target (+1). */
ATObjectRef _Nonnull atr_appNewActions(void);
/** `[control addTarget:target action:action]` (the target is held unretained). */
void atr_appControlAddTarget(ATObjectRef _Nonnull control, ATObjectRef _Nonnull target, const char *_Nonnull action);
/** A touch: the control dispatches each target-action pair through
    `sendAction:to:forEvent:` with one new event object. */
ATSendResult atr_appTouch(ATObjectRef _Nonnull control);
/** `[control sendAction:action to:target forEvent:nil]`: an action sent from code. */
ATSendResult atr_appSendAction(ATObjectRef _Nonnull control, ATObjectRef _Nonnull target, const char *_Nonnull action);
/** `+[ATAlertAction actionWithTitle:handler:]` (a message: hookable): a new action whose
    handler logs `handled <title>`, or none with `withHandler` false. +0 (autoreleased
    into the caller's pool: retain it). */
ATObjectRef _Nonnull atr_appMakeAlertAction(const char *_Nonnull title, bool withHandler);
/** The user taps the action: the framework runs its handler. */
ATSendResult atr_appTapAlertAction(ATObjectRef _Nonnull action);
/** The action's title. */
const char *_Nonnull atr_appAlertActionTitle(ATObjectRef _Nonnull action);
/** A new ATTapGestureRecognizer (+1). */
ATObjectRef _Nonnull atr_appNewTapRecognizer(void);
/** `[recognizer addTarget:target action:action]` (a message: hookable). */
ATSendResult atr_appRecognizerAddTarget(ATObjectRef _Nonnull recognizer, ATObjectRef _Nonnull target, const char *_Nonnull action);
/** A recognized tap: the recognizer sends each of its actions. */
ATSendResult atr_appRecognizeTap(ATObjectRef _Nonnull recognizer);
/** How many target-action pairs the recognizer has. */
int atr_appRecognizerTargetCount(ATObjectRef _Nonnull recognizer);
/** Called after native code moved `object` to `cls` with object_setClass. */
typedef void (*ATClassChangeObserver)(ATObjectRef _Nonnull object, ATClassRef _Nonnull cls);
/** Registers the observer of native object_setClass calls (NativeClassChanges.m). */
void atr_observeNativeClassChanges(ATClassChangeObserver _Nullable callback);
/** Posts the notification `name` to `[NSNotificationCenter defaultCenter]`, with `object`
    (nil allowed) as its object: the host's lifecycle notifications, for native
    observers. */
void atr_postNotification(const char *_Nonnull name, ATObjectRef _Nullable object);
/** `objc_getClassList`: fills `buffer` with up to `capacity` classes; returns how many
    classes there are. */
int atr_classList(ATClassRef _Nonnull *_Nullable buffer, int capacity);

#include "ObjCDispatchBenchmarks.h"

#ifdef __cplusplus
}
#endif

#endif
