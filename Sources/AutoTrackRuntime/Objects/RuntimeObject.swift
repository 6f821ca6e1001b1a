import Synchronization
import AutoTrackLocking

/// An object (`id`): an `isa` pointer to its real class, plus associated objects.
///
/// Host frameworks subclass `RuntimeObject` to give their objects Swift-side storage
/// (a view's frame, a control's targets) while the runtime class decides which
/// methods run. The `isa` can change at run time (``Runtime/setClass(of:to:)``), which
/// is how dynamic-subclass hooks and key-value observation work.
open class RuntimeObject: @unchecked Sendable {
    // Safe: `isaStorage` is atomic; associations are behind a mutex; the runtime
    // reference is immutable; `twin` is written once — in `init` for an instance, by the
    // runtime under its lock before a class is handed out — and only read afterwards.
    // Subclasses that add storage document their own rules.

    let isaStorage: Atomic<Unmanaged<RuntimeClass>?>
    let associationStorage = Locked<[AssociationKey: Association]>([:])
    /// Instances keep their runtime alive; classes are owned by it.
    private let owningRuntime: Runtime?
    /// The twin in the real runtime deciding dispatch (its address), or 0. For a class,
    /// set once by its runtime before the class is published.
    package internal(set) var twin: UInt = 0
    /// Whether this object made its twin and releases it (`false` for an object native
    /// code made, which the runtime adopted).
    private let ownsTwin: Bool

    /// Creates an instance of `cls`, which must be registered; use
    /// ``Runtime/allocate(_:)`` for a checked creation.
    public init(instanceOf cls: RuntimeClass) {
        isaStorage = Atomic(Unmanaged.passUnretained(cls))
        owningRuntime = cls.runtime
        ownsTwin = true
        cls.liveInstances.add(1, ordering: .relaxed)
        if let engine = cls.runtime.engine { twin = engine.makeInstance(of: cls.twin, for: self) }
    }

    /// An object standing for `twin`, an object native code made in the real runtime
    /// deciding `cls`'s runtime's dispatch (a hook's forwarding proxy, an app's
    /// compiled object); it does not release the twin. (Internal, made through
    /// ``Runtime/adoptNativeObject(twin:of:)``: a designated initializer other modules
    /// see would have to be overridden by every host subclass.)
    init(adoptingTwin twin: UInt, of cls: RuntimeClass) {
        isaStorage = Atomic(Unmanaged.passUnretained(cls))
        owningRuntime = cls.runtime
        ownsTwin = false
        cls.liveInstances.add(1, ordering: .relaxed)
        self.twin = twin
    }

    init(classObjectWithIsa isa: RuntimeClass?) {
        isaStorage = Atomic(isa.map { Unmanaged.passUnretained($0) })
        owningRuntime = nil
        ownsTwin = false
    }

    deinit {
        if let owningRuntime {
            realClass.liveInstances.subtract(1, ordering: .relaxed)
            if twin != 0, ownsTwin { owningRuntime.engine?.releaseInstance(twin) }
        }
    }

    /// The real class (`object_getClass`): where method lookup starts. May differ from
    /// the class the object reports through the `class` message.
    public var realClass: RuntimeClass {
        isaStorage.load(ordering: .acquiring)!.takeUnretainedValue()
    }

    func setIsa(_ cls: RuntimeClass) {
        isaStorage.store(Unmanaged.passUnretained(cls), ordering: .releasing)
    }

    /// Whether this object is a class.
    public var isClassObject: Bool { owningRuntime == nil }
}

/// The key of an associated object (the `const void *key` of
/// `objc_setAssociatedObject`).
public struct AssociationKey: Hashable, Sendable {
    /// A name unique to the owner of the association, e.g. `autotrack.delegateProxy`.
    public let name: String

    /// Creates a key.
    public init(_ name: String) { self.name = name }
}

/// How an associated object is held.
public enum AssociationPolicy: Sendable {
    /// Strongly: the value lives at least as long as the object
    /// (`OBJC_ASSOCIATION_RETAIN_NONATOMIC`).
    case retain
    /// Without retaining (`OBJC_ASSOCIATION_ASSIGN`). Where objc4 would leave a
    /// dangling pointer once the value is freed, this model reads `nil`.
    case assign
}

enum Association {
    case strong(any AnyObject & Sendable)
    case weak(WeakBox)

    final class WeakBox: @unchecked Sendable {
        // Safe: the weak reference is written once, in `init`.
        weak var value: (any AnyObject & Sendable)?
        init(_ value: any AnyObject & Sendable) { self.value = value }
    }

    var value: (any AnyObject & Sendable)? {
        switch self {
        case .strong(let value): value
        case .weak(let box): box.value
        }
    }
}
