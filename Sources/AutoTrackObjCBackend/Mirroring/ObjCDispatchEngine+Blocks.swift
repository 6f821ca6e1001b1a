import AutoTrackRuntime
import CObjCRuntimeBridge
import Synchronization
import AutoTrackLocking

extension ObjCDispatchEngine {
    // MARK: Blocks crossing

    /// A model block made into a real one: what its native block calls back with. Never
    /// freed (native code may keep the block for ever); marked dead when the engine goes.
    final class BlockContext: @unchecked Sendable {
        // Safe: `engine` is valid while `isAlive` — the engine clears the flag in its
        // `deinit`; `block` is immutable and retained.
        let block: RuntimeBlock
        unowned(unsafe) let engine: ObjCDispatchEngine
        let isAlive = Atomic<Bool>(true)
        init(block: RuntimeBlock, engine: ObjCDispatchEngine) {
            self.block = block
            self.engine = engine
        }
    }

    /// A real block the model holds: copied while held, released with it.
    final class NativeBlock: @unchecked Sendable {
        // Safe: the pointer is a block copied for this object alone, immutable.
        let pointer: OpaquePointer
        init(copying block: OpaquePointer) { pointer = atr_copyBlock(block) }
        deinit { atr_releaseBlock(pointer) }
    }

    /// The real block standing for `block` in native code: made once per model block,
    /// so the same block crosses as the same pointer.
    func nativeBlock(for block: RuntimeBlock) -> UInt64 {
        state.withLock { state in
            if let known = state.blockAddresses[ObjectIdentifier(block)] { return UInt64(known) }
            let context = BlockContext(block: block, engine: self)
            let made = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(atr_makeBlock(Unmanaged.passRetained(context).toOpaque(), Self.blockHandler))))
            state.blockContexts.append(context)
            state.blockAddresses[ObjectIdentifier(block)] = made
            state.madeBlocks[made] = block
            return UInt64(made)
        }
    }

    /// The model block for a real block native code passed: the model's own when it is
    /// one this engine made, else one that calls the real block (kept copied while the
    /// model holds it) with its arguments as 64-bit values.
    func modelBlock(at address: UInt) -> RuntimeBlock? {
        guard address != 0, let pointer = OpaquePointer(bitPattern: address) else { return nil }
        if let made = state.withLock({ $0.madeBlocks[address] }) { return made }
        let native = NativeBlock(copying: pointer)
        return RuntimeBlock { [unowned(unsafe) self] arguments throws(RuntimeError) in
            let values = arguments.prefix(4).map { self.bits(of: $0) }
            _ = self.keepingReturnedObjects {
                values.withUnsafeBufferPointer { atr_callBlock(native.pointer, Int32($0.count), $0.baseAddress) }
            }
            return .void
        }
    }

    /// What every block made by ``nativeBlock(for:)`` calls: its model block runs with
    /// the arguments that are objects of this runtime (the rest as integers — a block's
    /// unused registers hold whatever they held), and an error it throws is kept for the
    /// send that led here, as for an implementation.
    static let blockHandler: ATBlockHandler = { context, first, second, third, fourth in
        guard let context else { return 0 }
        let blockContext = Unmanaged<BlockContext>.fromOpaque(context).takeUnretainedValue()
        guard blockContext.isAlive.load(ordering: .acquiring) else {
            failedNativeCalls.add(1, ordering: .relaxed)
            return 0
        }
        let engine = blockContext.engine
        let arguments = [first, second, third, fourth].map { bits -> RuntimeValue in
            if bits != 0, let object = engine.modelObject(at: UInt(bits)) { return .object(object) }
            return .int(Int(truncatingIfNeeded: bits))
        }
        do throws(RuntimeError) {
            return engine.bits(of: try blockContext.block.invoke(arguments))
        } catch {
            failedNativeCalls.add(1, ordering: .relaxed)
            let thread = currentThread
            engine.pendingErrors.withLock { pending in if pending[thread] == nil { pending[thread] = error } }
            return 0
        }
    }
}
