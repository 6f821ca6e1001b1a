/// The implementation a wrapper replaced, as ``MethodWrapper/install(name:runtime:cls:selector:isClassMethod:context:makeWrapper:)``
/// hands it to the wrapper: something to bind to one call's arguments and give to the
/// combinator, never something to run.
///
/// Each backend gives it a `call(_:)` that makes an `OriginalCall` — a noncopyable
/// value only the combinator consumes, exactly once. So a wrapper that calls its
/// original directly, or twice, does not compile.
public struct OriginalImplementation<Implementation: Sendable>: Sendable {
    /// The implementation itself: for backends binding calls, and for the package's
    /// tests comparing what is installed.
    @usableFromInline package let implementation: Implementation

    /// Wraps an implementation (the method wrapper only).
    package init(_ implementation: Implementation) { self.implementation = implementation }
}
