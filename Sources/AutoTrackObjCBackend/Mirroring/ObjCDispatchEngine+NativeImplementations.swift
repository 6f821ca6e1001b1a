import AutoTrackRuntime
import CObjCRuntimeBridge
import AutoTrackLocking

extension ObjCDispatchEngine {
    // MARK: Implementations native code installed

    /// The model's implementation for an `IMP` the real runtime's lookup found: one this
    /// engine made, or — for an `IMP` native code installed (an Objective-C hook's
    /// swizzled method, an app's compiled override) — an implementation that calls it
    /// natively, made once per `IMP`. `nil` for GNUstep's own root methods, which the
    /// model's root does not have (see ``isGNUstepRootImplementation(_:selector:)``).
    func implementation(found address: UInt, selector: Selector, in realClass: OpaquePointer) -> Implementation? {
        if let known = implementation(at: address) { return known }
        if isGNUstepRootImplementation(address, selector: selector) { return nil }
        guard let method = atr_instanceMethod(realClass, sel(selector)) else { return nil }
        return nativeImplementation(address, types: String(cString: atr_methodTypes(method)), selector: selector)
    }

    /// The implementation standing for the native `IMP` at `address`.
    func nativeImplementation(_ address: UInt, types: String, selector: Selector) -> Implementation {
        if let known = state.withLock({ $0.nativeImplementations[address] }) { return known }
        let made = Implementation("native IMP 0x\(String(address, radix: 16)) for \(selector)") { [unowned self] message throws(RuntimeError) in
            try self.call(address, types: types, message)
        }
        return state.withLock { state in
            if let raced = state.nativeImplementations[address] { return raced }
            state.nativeImplementations[address] = made
            // Installing it elsewhere through the model installs the same IMP.
            state.implementations[ObjectIdentifier(made)] = address
            return made
        }
    }

    /// Whether `address` is the implementation GNUstep's `NSObject` or `NSProxy` (or
    /// their metaclasses) have of their own for `selector`: methods outside the model's
    /// world, which the model's root does not implement.
    func isGNUstepRootImplementation(_ address: UInt, selector: Selector) -> Bool {
        let name = sel(selector)
        for root in Self.gnustepRoots {
            let root = OpaquePointer(bitPattern: root)!
            for cls in [root, atr_metaclass(root)] {
                if let own = atr_ownMethod(cls, name), UInt(bitPattern: unsafeBitCast(atr_methodImplementation(own), to: Int.self)) == address {
                    return true
                }
            }
        }
        return false
    }

    /// GNUstep's root classes, by address.
    static let gnustepRoots: [UInt] = ["NSObject", "NSProxy"].compactMap { ObjCRuntime.shared.lookUpClass(named: $0)?.address }

    /// Calls the native `IMP` at `address` with `message`, as compiled code would.
    func call(_ address: UInt, types: String, _ message: Message) throws(RuntimeError) -> RuntimeValue {
        let imp = function(address)
        return try callNatively(message, types: types) { receiver, selector, types, arguments, count, result in
            atr_callNatively(imp, receiver, selector, types, arguments, count, result)
        }
    }

    /// The own methods of the real class `cls`, as the model's implementations: what
    /// a class native code changed has now. Root-metaclass copies of root instance
    /// methods (the engine's, see ``Copy``) are left out.
    func realOwnMethods(of cls: UInt) -> [(selector: Selector, implementation: Implementation, types: String)] {
        let real = OpaquePointer(bitPattern: cls)!
        var buffer = [ATMethodRef?](repeating: nil, count: 256)
        var count = Int(buffer.withUnsafeMutableBufferPointer { atr_ownMethods(real, $0.baseAddress!, 256) })
        if count > buffer.count {
            buffer = [ATMethodRef?](repeating: nil, count: count)
            count = Int(buffer.withUnsafeMutableBufferPointer { atr_ownMethods(real, $0.baseAddress!, Int32($0.count)) })
        }
        let copies = state.withLock { $0.copies }
        var methods: [(Selector, Implementation, String)] = []
        for method in buffer.prefix(count).compactMap({ $0 }) {
            let selector = Selector(String(cString: atr_selectorName(atr_methodSelector(method))))
            if copies.contains(Copy(metaclass: cls, selector: selector.id)) { continue }
            let address = UInt(bitPattern: unsafeBitCast(atr_methodImplementation(method), to: Int.self))
            let types = String(cString: atr_methodTypes(method))
            methods.append((selector, implementation(at: address) ?? nativeImplementation(address, types: types, selector: selector), types))
        }
        return methods
    }
}
