/// AutoTrackRuntime: `Runtime` appears in this file's public API.
public import AutoTrackRuntime
import Synchronization
import CObjCRuntimeBridge

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
    /// - Parameter classNamePrefix: What its real class names start with: a fresh
    ///   prefix per runtime when `nil`, so many runtimes share a process; `""` gives the
    ///   real classes the model's own names (`UIControl`, `UITableView` …), as compiled
    ///   Objective-C written against UIKit expects — for a process holding one host. A
    ///   name the real runtime already has (GNUstep's `NSObject`) gets a suffix (`_2`).
    public static func make(classNamePrefix: String? = nil) -> Runtime {
        let engine = ObjCDispatchEngine(prefix: classNamePrefix)
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

extension MirroredRuntime {
    /// The message native code intercepted — `selector` sent to `receiver` with
    /// `arguments` widened to 64 bits — as the model's, its arguments read by the
    /// receiver's real method's type encoding: objects become the runtime's objects,
    /// boxed Swift values their values. `nil` when `runtime` is not mirrored or the
    /// receiver is none of its objects — unless `adoptingReceiver`, when a receiver
    /// native code made (a hook's own observer, which has no original) is adopted.
    package static func message(
        in runtime: Runtime, receiver: UInt, selector: UnsafeRawPointer?, arguments: [UInt64], adoptingReceiver: Bool = false
    ) -> Message? {
        guard let engine = runtime.dispatchEngine as? ObjCDispatchEngine, let selector,
              let object = engine.modelObject(at: receiver) ?? (adoptingReceiver ? engine.adoptedObject(at: receiver) : nil)
        else { return nil }
        let realSelector = OpaquePointer(selector)
        let name = Selector(String(cString: atr_selectorName(realSelector)))
        let kinds = atr_instanceMethod(atr_objectClass(OpaquePointer(bitPattern: receiver)!), realSelector)
            .map { Array(ObjCTypeKinds(String(cString: atr_methodTypes($0))).argumentKinds) } ?? []
        let values = arguments.enumerated().map { index, bits in
            engine.value(bits: bits, kind: index + 2 < kinds.count ? kinds[index + 2] : "@")
        }
        return Message(receiver: object, selector: name, arguments: MessageArguments(values), runtime: runtime)
    }

    /// Posts the notification `name` to the real runtime's default notification center,
    /// with the real object standing for `object` (if any) as its object: a host's
    /// notifications, for native observers.
    package static func postNativeNotification(_ name: String, object: RuntimeObject?) {
        atr_postNotification(name, object.flatMap { OpaquePointer(bitPattern: $0.twin) })
    }

    /// The real class standing for the class `name` of `runtime`, by address; `nil`
    /// when it has none.
    package static func realClassAddress(named name: String, in runtime: Runtime) -> UInt? {
        guard let cls = runtime.lookUpClass(name), cls.twin != 0 else { return nil }
        return cls.twin
    }
}
