/// AutoTrackRuntime: `Runtime` appears in this file's public API.
public import AutoTrackRuntime
import Synchronization

/// Runtimes whose dispatch the real Objective-C runtime decides: the package's model
/// with a twin in GCC's libobjc for every class, method, implementation and object.
///
/// A mirrored runtime is a `Runtime` like any other — the reference host builds its
/// UIKit classes in it and the built-in hooks install on it unchanged — but every class
/// it makes is a real class (under GNUstep's `NSObject` or `NSProxy`), every
/// implementation a real `IMP` of its own (a libffi closure for the method's type
/// encoding, callable from native code), and every method change a real
/// `class_addMethod`, `method_setImplementation` or `method_exchangeImplementations`.
/// Each send asks the real runtime which `IMP` runs (`objc_msg_lookup`, or
/// `objc_msg_lookup_super` for `super`) and runs that implementation; the model's own
/// choice is checked against it (`Runtime.dispatchDivergences`).
///
/// ```swift
/// let host = try ReferenceHost(runtime: MirroredRuntime.make())
/// ```
///
/// A message nothing implements is forwarded by GNUstep: its forwarding IMP, called
/// with the C convention of the message's encoding, asks `methodSignatureForSelector:`,
/// packs an `NSInvocation` and hands it to `forwardInvocation:` — this runtime's
/// implementations, called natively and given the invocation as the model's
/// `Invocation` (Swift values such as index paths travel in boxes). Only the fast path
/// keeps objc4's order: `forwardingTargetForSelector:` is asked first, as objc4 does
/// and GNUstep does not always. Key-value observing is the model's, on real classes.
/// Real class names carry a prefix per runtime (`ATR3_UIButton`), so many runtimes
/// share the process; the model's names are unchanged. Classes are never disposed of in
/// the real runtime.
public enum MirroredRuntime {
    /// A new runtime whose dispatch this process's real Objective-C runtime decides.
    public static func make() -> Runtime {
        let engine = ObjCDispatchEngine()
        let runtime = Runtime(engine: engine)
        engine.attach(runtime)
        return runtime
    }

    /// The real class standing for `cls` of a mirrored runtime (`nil` on a model-only
    /// runtime), for tests that look at the real runtime directly.
    public static func realClass(of cls: RuntimeClass) -> ObjCClass? {
        cls.twin == 0 ? nil : ObjCRuntime.shared.wrap(OpaquePointer(bitPattern: cls.twin)!)
    }

    /// The real object standing for `object` of a mirrored runtime, retained by the
    /// returned wrapper; `nil` on a model-only runtime.
    public static func realObject(of object: RuntimeObject) -> ObjCObject? {
        object.twin == 0 ? nil : ObjCObject(retaining: OpaquePointer(bitPattern: object.twin)!)
    }

    /// How many calls native code made to a mirrored runtime's implementations that
    /// failed: a model error thrown, or a receiver the runtime does not know (the call
    /// returned zero).
    public static var failedNativeCalls: Int { ObjCDispatchEngine.failedNativeCalls.load(ordering: .relaxed) }

    /// How many sends `runtime` forwarded through GNUstep's own forwarding
    /// (`NSInvocation`, `forwardInvocation:`); 0 for a runtime that is not mirrored.
    public static func realForwardCount(of runtime: Runtime) -> Int {
        (runtime.dispatchEngine as? ObjCDispatchEngine)?.realForwards.load(ordering: .relaxed) ?? 0
    }
}
