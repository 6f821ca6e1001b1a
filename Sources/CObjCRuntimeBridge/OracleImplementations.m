/* The differential oracle's implementations: ATR_ORACLE_TAGS distinct IMPs of each
   kind, so that a trace of tags says exactly which implementations a send ran. */
#import <Foundation/Foundation.h>
#include <objc/message.h>
#include <objc/runtime.h>
#include "CObjCRuntimeBridge.h"

static _Thread_local int trace[ATR_ORACLE_TRACE_LIMIT + 1];
static _Thread_local int traceCount = 0;

/* Writes `entry`; false (after writing the cut marker once) when the trace is full. */
static bool record(int entry) {
    if (traceCount >= ATR_ORACLE_TRACE_LIMIT) {
        if (traceCount == ATR_ORACLE_TRACE_LIMIT) trace[traceCount++] = ATR_ORACLE_CUT;
        return false;
    }
    trace[traceCount++] = entry;
    return true;
}

void atr_oracleResetTrace(void) { traceCount = 0; }
int atr_oracleTraceCount(void) { return traceCount; }
int atr_oracleTraceEntry(int index) { return index >= 0 && index < traceCount ? trace[index] : -1; }

static Class superBinding[ATR_ORACLE_TAGS];
static id forwardingBinding[ATR_ORACLE_TAGS];

void atr_oracleBindSuper(int tag, ATClassRef cls) {
    if (tag >= 0 && tag < ATR_ORACLE_TAGS) superBinding[tag] = (Class)(void *)cls;
}

void atr_oracleBindForwardingTarget(int tag, ATObjectRef target) {
    if (tag >= 0 && tag < ATR_ORACLE_TAGS) forwardingBinding[tag] = (id)(void *)target;
}

static intptr_t plain(int tag) {
    record(tag);
    return tag;
}

static intptr_t superSend(int tag, id self, SEL _cmd) {
    if (!record(100 + tag)) return -1;
    Class bound = superBinding[tag];
    if (bound == Nil || class_getSuperclass(bound) == Nil) return -1;
    IMP imp = (IMP)atr_lookUpSuper((ATObjectRef)(void *)self, (ATClassRef)(void *)bound, (ATSelectorRef)(void *)_cmd);
    return ((intptr_t (*)(id, SEL))imp)(self, _cmd);
}

/* Forwarding the slow way — the only way GNUstep Base forwards on GCC's runtime: every
   selector gets the signature `q@:`, and the invocation goes to the bound target. */
static id forwardingSignature(id self, SEL _cmd, SEL selector) {
    return [NSMethodSignature signatureWithObjCTypes:"q@:"];
}

static void forwardInvocation(int tag, id self, NSInvocation *invocation) {
    if (!record(200 + tag)) {
        /* What -doesNotRecognizeSelector: raises, raised here: NSProxy subclasses need
           not implement that NSObject method (GNUstep's do not, and forwarding it would
           come back here for ever). */
        [NSException raise:NSInvalidArgumentException format:@"%s: unrecognized selector (trace full)", sel_getName([invocation selector])];
        return;
    }
    [invocation invokeWithTarget:forwardingBinding[tag]];
}

#define ORACLE_TAG(n)                                                                                   \
    static intptr_t plain_##n(id self, SEL _cmd) { return plain(n); }                                   \
    static intptr_t super_##n(id self, SEL _cmd) { return superSend(n, self, _cmd); }                   \
    static void forward_##n(id self, SEL _cmd, NSInvocation *invocation) { forwardInvocation(n, self, invocation); }
ORACLE_TAG(0) ORACLE_TAG(1) ORACLE_TAG(2) ORACLE_TAG(3) ORACLE_TAG(4) ORACLE_TAG(5) ORACLE_TAG(6) ORACLE_TAG(7)
ORACLE_TAG(8) ORACLE_TAG(9) ORACLE_TAG(10) ORACLE_TAG(11) ORACLE_TAG(12) ORACLE_TAG(13) ORACLE_TAG(14) ORACLE_TAG(15)
ORACLE_TAG(16) ORACLE_TAG(17) ORACLE_TAG(18) ORACLE_TAG(19) ORACLE_TAG(20) ORACLE_TAG(21) ORACLE_TAG(22) ORACLE_TAG(23)
ORACLE_TAG(24) ORACLE_TAG(25) ORACLE_TAG(26) ORACLE_TAG(27) ORACLE_TAG(28) ORACLE_TAG(29) ORACLE_TAG(30) ORACLE_TAG(31)
ORACLE_TAG(32) ORACLE_TAG(33) ORACLE_TAG(34) ORACLE_TAG(35) ORACLE_TAG(36) ORACLE_TAG(37) ORACLE_TAG(38) ORACLE_TAG(39)
ORACLE_TAG(40) ORACLE_TAG(41) ORACLE_TAG(42) ORACLE_TAG(43) ORACLE_TAG(44) ORACLE_TAG(45) ORACLE_TAG(46) ORACLE_TAG(47)
ORACLE_TAG(48) ORACLE_TAG(49) ORACLE_TAG(50) ORACLE_TAG(51) ORACLE_TAG(52) ORACLE_TAG(53) ORACLE_TAG(54) ORACLE_TAG(55)
ORACLE_TAG(56) ORACLE_TAG(57) ORACLE_TAG(58) ORACLE_TAG(59) ORACLE_TAG(60) ORACLE_TAG(61) ORACLE_TAG(62) ORACLE_TAG(63)

