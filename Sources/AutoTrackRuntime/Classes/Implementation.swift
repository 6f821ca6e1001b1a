/// One message being handled: who received it, under which selector, with which
/// arguments, in which runtime. An implementation receives this.
///
/// A message is valid for the call it describes only, like `self` and `_cmd` in an
/// Objective-C method under ARC: it does not retain its receiver or runtime (the sender
/// keeps both alive while the message is handled, and a retain per send would double
/// the cost of dispatch). It is therefore not `Sendable`, and a hook that needs the
/// receiver later captures ``receiver`` — a strong reference — not the message.
public struct Message {
    private unowned(unsafe) let receiverStorage: RuntimeObject

    /// The receiver (`self`), as a strong reference.
    @inline(__always) public var receiver: RuntimeObject { receiverStorage }
    /// The selector the message was sent with (`_cmd`). After an exchange this is
    /// the selector the caller used, not the name the implementation was written for.
    public let selector: Selector
    /// The arguments.
    public let arguments: MessageArguments
    private unowned(unsafe) let runtimeStorage: Runtime

    /// The runtime dispatching the message, for further sends and `super` calls.
    @inline(__always) public var runtime: Runtime { runtimeStorage }

    /// Creates a message: what the runtime does for every send. A hook that forwards a
    /// call with other arguments uses ``replacingArguments(_:)``.
    package init(receiver: RuntimeObject, selector: Selector, arguments: MessageArguments, runtime: Runtime) {
        receiverStorage = receiver
        self.selector = selector
        self.arguments = arguments
        runtimeStorage = runtime
    }

    /// The same message — receiver, selector, runtime — with other arguments: what a
    /// hook hands the original when it replaces one (a wrapped handler block, a proxy
    /// for a delegate).
    public func replacingArguments(_ arguments: MessageArguments) -> Message {
        Message(receiver: receiver, selector: selector, arguments: arguments, runtime: runtime)
    }

    /// Passes this message on to `super` of `staticClass` — the class whose code is
    /// handling it — unchanged: ``Runtime/sendSuper(_:from:)`` without holding the
    /// runtime for the call.
    @discardableResult
    public func sendSuper(from staticClass: RuntimeClass) throws(RuntimeError) -> RuntimeValue {
        try Runtime.sendSuper(self, from: staticClass)
    }

    /// The argument at `index` as an object (possibly `nil`), or a typed error.
    public func object(at index: Int) throws(RuntimeError) -> RuntimeObject? {
        try RuntimeObject?.fromRuntimeValue(try argument(at: index), selector: selector)
    }

    /// The argument at `index` as a selector, or a typed error.
    public func selector(at index: Int) throws(RuntimeError) -> Selector {
        try Selector.fromRuntimeValue(try argument(at: index), selector: selector)
    }

    /// The argument at `index` as a boolean, or a typed error.
    public func bool(at index: Int) throws(RuntimeError) -> Bool {
        try Bool.fromRuntimeValue(try argument(at: index), selector: selector)
    }

    /// The argument at `index` as a Swift value of type `T`, or a typed error.
    public func value<T: Sendable>(at index: Int, as type: T.Type = T.self) throws(RuntimeError) -> T {
        let value = try argument(at: index)
        guard case .value(let wrapped) = value, let typed = wrapped as? T else {
            throw .typeMismatch(selector: selector, expected: "\(T.self)", found: value.kind)
        }
        return typed
    }

    /// The argument at `index`, or a typed error when there are fewer arguments.
    public func argument(at index: Int) throws(RuntimeError) -> RuntimeValue {
        guard index < arguments.count else {
            throw .argumentCountMismatch(selector: selector, expected: index + 1, found: arguments.count)
        }
        return arguments[index]
    }
}

/// A method body (`IMP`): the code that runs when a message is dispatched to a method.
///
/// Implementations are values that can be moved between methods — that is what method
/// exchange and `method_setImplementation` do. An implementation that calls `super`
/// captures its defining class and uses ``Runtime/sendSuper(_:from:_:_:)``, exactly as
/// compiled Objective-C does, so `super` keeps meaning "above the class where this code
/// was written" wherever the implementation is moved.
public final class Implementation: Sendable, CustomStringConvertible {
    /// The closure type of a method body.
    public typealias Body = @Sendable (Message) throws(RuntimeError) -> RuntimeValue

    /// A name for diagnostics, e.g. `-[ViewController viewDidAppear:]`.
    public let name: String
    /// The code.
    public let body: Body

    /// Creates an implementation from a closure that sees the whole message.
    public init(_ name: String, _ body: @escaping Body) {
        self.name = name
        self.body = body
    }

    /// The name.
    public var description: String { name }
}
