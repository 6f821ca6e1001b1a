/// Synchronization: `AtomicLazyReference` holds a context's substitute, read on every intercepted call.
public import Synchronization

/// A combinator put in place of ``Interceptor``'s own for one context: the seam through
/// which the conformance kit applies its mutation operators to any hook that goes
/// through the combinator, from outside and without touching the hook's code. The
/// shipping combinator holds no defect of its own; it only hands each call to the
/// substitute when one is set.
///
/// Each method gets the interceptor (its context, switch and recording helpers) and the
/// call's pieces exactly as the combinator received them.
@usableFromInline
package protocol CombinatorSubstitute: AnyObject, Sendable {
    /// In place of `Interceptor.intercept(dedupe:capture:original:)`; `dedupe` is
    /// `nil` when the call is not to be recorded (uninstalled or tracking disabled).
    func intercept<Result, Failure: Error>(
        _ interceptor: Interceptor, dedupe: InterceptionDedupe?, capture: () throws -> Interaction?,
        original: () throws(Failure) -> Result
    ) throws(Failure) -> Result

    /// In place of ``Interceptor/forward(_:preparedBy:original:)`` while installed.
    func forward<Value, Result, Failure: Error>(
        _ interceptor: Interceptor, argument: Value, preparedBy prepare: (Value) throws -> Value,
        original: (Value) throws(Failure) -> Result
    ) throws(Failure) -> Result

    /// In place of ``Interceptor/forward(original:then:)``, after the original ran.
    func followUp<Result>(_ interceptor: Interceptor, result: Result, followUp: (Result) throws -> Result) -> Result
}

/// The substitute of one context, set at most once.
@usableFromInline
package final class CombinatorSubstitution: Sendable {
    @usableFromInline let substitute: any CombinatorSubstitute
    init(_ substitute: any CombinatorSubstitute) { self.substitute = substitute }
}

extension InteractionContext {
    /// The combinator in force for this context's hooks instead of the interceptor's
    /// own (`nil`: the shipping combinator). Set once, before hooks are installed;
    /// never set outside the conformance kit.
    @inlinable
    package var combinatorSubstitute: (any CombinatorSubstitute)? {
        // A plain flag first: this is read on every intercepted call, and a context
        // without a substitute (every one outside the kit) must pay no more than a load.
        guard isSubstituted.load(ordering: .acquiring) else { return nil }
        return substitution.load()?.substitute
    }

    /// Puts `substitute` in place of the combinator for this context's hooks; `false`
    /// when one was set already.
    @discardableResult
    package func substituteCombinator(_ substitute: any CombinatorSubstitute) -> Bool {
        let box = CombinatorSubstitution(substitute)
        guard substitution.storeIfNil(box) === box else { return false }
        isSubstituted.store(true, ordering: .releasing)
        return true
    }
}
