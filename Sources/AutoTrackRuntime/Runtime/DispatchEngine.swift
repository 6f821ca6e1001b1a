import AutoTrackLocking

/// A real Objective-C runtime that decides a ``Runtime``'s dispatch: every class of the
/// runtime has a twin class there, every object a twin object, every implementation an
/// `IMP` of its own, and every change — a method added, replaced, exchanged or set, a
/// class pair, an isa swizzle — is made on the twins too. A send asks the real runtime
/// which implementation runs (`objc_msg_lookup`, `objc_msg_lookup_super`) and runs it.
///
/// The runtime's own tables are kept as well, so each send is checked: when the model's
/// lookup would have chosen another implementation than the real runtime did, the
/// runtime runs the real runtime's choice and records a ``DispatchDivergence``.
///
/// Twins are named by address (`UInt`): a class, a metaclass, a method, an object of
/// the real runtime. Only sibling modules implement an engine (the package's backend
/// over GCC's libobjc with GNUstep Base).
package protocol DispatchEngine: AnyObject, Sendable {
    /// A twin for the root class `name` (`NSObject` or `NSProxy` when `isProxy`): its
    /// class and metaclass.
    func makeRootClass(named name: String, isProxy: Bool) -> (cls: UInt, metaclass: UInt)
    /// `objc_allocateClassPair` under `superclass`: the twin's class and metaclass.
    func allocateClassPair(superclass: UInt, named name: String) -> (cls: UInt, metaclass: UInt)
    /// Learns that `cls` (a class or metaclass of the runtime) stands for the twin it
    /// names, so that native code's calls can be handed their model objects.
    func adopt(_ cls: RuntimeClass)
    /// `objc_registerClassPair`.
    func registerClassPair(_ cls: UInt)
    /// `class_addMethod` to `cls` (a class or metaclass twin).
    func addMethod(to cls: UInt, selector: Selector, implementation: Implementation, types: String)
    /// `method_setImplementation` on the own method for `selector` of the class twin
    /// `owner`. (Methods are named by owner and selector: GCC's runtime lists a class's
    /// methods only once the class is registered.)
    func setImplementation(of selector: Selector, in owner: UInt, to implementation: Implementation)
    /// `method_exchangeImplementations` of two own methods.
    func exchangeImplementations(_ first: Selector, in firstOwner: UInt, _ second: Selector, in secondOwner: UInt)
    /// A new instance of the class twin `cls`, owned by the caller until
    /// ``releaseInstance(_:)``; `object` is the model object it stands for.
    func makeInstance(of cls: UInt, for object: RuntimeObject) -> UInt
    /// Releases an instance ``makeInstance(of:for:)`` made.
    func releaseInstance(_ instance: UInt)
    /// `object_setClass`.
    func setClass(of instance: UInt, to cls: UInt)
    /// What `objc_msg_lookup` answers for `selector` sent to the twin `receiver`.
    func lookUp(_ selector: Selector, receiver: UInt) -> EngineLookup
    /// What `objc_msg_lookup_super` answers for `[super selector]` compiled in the class
    /// twin `staticClass`, sent to `receiver`.
    func lookUpSuper(_ selector: Selector, receiver: UInt, staticClass: UInt) -> EngineLookup
    /// The own methods the real class `cls` has now — changed, added or exchanged by
    /// native code too — each as the model's implementation (one of this runtime's, or
    /// one that calls the native `IMP`).
    func realOwnMethods(of cls: UInt) -> [(selector: Selector, implementation: Implementation, types: String)]
    /// The class of this runtime standing for `object`'s real class when native code
    /// changed it (`object_setClass` outside the model), adopting a class native code
    /// made; `nil` when it is the model's.
    func changedClass(of object: RuntimeObject) -> RuntimeClass?
    /// Forwards `message`, which nothing implements, through the real runtime's own
    /// forwarding — or answers `nil` to have the model's forwarding run.
    func forward(_ message: Message) throws(RuntimeError) -> RuntimeValue?
}

/// What a real runtime's lookup found.
package enum EngineLookup {
    /// An implementation of this runtime: the `IMP` the engine made for it.
    case implementation(Implementation)
    /// Nothing implements the selector: the message is forwarded.
    case forwarded
    /// An `IMP` the runtime did not make (a method of the real root class outside the
    /// runtime's world, such as GNUstep's `-[NSObject description]`): treated as not
    /// implemented, as on the model's root class, and recorded.
    case foreign(name: String)
}