static const IMP plainTable[ATR_ORACLE_TAGS] = {
    (IMP)plain_0, (IMP)plain_1, (IMP)plain_2, (IMP)plain_3, (IMP)plain_4, (IMP)plain_5, (IMP)plain_6, (IMP)plain_7,
    (IMP)plain_8, (IMP)plain_9, (IMP)plain_10, (IMP)plain_11, (IMP)plain_12, (IMP)plain_13, (IMP)plain_14, (IMP)plain_15,
    (IMP)plain_16, (IMP)plain_17, (IMP)plain_18, (IMP)plain_19, (IMP)plain_20, (IMP)plain_21, (IMP)plain_22, (IMP)plain_23,
    (IMP)plain_24, (IMP)plain_25, (IMP)plain_26, (IMP)plain_27, (IMP)plain_28, (IMP)plain_29, (IMP)plain_30, (IMP)plain_31,
    (IMP)plain_32, (IMP)plain_33, (IMP)plain_34, (IMP)plain_35, (IMP)plain_36, (IMP)plain_37, (IMP)plain_38, (IMP)plain_39,
    (IMP)plain_40, (IMP)plain_41, (IMP)plain_42, (IMP)plain_43, (IMP)plain_44, (IMP)plain_45, (IMP)plain_46, (IMP)plain_47,
    (IMP)plain_48, (IMP)plain_49, (IMP)plain_50, (IMP)plain_51, (IMP)plain_52, (IMP)plain_53, (IMP)plain_54, (IMP)plain_55,
    (IMP)plain_56, (IMP)plain_57, (IMP)plain_58, (IMP)plain_59, (IMP)plain_60, (IMP)plain_61, (IMP)plain_62, (IMP)plain_63,
};
static const IMP superTable[ATR_ORACLE_TAGS] = {
    (IMP)super_0, (IMP)super_1, (IMP)super_2, (IMP)super_3, (IMP)super_4, (IMP)super_5, (IMP)super_6, (IMP)super_7,
    (IMP)super_8, (IMP)super_9, (IMP)super_10, (IMP)super_11, (IMP)super_12, (IMP)super_13, (IMP)super_14, (IMP)super_15,
    (IMP)super_16, (IMP)super_17, (IMP)super_18, (IMP)super_19, (IMP)super_20, (IMP)super_21, (IMP)super_22, (IMP)super_23,
    (IMP)super_24, (IMP)super_25, (IMP)super_26, (IMP)super_27, (IMP)super_28, (IMP)super_29, (IMP)super_30, (IMP)super_31,
    (IMP)super_32, (IMP)super_33, (IMP)super_34, (IMP)super_35, (IMP)super_36, (IMP)super_37, (IMP)super_38, (IMP)super_39,
    (IMP)super_40, (IMP)super_41, (IMP)super_42, (IMP)super_43, (IMP)super_44, (IMP)super_45, (IMP)super_46, (IMP)super_47,
    (IMP)super_48, (IMP)super_49, (IMP)super_50, (IMP)super_51, (IMP)super_52, (IMP)super_53, (IMP)super_54, (IMP)super_55,
    (IMP)super_56, (IMP)super_57, (IMP)super_58, (IMP)super_59, (IMP)super_60, (IMP)super_61, (IMP)super_62, (IMP)super_63,
};
static const IMP forwardTable[ATR_ORACLE_TAGS] = {
    (IMP)forward_0, (IMP)forward_1, (IMP)forward_2, (IMP)forward_3, (IMP)forward_4, (IMP)forward_5, (IMP)forward_6, (IMP)forward_7,
    (IMP)forward_8, (IMP)forward_9, (IMP)forward_10, (IMP)forward_11, (IMP)forward_12, (IMP)forward_13, (IMP)forward_14, (IMP)forward_15,
    (IMP)forward_16, (IMP)forward_17, (IMP)forward_18, (IMP)forward_19, (IMP)forward_20, (IMP)forward_21, (IMP)forward_22, (IMP)forward_23,
    (IMP)forward_24, (IMP)forward_25, (IMP)forward_26, (IMP)forward_27, (IMP)forward_28, (IMP)forward_29, (IMP)forward_30, (IMP)forward_31,
    (IMP)forward_32, (IMP)forward_33, (IMP)forward_34, (IMP)forward_35, (IMP)forward_36, (IMP)forward_37, (IMP)forward_38, (IMP)forward_39,
    (IMP)forward_40, (IMP)forward_41, (IMP)forward_42, (IMP)forward_43, (IMP)forward_44, (IMP)forward_45, (IMP)forward_46, (IMP)forward_47,
    (IMP)forward_48, (IMP)forward_49, (IMP)forward_50, (IMP)forward_51, (IMP)forward_52, (IMP)forward_53, (IMP)forward_54, (IMP)forward_55,
    (IMP)forward_56, (IMP)forward_57, (IMP)forward_58, (IMP)forward_59, (IMP)forward_60, (IMP)forward_61, (IMP)forward_62, (IMP)forward_63,
};

