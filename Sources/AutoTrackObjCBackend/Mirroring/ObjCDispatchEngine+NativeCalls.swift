import AutoTrackRuntime
import CObjCRuntimeBridge
import Synchronization
import AutoTrackLocking

extension ObjCDispatchEngine {
    // MARK: Native calls

    /// The model object a native call's `id` stands for: an object or class of this
    /// runtime, or `nil`.
    func modelObject(at address: UInt) -> RuntimeObject? {
        state.withLock { state in state.objects[address]?.object ?? state.classes[address]?.cls }
    }

    /// Native code called one of this runtime's implementations: the arguments become
    /// a message, the implementation runs, and its result goes back in 64 bits.
    static let closureHandler: ATClosureHandler = { context, count, kinds, arguments, _, result in
        guard let context else { return }
        let closure = Unmanaged<ClosureContext>.fromOpaque(context).takeUnretainedValue()
        guard closure.isAlive.load(ordering: .acquiring) else {
            ObjCDispatchEngine.failedNativeCalls.add(1, ordering: .relaxed)
            return
        }
        closure.engine.handleNativeCall(closure.implementation, count: Int(count), kinds: kinds, arguments: arguments, result: result)
    }

    func handleNativeCall(
        _ implementation: Implementation, count: Int, kinds: UnsafePointer<CChar>, arguments: UnsafePointer<UInt64>,
        result: UnsafeMutablePointer<UInt64>
    ) {
        guard let runtime = attachedRuntime.runtime, let receiver = modelObject(at: UInt(arguments[0])) ?? adoptedObject(at: UInt(arguments[0])),
              let selectorPointer = OpaquePointer(bitPattern: UInt(arguments[1]))
        else {
            Self.failedNativeCalls.add(1, ordering: .relaxed)
            return
        }
        // Native code may have moved the receiver to another class just before calling
        // (a hook's subclass stepping aside for KVO): the model follows first.
        if let changed = changedClass(of: receiver) { runtime.followNativeClassChange(of: receiver, to: changed) }
        let selector = Selector(String(cString: atr_selectorName(selectorPointer)))
        var values: [RuntimeValue] = []
        var invocations: [(UInt, Invocation)] = []
        for index in 2..<max(count, 2) {
            let bits = arguments[index]
            let kind = Character(UnicodeScalar(UInt8(bitPattern: kinds[index])))
            if kind == "@", bits != 0, bits < Self.lowestObjectAddress {
                // No object lives in the first page: an integer the model passed in an
                // object's slot (its KVO's observation ids), handed back unchanged.
                values.append(.int(Int(bits)))
            } else if kind == "@", bits != 0, modelObject(at: UInt(bits)) == nil, state.withLock({ $0.boxes[UInt(bits)] }) == nil,
               let invocation = invocation(at: UInt(bits), runtime: runtime) {
                // GNUstep's NSInvocation, handed to forwardInvocation:, as the model's.
                invocations.append((UInt(bits), invocation))
                values.append(.value(invocation))
            } else {
                values.append(value(bits: bits, kind: kind))
            }
        }
        let value: RuntimeValue
        do throws(RuntimeError) {
            value = try implementation.body(Message(receiver: receiver, selector: selector, arguments: MessageArguments(values), runtime: runtime))
        } catch {
            Self.failedNativeCalls.add(1, ordering: .relaxed)
            let thread = Self.currentThread
            pendingErrors.withLock { pending in if pending[thread] == nil { pending[thread] = error } }
            return
        }
        for (address, invocation) in invocations {
            atr_invocationSetReturn(OpaquePointer(bitPattern: address)!, bits(of: invocation.returnValue))
        }
        if case .object(let object?) = value { keepReturned(object) }
        if case .value(let wrapped) = value, let methodSignature = wrapped as? MethodSignature {
            result.pointee = UInt64(signature(methodSignature.typeEncoding))
        } else {
            result.pointee = bits(of: value)
        }
    }

    /// Addresses below this are not objects (the first page is never mapped).
    static let lowestObjectAddress: UInt64 = 4096

    /// A value as 64 bits for native code: a Swift value as `boxing` boxes it (0 by
    /// default), a block as a real block calling it.
    func bits(of value: RuntimeValue, boxing: (any Sendable) -> UInt64 = { _ in 0 }) -> UInt64 {
        switch value {
        case .void, .block(nil): 0
        case .block(let block?): nativeBlock(for: block)
        case .value(let wrapped): boxing(wrapped)
        case .object(let object): UInt64(object?.twin ?? 0)
        case .bool(let flag): flag ? 1 : 0
        case .int(let number): UInt64(bitPattern: Int64(number))
        case .double(let number): number.bitPattern
        case .selector(let returned): UInt64(sel(returned).address)
        }
    }
}
