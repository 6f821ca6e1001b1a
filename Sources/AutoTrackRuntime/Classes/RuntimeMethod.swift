import Synchronization

/// A method (`Method`): a selector, a type encoding and the implementation currently
/// installed, belonging to one class's own method list.
///
/// As in objc4, a method is an entity of its own: `exchangeImplementations` swaps the
/// implementations of two method entities, wherever they live. Taking the method found
/// by an inherited lookup and exchanging it therefore changes the superclass for every
/// subclass — the classic swizzling pitfall this model reproduces faithfully.
public final class RuntimeMethod: Sendable, CustomStringConvertible {
    // `implementationStorage` is atomic; every implementation it can point to is
    // retained by the owning runtime for the runtime's whole life, so a reader that
    // loaded an unretained pointer never sees it freed.

    /// The method's selector.
    public let selector: Selector
    /// The Objective-C type encoding, e.g. `v@:@@` for `-(void)a:(id)x b:(id)y`.
    public let typeEncoding: String
    /// The class whose own method list holds this method.
    public unowned let owner: RuntimeClass

    private let implementationStorage: Atomic<Unmanaged<Implementation>>

    init(selector: Selector, typeEncoding: String, implementation: Implementation, owner: RuntimeClass) {
        self.selector = selector
        self.typeEncoding = typeEncoding
        self.owner = owner
        implementationStorage = Atomic(Unmanaged.passUnretained(implementation))
    }

    /// The implementation currently installed (`method_getImplementation`).
    public var implementation: Implementation {
        implementationStorage.load(ordering: .acquiring).takeUnretainedValue()
    }

    /// Installs `implementation` and returns the previous one. The runtime must
    /// already retain `implementation`.
    func exchangeImplementation(with implementation: Implementation) -> Implementation {
        implementationStorage.exchange(Unmanaged.passUnretained(implementation), ordering: .acquiringAndReleasing)
            .takeUnretainedValue()
    }

    /// Runs the installed implementation of `method` without reference counting the
    /// method or the implementation (the runtime keeps both alive).
    @inline(__always)
    static func invoke(_ method: Unmanaged<RuntimeMethod>, _ message: Message) throws(RuntimeError) -> RuntimeValue {
        unowned(unsafe) let method = method.takeUnretainedValue()
        // Borrowed for the call: the body's captures are not retained either (a hook's
        // body has some, and a retain and release of them per call showed as the
        // largest part of a hook's cost).
        let outcome = method.implementationStorage.load(ordering: .acquiring)._withUnsafeGuaranteedRef { implementation in
            do throws(RuntimeError) {
                return Result<RuntimeValue, RuntimeError>.success(try implementation.body(message))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Runs the implementation installed now with `message` — what a hook does to call
    /// "the original" it holds as a method entity — without reference counting the
    /// method or the implementation.
    @inline(__always)
    public func invokeImplementation(_ message: Message) throws(RuntimeError) -> RuntimeValue {
        try RuntimeMethod.invoke(Unmanaged.passUnretained(self), message)
    }

    /// Runs the implementation installed now in the method `method` refers to, with
    /// `message` — ``invokeImplementation(_:)`` for a hook that holds its original
    /// without counting references (the runtime keeps every method alive): neither the
    /// method nor the implementation is retained for the call.
    public static func invokeImplementation(of method: Unmanaged<RuntimeMethod>, _ message: Message) throws(RuntimeError) -> RuntimeValue {
        try invoke(method, message)
    }

    /// `-[Class selector]` with the implementation's name.
    public var description: String { "\(owner.name) \(selector) → \(implementation.name)" }
}