ATImplementation atr_oracleImplementation(int tag) { return (ATImplementation)plainTable[tag & (ATR_ORACLE_TAGS - 1)]; }
ATImplementation atr_oracleSuperImplementation(int tag) { return (ATImplementation)superTable[tag & (ATR_ORACLE_TAGS - 1)]; }
static void oracleSetter(id self, SEL _cmd, id value) { record(400); }

ATImplementation atr_oracleSetterImplementation(void) { return (ATImplementation)oracleSetter; }

static id oracleGetter(id self, SEL _cmd) { return nil; }

ATImplementation atr_oracleGetterImplementation(void) { return (ATImplementation)oracleGetter; }

static BOOL respondsYes(id self, SEL _cmd, SEL selector) { return YES; }
static BOOL respondsNo(id self, SEL _cmd, SEL selector) { return NO; }

ATImplementation atr_oracleRespondsImplementation(bool answer) { return (ATImplementation)(answer ? respondsYes : respondsNo); }

static Class reportedClassBinding[ATR_ORACLE_CLASS_SLOTS];

void atr_oracleBindReportedClass(int slot, ATClassRef cls) {
    if (slot >= 0 && slot < ATR_ORACLE_CLASS_SLOTS) reportedClassBinding[slot] = (Class)(void *)cls;
}

#define ATR_REPORTS(n) static Class reports_##n(id self, SEL _cmd) { return reportedClassBinding[n]; }
ATR_REPORTS(0) ATR_REPORTS(1) ATR_REPORTS(2) ATR_REPORTS(3) ATR_REPORTS(4) ATR_REPORTS(5) ATR_REPORTS(6) ATR_REPORTS(7)
#undef ATR_REPORTS

static const IMP reportsTable[ATR_ORACLE_CLASS_SLOTS] = {
    (IMP)reports_0, (IMP)reports_1, (IMP)reports_2, (IMP)reports_3, (IMP)reports_4, (IMP)reports_5, (IMP)reports_6, (IMP)reports_7,
};

ATImplementation atr_oracleClassImplementation(int slot) { return (ATImplementation)reportsTable[slot & (ATR_ORACLE_CLASS_SLOTS - 1)]; }

ATImplementation atr_oracleForwardingSignatureImplementation(void) { return (ATImplementation)forwardingSignature; }

ATImplementation atr_oracleForwardingImplementation(int tag) { return (ATImplementation)forwardTable[tag & (ATR_ORACLE_TAGS - 1)]; }

int atr_oracleTag(ATImplementation imp) {
    for (int index = 0; index < ATR_ORACLE_TAGS; index++) {
        if ((IMP)imp == plainTable[index]) return index;
        if ((IMP)imp == superTable[index]) return 100 + index;
        if ((IMP)imp == forwardTable[index]) return 200 + index;
    }
    return -1;
}

static id fastForwardingTarget = nil;

static id fastForwarding(id self, SEL _cmd, SEL selector) { return fastForwardingTarget; }

ATImplementation atr_fastForwardingImplementation(void) { return (ATImplementation)fastForwarding; }

void atr_bindFastForwardingTarget(ATObjectRef target) { fastForwardingTarget = (id)(void *)target; }

static void slowForwarding(id self, SEL _cmd, NSInvocation *invocation) {
    record(300);
    [invocation invokeWithTarget:fastForwardingTarget];
}

ATImplementation atr_slowForwardingImplementation(void) { return (ATImplementation)slowForwarding; }