/// A send where the model's lookup and the real runtime's chose differently.
public struct DispatchDivergence: Hashable, Sendable, CustomStringConvertible {
    /// `-[Class selector]` (or `super` from the class) as sent.
    public let send: String
    /// What the model would have run.
    public let model: String
    /// What the real runtime ran.
    public let real: String

    /// `send: model ran X, the real runtime Y`.
    public var description: String { "\(send): the model chose \(model), the real runtime \(real)" }
}

extension Runtime {
    /// Whether a real Objective-C runtime decides this runtime's dispatch (see
    /// ``dispatchDivergences``).
    public var hasRealDispatch: Bool { engine != nil }

    /// The real runtime deciding this runtime's dispatch, when there is one.
    package var dispatchEngine: (any DispatchEngine)? { engine }

    /// The sends (up to 64) where the model's lookup would have run another
    /// implementation than the real runtime deciding this runtime's dispatch did.
    /// Always empty for a model-only runtime.
    public var dispatchDivergences: [DispatchDivergence] { divergenceLog.withLock { $0 } }

    /// Runs `message` as the real runtime decided: its implementation, the forwarding
    /// path, or — for a foreign `IMP` — the forwarding path too; checks the model's
    /// choice against it.
    @inline(never)
    func dispatchReally(
        _ engine: any DispatchEngine, _ receiver: RuntimeObject, _ selector: Selector, _ arguments: MessageArguments,
        superFrom staticClass: RuntimeClass?
    ) throws(RuntimeError) -> RuntimeValue {
        if let changed = engine.changedClass(of: receiver) { followNativeClassChange(of: receiver, to: changed) }
        let real: EngineLookup
        let modelLookup: MethodCache.Lookup
        if let staticClass {
            real = engine.lookUpSuper(selector, receiver: receiver.twin, staticClass: staticClass.twin)
            modelLookup = staticClass.superclassStorage.map { lookUp(selector, startingAt: $0) } ?? .notImplemented
        } else {
            real = engine.lookUp(selector, receiver: receiver.twin)
            modelLookup = lookUp(selector, startingAt: receiver.realClass)
        }
        let modelChoice: Implementation? = if case .found(let method) = modelLookup { method.takeUnretainedValue().implementation } else { nil }
        switch real {
        case .implementation(let implementation):
            if modelChoice !== implementation, !agreesAfterNativeChanges(implementation, selector, from: staticClass?.superclassStorage ?? receiver.realClass) {
                noteDivergence(receiver, selector, staticClass, model: modelChoice?.name, real: implementation.name)
            }
            return try implementation.body(Message(receiver: receiver, selector: selector, arguments: arguments, runtime: self))
        case .forwarded, .foreign:
            if let modelChoice {
                let realName = if case .foreign(let name) = real { "foreign \(name)" } else { "forwarding" }
                noteDivergence(receiver, selector, staticClass, model: modelChoice.name, real: realName)
            }
            if let forwarded = try engine.forward(Message(receiver: receiver, selector: selector, arguments: arguments, runtime: self)) {
                return forwarded
            }
            return try forward(receiver, selector, arguments)
        }
    }

    /// Whether the model, once it has taken in what native code changed in the real
    /// method tables (an Objective-C hook's `method_setImplementation`, its added
    /// methods) for the classes from `cls` up, chooses `implementation` for `selector`
    /// too: then the send is no divergence.
    private func agreesAfterNativeChanges(_ implementation: Implementation, _ selector: Selector, from cls: RuntimeClass?) -> Bool {
        guard let cls else { return false }
        withLock { registry in synchronizeChain(from: cls, registry: &registry) }
        guard case .found(let method) = lookUp(selector, startingAt: cls) else { return false }
        return method.takeUnretainedValue().implementation === implementation
    }

    /// The type encoding of some method for `selector` in this runtime — what a compiled
    /// call site knows of a message it sends — or `nil` when no class has one.
    package func anyTypeEncoding(for selector: Selector) -> String? {
        withLock { registry in
            for cls in registry.allClasses { if let method = cls.ownMethods[selector] { return method.typeEncoding } }
            return nil
        }
    }

    private func noteDivergence(_ receiver: RuntimeObject, _ selector: Selector, _ staticClass: RuntimeClass?, model: String?, real: String) {
        let send = staticClass.map { "[super \(selector)] from \($0.name)" } ?? "-[\(receiver.realClass.name) \(selector)]"
        divergenceLog.withLock { log in
            guard log.count < 64 else { return }
            log.append(DispatchDivergence(send: send, model: model ?? "forwarding", real: real))
        }
    }
}
