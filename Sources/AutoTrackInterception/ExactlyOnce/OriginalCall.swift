/// The original implementation of one intercepted call, bound to the caller's
/// arguments — what a method wrapper gets in place of a callable original.
///
/// A hook cannot run it: it has no method that calls it, and it cannot be copied. It
/// can only be handed to the combinator (`Interceptor.intercept(dedupe:capture:original:)`,
/// ``Interceptor/passThrough(_:)``, ``Interceptor/forward(_:preparing:)``,
/// ``Interceptor/forward(_:then:)``), which consumes it and runs it exactly once. A
/// hook that tries to call the original itself, or to hand the same call to the
/// combinator twice, does not compile.
///
/// Backends make them: a wrapper installed with `MethodWrapper` receives an
/// `OriginalImplementation` whose `call(_:)` binds it to a message.
public struct OriginalCall<Arguments, Result, Failure: Error>: ~Copyable {
    @usableFromInline let body: (Arguments) throws(Failure) -> Result
    @usableFromInline let arguments: Arguments

    /// Binds `body` to `arguments` (backends only).
    @inlinable
    package init(_ body: @escaping (Arguments) throws(Failure) -> Result, arguments: Arguments) {
        self.body = body
        self.arguments = arguments
    }
}

extension Interceptor {
    /// The combinator over an original-call value: records first when the call is a
    /// new user action, then runs the original exactly once with the caller's
    /// arguments — the contract of the form that takes the original as a closure.
    @inlinable
    public func intercept<Arguments, Result, Failure: Error>(
        dedupe: @autoclosure () -> InterceptionDedupe = .none,
        capture: () throws -> Interaction?,
        original call: consuming OriginalCall<Arguments, Result, Failure>
    ) throws(Failure) -> Result {
        let body = call.body
        let arguments = call.arguments
        return try intercept(dedupe: dedupe(), capture: capture) { () throws(Failure) -> Result in try body(arguments) }
    }

    /// Runs the original exactly once, recording nothing: a call the hook has decided
    /// is none of its business (not a touch end, not a control).
    @inlinable
    public func passThrough<Arguments, Result, Failure: Error>(_ call: consuming OriginalCall<Arguments, Result, Failure>) throws(Failure) -> Result {
        try call.body(call.arguments)
    }

    /// ``forward(_:preparedBy:original:)`` over an original-call value: `prepare` may
    /// replace the caller's arguments (a handler wrapped, a delegate proxied), and the
    /// original runs exactly once with what it returns.
    @inlinable
    public func forward<Arguments, Result, Failure: Error>(
        _ call: consuming OriginalCall<Arguments, Result, Failure>, preparing prepare: (Arguments) throws -> Arguments
    ) throws(Failure) -> Result {
        let body = call.body
        return try forward(call.arguments, preparedBy: prepare) { (arguments: Arguments) throws(Failure) -> Result in try body(arguments) }
    }

    /// ``forward(original:then:)`` over an original-call value: the original runs
    /// exactly once, then `followUp` may act on its result.
    @inlinable
    public func forward<Arguments, Result, Failure: Error>(
        _ call: consuming OriginalCall<Arguments, Result, Failure>, then followUp: (Result) throws -> Result
    ) throws(Failure) -> Result {
        let body = call.body
        let arguments = call.arguments
        return try forward(original: { () throws(Failure) -> Result in try body(arguments) }, then: followUp)
    }
}
