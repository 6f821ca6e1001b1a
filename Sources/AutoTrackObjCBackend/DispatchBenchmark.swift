import CObjCRuntimeBridge

/// Message loops on the real runtime, sent as compiled Objective-C sends them
/// (`objc_msg_lookup`, then the call), for benchmarks that set the real runtime's
/// costs beside the model's.
public enum ObjCDispatchBenchmark: Int32, CaseIterable, Sendable {
    /// A plain cached send.
    case plainSend
    /// A send through a method whose implementation was exchanged.
    case exchangedMethod
    /// A send to an object isa-swizzled to a generated subclass whose `-class` reports
    /// the original.
    case dynamicSubclass
    /// A send forwarded by `forwardingTargetForSelector:`.
    case forwardingTarget
    /// A send forwarded by `methodSignatureForSelector:` and `forwardInvocation:`.
    case forwardInvocation
    /// A method wrapped the way an exchange hook wraps it, tracking off.
    case exchangeHook
    /// An object under a dynamic-subclass hook (tracking off) whose override calls
    /// `super` through its call site's cache (`atr_cachedSuperImplementation`).
    case subclassHook
    /// A forwarding proxy standing in for an object (tracking off): its own
    /// implementation of the hooked method sends it on; the rest it forwards.
    case proxyHook
    /// The dynamic-subclass hook with `super` looked up in full on every call, as
    /// `[super …]` compiles for GCC's runtime.
    case uncachedSubclassHook
    /// A wrapper that only jumps to the original: the least any wrapping hook adds.
    case emptyWrapper

    /// Sends the benchmark message `count` times in this situation and returns the sum
    /// of the results (each send returns 1). Makes the classes on first use.
    public func send(count: Int) -> Int {
        _ = atr_benchmarkSetUp()
        return atr_benchmarkSend(rawValue, count)
    }
}
