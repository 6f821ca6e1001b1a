import CObjCRuntimeBridge
import AutoTrackLocking

/// One message a trampoline received: a `void` method's receiver, selector and up to
/// four integer or pointer arguments (`tableView:didSelectRowAtIndexPath:`,
/// `addObserver:forKeyPath:options:context:` …). Object arguments are the caller's
/// references, valid for the call's duration; arguments the method does not take are
/// whatever their registers held, passed on unchanged.
public struct ObjCCall: Hashable, Sendable {
    /// The receiver's address.
    public let receiver: UInt
    /// The selector's address.
    public let selector: UInt
    /// The first argument's address (0 for `nil`).
    public let first: UInt
    /// The second argument's address (0 for `nil`).
    public let second: UInt
    /// The third argument (an integer or an address).
    public let third: UInt
    /// The fourth argument (an integer or an address).
    public let fourth: UInt

    /// The selector's name.
    public var selectorName: String { String(cString: atr_selectorName(OpaquePointer(bitPattern: selector)!)) }

    /// The receiver's real class (`object_getClass`).
    public var receiverClass: ObjCClass { ObjCRuntime.shared.wrap(atr_objectClass(OpaquePointer(bitPattern: receiver)!)) }

    /// The receiver, retained for as long as the returned wrapper lives.
    public var receiverObject: ObjCObject { ObjCObject(retaining: OpaquePointer(bitPattern: receiver)!) }

    /// The first argument (an object), retained for as long as the wrapper lives;
    /// `nil` for `nil`.
    public var firstObject: ObjCObject? { OpaquePointer(bitPattern: first).map(ObjCObject.init(retaining:)) }

    /// The name of the selector passed as argument `index` (0…3), e.g. the action of
    /// `sendAction:to:forEvent:`; `nil` for a null selector.
    public func selectorName(argument index: Int) -> String? {
        OpaquePointer(bitPattern: [first, second, third, fourth][index]).map { String(cString: atr_selectorName($0)) }
    }

    /// The argument at `index` (0…3) as an object, retained for as long as the wrapper
    /// lives; `nil` for `nil`. The argument must be an object.
    public func object(argument index: Int) -> ObjCObject? {
        let address = [first, second, third, fourth][index]
        return OpaquePointer(bitPattern: address).map(ObjCObject.init(retaining:))
    }

    /// The second argument's `longValue` (an `NSNumber` index), or `nil` when it is
    /// `nil` or does not answer.
    public var secondIntegerValue: Int? {
        guard let argument = OpaquePointer(bitPattern: second) else { return nil }
        let result = atr_send0(argument, atr_selector("longValue"))
        return result.raised ? nil : result.value
    }

    /// Calls `implementation` with this call's receiver, selector and arguments,
    /// unchanged: how a wrapper runs the original. It must not raise an Objective-C
    /// exception (one cannot unwind through Swift).
    @discardableResult
    public func call(_ implementation: ObjCImplementation) -> UInt {
        call(implementation, first: first, second: second, third: third, fourth: fourth)
    }

    /// Calls `implementation` with this call's receiver and selector and the given
    /// arguments — the caller's, with one replaced (a handler wrapped before it is
    /// stored). Returns what it returns (an integer or an address; nothing for `void`).
    @discardableResult
    public func call(_ implementation: ObjCImplementation, first: UInt, second: UInt, third: UInt, fourth: UInt) -> UInt {
        typealias Method = @convention(c) (UInt, UInt, UInt, UInt, UInt, UInt) -> UInt
        return unsafeBitCast(Int(bitPattern: implementation.address), to: Method.self)(receiver, selector, first, second, third, fourth)
    }
}

/// Distinct implementations that run Swift closures: what `imp_implementationWithBlock`
/// gives on objc4 and GCC's runtime lacks. Each ``make(_:)`` takes one of a fixed pool
/// of C trampolines (`void` methods, up to four integer or pointer arguments), so every installation of a hook has an IMP of its own
/// and knows, from its slot, which installation it is.
public enum ObjCTrampolines {
    /// How many trampolines a process has.
    public static let capacity = Int(ATR_TRAMPOLINES)

    private static let bodies = Locked<[Int32: @Sendable (ObjCCall) -> UInt]>([:])

    private static let handler: ATTrampolineHandler = { slot, receiver, selector, first, second, third, fourth in
        guard let body = ObjCTrampolines.bodies.withLock({ $0[slot] }) else { return 0 }
        func address(_ pointer: OpaquePointer?) -> UInt { pointer?.address ?? 0 }
        return body(ObjCCall(
            receiver: address(receiver), selector: address(selector), first: UInt(first), second: UInt(second), third: UInt(third),
            fourth: UInt(fourth)))
    }

    /// An implementation that runs `body` for every message it receives, or `nil` when
    /// every trampoline is taken. Trampolines are never given back: an IMP may stay in
    /// a method list (another library may have stacked on it) for the process's life.
    public static func make(_ body: @escaping @Sendable (ObjCCall) -> Void) -> ObjCImplementation? {
        makeReturning { call in
            body(call)
            return 0
        }
    }

    /// An implementation for a method that returns an integer or an object: `body`'s
    /// result is the method's (an address for an object, not retained).
    public static func makeReturning(_ body: @escaping @Sendable (ObjCCall) -> UInt) -> ObjCImplementation? {
        bodies.withLock { bodies -> ObjCImplementation? in
            if bodies.isEmpty { atr_setTrampolineHandler(handler) }
            guard bodies.count < capacity, let trampoline = atr_trampoline(Int32(bodies.count)) else { return nil }
            bodies[Int32(bodies.count)] = body
            return ObjCImplementation(trampoline)
        }
    }

    /// How many trampolines are taken.
    public static var used: Int { bodies.withLock { $0.count } }
}
