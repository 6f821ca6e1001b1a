import AutoTrackRuntime
import CObjCRuntimeBridge
import AutoTrackLocking
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension ObjCDispatchEngine {
    // MARK: Forwarding

    /// The box class: instances stand for Swift values in native code.
    static let boxClass: UInt = {
        let root = ObjCRuntime.shared.lookUpClass(named: "NSObject")!
        let made = atr_allocateClassPair(OpaquePointer(bitPattern: root.address)!, "ATRMirroredValueBox")!
        atr_registerClassPair(made)
        return made.address
    }()

    /// Forwards through GNUstep: the forwarding IMP its hook gives, called with the C
    /// convention of the message's encoding (some method's for the selector, as a
    /// compiled call site would know it, else the receiver's signature for it, else the
    /// arguments' kinds); it asks `methodSignatureForSelector:`, packs an `NSInvocation`
    /// and hands it to `forwardInvocation:` — this runtime's implementations, called
    /// natively.
    func forward(_ message: Message) throws(RuntimeError) -> RuntimeValue? {
        guard let runtime = attachedRuntime.runtime else { return nil }
        // objc4's order: the fast path first. GNUstep asks forwardingTargetForSelector:
        // only for selectors without type information never forwarded the slow way (the
        // backend's fourth pinned difference), so the engine asks it, as objc4 does.
        let receiverClass = atr_objectClass(OpaquePointer(bitPattern: message.receiver.twin)!)
        if message.selector != Selectors.forwardingTarget, atr_classResponds(receiverClass, sel(Selectors.forwardingTarget)) {
            let target = try runtime.send(message.receiver, Selectors.forwardingTarget, MessageArguments(.selector(message.selector))).object
            if let target, target !== message.receiver { return try runtime.send(target, message.selector, message.arguments) }
        }
        let types = runtime.anyTypeEncoding(for: message.selector) ?? signatureTypes(of: message, receiverClass: receiverClass, runtime: runtime) ?? ""
        realForwards.add(1, ordering: .relaxed)
        do {
            return try callNatively(message, types: types) { receiver, selector, types, arguments, count, result in
                atr_forwardNatively(receiver, selector, types, arguments, count, result)
            }
        } catch .exception(name: "NSInvalidArgumentException", _) {
            throw runtime.unrecognized(message.selector, by: message.receiver)
        }
    }

    /// Runs `perform` — a native call of the message with the C convention of `types`
    /// (or, when those cannot take its arguments, an encoding made from them): Swift
    /// values travel in boxes, an error a model implementation threw inside is
    /// rethrown, and an exception native code raised becomes a `RuntimeError`.
    func callNatively(
        _ message: Message, types given: String,
        perform: (OpaquePointer, OpaquePointer, String, UnsafePointer<UInt64>, Int32, UnsafeMutablePointer<UInt64>) -> ATSendResult
    ) throws(RuntimeError) -> RuntimeValue {
        let arguments = (0..<message.arguments.count).map { message.arguments[$0] }
        let types = ObjCTypeKinds(given).takes(argumentCount: arguments.count) ? given : ObjCTypeKinds.encoding(returningObjectFor: arguments)
        var boxes: [UInt] = []
        defer {
            state.withLock { state in for box in boxes { state.boxes[box] = nil } }
            for box in boxes { atr_release(OpaquePointer(bitPattern: box)!) }
        }
        let bits = arguments.map { argument in
            self.bits(of: argument) { wrapped in
                guard let box = atr_alloc(OpaquePointer(bitPattern: Self.boxClass)!) else { return 0 }
                boxes.append(box.address)
                state.withLock { $0.boxes[box.address] = wrapped }
                return UInt64(box.address)
            }
        }
        let thread = Self.currentThread
        let previous = pendingErrors.withLock { $0.removeValue(forKey: thread) }
        // Objects native code got back from the model meanwhile live until the result is read.
        let (outcome, thrown, returned) = keepingReturnedObjects { () -> (ATSendResult, RuntimeError?, RuntimeValue?) in
            var result: UInt64 = 0
            // One slot more than the arguments, so the buffer is never empty.
            let outcome = (bits + [0]).withUnsafeBufferPointer { buffer in
                perform(OpaquePointer(bitPattern: message.receiver.twin)!, sel(message.selector), types, buffer.baseAddress!, Int32(bits.count), &result)
            }
            let thrown = pendingErrors.withLock { pending in
                let thrown = pending.removeValue(forKey: thread)
                if let previous { pending[thread] = previous }
                return thrown
            }
            guard thrown == nil, !outcome.raised else { return (outcome, thrown, nil) }
            return (outcome, nil, value(bits: result, kind: ObjCTypeKinds(types).returnKind))
        }
        if let thrown { throw thrown }
        if outcome.raised {
            let name = withUnsafeBytes(of: outcome.exceptionName) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw .exception(name: name, reason: "raised while \(message.selector) ran on the real runtime")
        }
        return returned ?? .void
    }

    /// The encoding the receiver's `methodSignatureForSelector:` gives for a selector no
    /// class of the runtime implements (GNUstep asks it again, to build its invocation).
    func signatureTypes(of message: Message, receiverClass: OpaquePointer, runtime: Runtime) -> String? {
        guard atr_classResponds(receiverClass, sel(Selectors.methodSignature)),
              case .value(let wrapped)? = try? runtime.send(message.receiver, Selectors.methodSignature, MessageArguments(.selector(message.selector))),
              let signature = wrapped as? MethodSignature
        else { return nil }
        return signature.typeEncoding
    }

    /// The calling thread, as a key.
    static var currentThread: UInt { UInt(pthread_self()) }

    /// A value from native code's 64 bits, by its kind.
    func value(bits: UInt64, kind: Character) -> RuntimeValue {
        switch kind {
        case "v": .void
        case "@": object(at: UInt(bits))
        case "#": bits == 0 ? .object(nil) : .object(modelObject(at: UInt(bits)) ?? adoptedClass(at: UInt(bits)))
        case ":": OpaquePointer(bitPattern: UInt(bits)).map { .selector(Selector(String(cString: atr_selectorName($0)))) } ?? .int(0)
        case "c", "C", "B": .bool(bits != 0)
        case "d", "f": .double(Double(bitPattern: bits))
        case "?": .block(modelBlock(at: UInt(bits)))
        default: .int(Int(truncatingIfNeeded: bits))
        }
    }

    /// An object argument from native code: a model object or class, a boxed value, an
    /// `NSInvocation` as the model's invocation, or `nil`.
    func object(at address: UInt) -> RuntimeValue {
        guard address != 0 else { return .object(nil) }
        guard UInt64(address) >= Self.lowestObjectAddress else { return .int(Int(address)) }
        if let found = modelObject(at: address) { return .object(found) }
        if let boxed = state.withLock({ $0.boxes[address] }) { return .value(boxed) }
        return .object(adoptedObject(at: address))
    }

    /// The model's invocation for a native `NSInvocation`, or `nil` when it is not one.
    func invocation(at address: UInt, runtime: Runtime) -> Invocation? {
        guard let pointer = OpaquePointer(bitPattern: address), atr_isInvocation(pointer),
              let selectorPointer = atr_invocationSelector(pointer)
        else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        guard let types = buffer.withUnsafeMutableBufferPointer({ atr_invocationTypes(pointer, $0.baseAddress!, 256).map { String(cString: $0) } })
        else { return nil }
        let kinds = Array(ObjCTypeKinds(types).argumentKinds)
        var arguments: [RuntimeValue] = []
        for index in 2..<max(kinds.count, 2) {
            arguments.append(value(bits: atr_invocationArgument(pointer, Int32(index)), kind: kinds[index]))
        }
        let target: RuntimeObject? = atr_invocationTarget(pointer).flatMap { modelObject(at: $0.address) }
        return Invocation(
            selector: Selector(String(cString: atr_selectorName(selectorPointer))), target: target, arguments: MessageArguments(arguments),
            signature: MethodSignature(typeEncoding: types), runtime: runtime)
    }

    /// A retained `NSMethodSignature` for `types`.
    func signature(_ types: String) -> UInt {
        if let known = state.withLock({ $0.signatures[types] }) { return known }
        let made = atr_methodSignature(types)?.address ?? 0
        state.withLock { $0.signatures[types] = made }
        return made
    }
}
