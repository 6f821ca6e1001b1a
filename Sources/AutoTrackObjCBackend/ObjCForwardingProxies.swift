import CObjCRuntimeBridge
import AutoTrackLocking

/// Forwarding proxies (`NSProxy` subclasses, as RxCocoa's delegate proxies): a proxy
/// stands in for an object, forwards every message to it with
/// `methodSignatureForSelector:`/`forwardInvocation:`, and hands the one message a hook
/// intercepts to the closure registered for its token, which runs it on the target with
/// ``Forwarded/invoke()`` — exactly once, after recording.
public enum ObjCForwardingProxies {
    /// An intercepted message: the target and the invocation, valid during the call.
    public struct Forwarded: @unchecked Sendable {
        // Safe: the invocation is only used during the call it was handed to, on that
        // thread; the bridge owns it.
        let invocation: UnsafeMutableRawPointer
        /// The proxied object's address.
        public let target: UInt

        /// Runs the message on the target, with the caller's arguments.
        public func invoke() { atr_invokeInvocation(invocation, OpaquePointer(bitPattern: target)!) }

        /// The `longValue` of the object argument at `index` (2 is the first after the
        /// receiver and the selector), or `nil`.
        public func integerValue(ofArgument index: Int) -> Int? {
            guard let argument = atr_invocationObjectArgument(invocation, Int32(index)) else { return nil }
            let result = atr_send0(argument, atr_selector("longValue"))
            return result.raised ? nil : result.value
        }
    }

    private static let bodies = Locked<[Int32: @Sendable (Forwarded) -> Void]>([:])

    private static let callback: ATProxyCallback = { token, target, invocation in
        guard let body = ObjCForwardingProxies.bodies.withLock({ $0[token] }) else {
            atr_invokeInvocation(invocation, target)
            return
        }
        body(Forwarded(invocation: invocation, target: target.address))
    }

    /// Registers `body` for the messages proxies made with the returned token intercept.
    public static func register(_ body: @escaping @Sendable (Forwarded) -> Void) -> Int32 {
        bodies.withLock { bodies in
            if bodies.isEmpty { atr_setProxyCallback(callback) }
            let token = Int32(bodies.count)
            bodies[token] = body
            return token
        }
    }

    /// A new proxy for `target` (held unretained, as a delegate is) that intercepts
    /// `selector` for `token`.
    public static func makeProxy(for target: ObjCObject, intercepting selector: String, token: Int32) -> ObjCObject {
        ObjCObject(owning: atr_makeForwardingProxy(target.pointer, selector, token))
    }
}
