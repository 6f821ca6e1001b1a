/// A method's type signature (`NSMethodSignature`): its Objective-C type encoding.
public struct MethodSignature: Hashable, Sendable, CustomStringConvertible {
    /// The type encoding, e.g. `v@:@@`.
    public let typeEncoding: String

    /// Creates a signature.
    public init(typeEncoding: String) { self.typeEncoding = typeEncoding }

    /// The encoding.
    public var description: String { typeEncoding }
}

/// A message packed as an object (`NSInvocation`), handed to `forwardInvocation:`:
/// selector, target, arguments and, after ``invoke()``, the return value.
public final class Invocation: @unchecked Sendable {
    // Safe by confinement: an invocation is created for one forwarding step and used by
    // the thread running that step's `forwardInvocation:`.

    /// The selector.
    public let selector: Selector
    /// The object the message goes to when invoked; a forwarder sets its target here.
    public var target: RuntimeObject?
    /// The arguments; a forwarder may change them.
    public var arguments: MessageArguments
    /// The signature `methodSignatureForSelector:` returned.
    public let signature: MethodSignature
    /// The result: ``RuntimeValue/void`` until invoked or set.
    public var returnValue: RuntimeValue = .void
    /// How many times ``invoke()`` ran.
    public private(set) var invocationCount = 0
    private unowned let runtime: Runtime

    /// Creates an invocation (what forwarding makes; a real runtime deciding dispatch makes one
    /// from its own `NSInvocation`).
    package init(selector: Selector, target: RuntimeObject?, arguments: MessageArguments, signature: MethodSignature, runtime: Runtime) {
        self.selector = selector
        self.target = target
        self.arguments = arguments
        self.signature = signature
        self.runtime = runtime
    }

    /// Sends the message to ``target`` and stores the result in ``returnValue``.
    public func invoke() throws(RuntimeError) {
        invocationCount += 1
        returnValue = try runtime.send(target, selector, arguments)
    }

    /// Sets the target, then invokes (`invokeWithTarget:`).
    public func invoke(target: RuntimeObject?) throws(RuntimeError) {
        self.target = target
        try invoke()
    }
}
