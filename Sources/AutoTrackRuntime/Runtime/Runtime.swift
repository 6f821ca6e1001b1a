import Synchronization
import AutoTrackLocking

/// A universe of classes and the message dispatch between its objects: a small, exact,
/// thread-safe model of the Objective-C runtime (objc4).
///
/// Each runtime owns its classes, so every test can build its own world and tests run
/// in parallel. A new runtime holds two registered root classes, `NSObject` and
/// `NSProxy`, with the root behaviour hooks rely on (see ``rootClass`` and
/// ``proxyRootClass``).
///
/// **Threads.** Any method may be called from any thread. Sending is lock-free: the
/// receiver's `isa`, the class's method cache and the method's implementation are each
/// read atomically, so a send racing with an exchange runs either the old or the new
/// implementation, never a torn one. Changes to classes and method lists take one lock.
public final class Runtime: Sendable {
    /// Mutable state guarded by the runtime's lock.
    struct Registry {
        var classesByName: [String: RuntimeClass] = [:]
        var allClasses: [RuntimeClass] = []
        /// Every implementation ever installed, kept alive so lock-free readers never
        /// see one freed.
        var implementations: [ObjectIdentifier: Implementation] = [:]
        /// Every method cache ever published, for the same reason.
        var publishedCaches: [MethodCache] = []
        var retiredCacheCount = 0
        var keyValueObservingClasses: [ObjectIdentifier: RuntimeClass] = [:]
        var nextObservationID = 1
        var rootClass: RuntimeClass?
        var proxyRootClass: RuntimeClass?
    }

    let registry = Locked(Registry())
    private let dispatchChanges = Atomic<UInt64>(0)
    /// The real runtime deciding dispatch, when there is one (see ``DispatchEngine``).
    let engine: (any DispatchEngine)?
    /// Sends where the model and the real runtime chose differently.
    let divergenceLog = Locked<[DispatchDivergence]>([])

    deinit {
        withLock { registry in
            for cache in registry.publishedCaches { cache.deallocate() }
        }
    }

    /// Creates a runtime with the two root classes registered.
    public convenience init() {
        self.init(engine: nil)
    }

    /// Creates a runtime whose dispatch `engine` decides, when given: its classes,
    /// methods and objects get twins in a real Objective-C runtime, and every send runs
    /// what the real runtime looks up (checked against the model's own lookup).
    package init(engine: (any DispatchEngine)?) {
        self.engine = engine
        let root = makeRootClass(named: "NSObject")
        let proxyRoot = makeRootClass(named: "NSProxy")
        withLock { registry in
            registry.rootClass = root
            registry.proxyRootClass = proxyRoot
        }
        RootBehaviour.install(in: self)
    }

    /// `NSObject`: the root of ordinary classes.
    ///
    /// Instance methods: `class` (the real class), `respondsToSelector:` (lookup along
    /// the real class chain, no forwarding), `isKindOfClass:` (walks up from
    /// `[self class]`), `isProxy` (`NO`), `forwardingTargetForSelector:` (`nil`),
    /// `methodSignatureForSelector:` (the method's encoding, or `nil`) and
    /// `forwardInvocation:` (does not recognise the selector). Class methods: `class`
    /// (the class itself) and `instancesRespondToSelector:`.
    public var rootClass: RuntimeClass { withLock { $0.rootClass! } }

    /// `NSProxy`: a root class that implements nothing but what forwarding needs.
    ///
    /// Instance methods: `class` (the real class), `isProxy` (`YES`),
    /// `methodSignatureForSelector:` and `forwardInvocation:` (both raise
    /// `NSInvalidArgumentException` until a subclass overrides them), and
    /// `respondsToSelector:` / `isKindOfClass:`, which NSProxy hands to its own
    /// `forwardInvocation:` so that a proxy answers them from its target.
    public var proxyRootClass: RuntimeClass { withLock { $0.proxyRootClass! } }

    // MARK: Lock

    func withLock<T, E: Error>(_ body: (inout Registry) throws(E) -> T) throws(E) -> T {
        try registry.withLock { (registry: inout Registry) throws(E) -> T in try body(&registry) }
    }

    // MARK: Diagnostics

    /// How many times what a message does — or which class an object has — may have
    /// changed: every method added, implementation replaced, exchanged or set, and
    /// every `setClass` (KVO's included) counts one. Hosts that cache what they learnt
    /// by sending messages (a view's reported class name) compare it.
    public var dispatchChangeCount: UInt64 { dispatchChanges.load(ordering: .acquiring) }

    /// Counts one change of dispatch or of an object's class.
    func noteDispatchChange() {
        dispatchChanges.wrappingAdd(1, ordering: .releasing)
    }

    /// The number of method caches replaced since the runtime was created. They stay
    /// allocated until the runtime is released, as a lock-free reader may still hold
    /// one; caches are replaced only when method lists change.
    public var retiredCacheCount: Int { withLock { $0.retiredCacheCount } }

    /// The registered classes' names, sorted (metaclasses excluded).
    public var classNames: [String] {
        withLock { registry in
            registry.classesByName.values.filter { $0.state == .registered }.map(\.name).sorted()
        }
    }

    /// The registered classes that inherit from `base` (`base` itself excluded), sorted
    /// by name: `objc_getClassList` filtered by ancestry, found by walking down from
    /// `base` under one lock — a cost in the subclasses, not in every class of the app
    /// (no name looked up or sorted but theirs).
    public func subclasses(of base: RuntimeClass) -> [RuntimeClass] {
        withLock { _ in
            var found: [RuntimeClass] = []
            var pending = base.subclassList.map(\.value)
            while let next = pending.popLast() {
                if next.state == .registered { found.append(next) }
                pending += next.subclassList.map(\.value)
            }
            return found.sorted { $0.name < $1.name }
        }
    }
}
