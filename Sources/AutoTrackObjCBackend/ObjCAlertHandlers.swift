import CObjCRuntimeBridge
import AutoTrackLocking

/// Handler blocks wrapped so a hook runs first: what an alert-action hook does to the
/// handler an app passes to `actionWithTitle:…handler:`. A wrapped handler calls the
/// closure registered for its token with the action and the original handler (`nil`
/// when the app gave none), which the closure runs with ``invoke(_:with:)`` — exactly
/// once, after recording.
public enum ObjCAlertHandlers {
    /// The original handler of a wrapped one (a block), valid during the call.
    public struct Handler: @unchecked Sendable {
        // Safe: an opaque block pointer, only passed back to the bridge during the call
        // it was handed to (the wrapper block holds the block itself).
        let block: UnsafeMutableRawPointer
    }

    private static let bodies = Locked<[Int32: @Sendable (UInt, Handler?) -> Void]>([:])

    private static let callback: ATAlertHandlerCallback = { token, action, original in
        guard let body = ObjCAlertHandlers.bodies.withLock({ $0[token] }) else { return }
        body(action.address, original.map(Handler.init(block:)))
    }

    /// Registers `body` (called with the action's address and the original handler) and
    /// returns its token.
    public static func register(_ body: @escaping @Sendable (_ action: UInt, _ original: Handler?) -> Void) -> Int32 {
        bodies.withLock { bodies in
            if bodies.isEmpty { atr_setAlertHandlerCallback(callback) }
            let token = Int32(bodies.count)
            bodies[token] = body
            return token
        }
    }

    /// A new handler block (the address of a heap block, +1) that calls `token`'s body
    /// with the action and `handler` (the app's block address, or 0).
    public static func wrap(handler: UInt, token: Int32) -> UInt {
        UInt(bitPattern: Int(bitPattern: atr_wrapAlertHandler(UnsafeMutableRawPointer(bitPattern: handler), token)))
    }

    /// Releases a handler made by ``wrap(handler:token:)`` once whoever stores it (the
    /// action) has copied it.
    public static func release(wrapped handler: UInt) {
        atr_releaseAlertHandler(UnsafeMutableRawPointer(bitPattern: handler)!)
    }

    /// Runs the original handler with the action at `action`.
    public static func invoke(_ handler: Handler, with action: UInt) {
        atr_invokeAlertHandler(handler.block, OpaquePointer(bitPattern: action)!)
    }
}
