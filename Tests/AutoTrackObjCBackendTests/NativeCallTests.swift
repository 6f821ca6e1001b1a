import AutoTrackObjCBackend
import AutoTrackRuntime
import CObjCRuntimeBridge
import Synchronization
import Testing

/// Native code calling a mirrored runtime's implementations, in the situations hooks
/// written in Objective-C create.
@Suite("Native calls into a mirrored runtime")
struct NativeCallTests {
    @Test("an integer in an object's slot — the model's KVO passes observation ids so — comes back as that integer, never dereferenced")
    func integerInAnObjectSlot() throws {
        let runtime = MirroredRuntime.make()
        let seen = Atomic<Int>(-1)
        let cls = try runtime.defineClass("Remover", methods: [
            ("take:", "q@:@", Implementation("-[Remover take:]") { message in
                if case .int(let number)? = message.arguments.first { seen.store(number, ordering: .relaxed) }
                return .int(1)
            }),
        ])
        let remover = try runtime.allocate(cls)
        let receiver = OpaquePointer(bitPattern: try #require(MirroredRuntime.realObject(of: remover)).address)!
        let result = atr_sendNative(receiver, atr_selector("take:"), 5, 0)
        #expect(!result.raised && result.value == 1)
        #expect(seen.load(ordering: .relaxed) == 5)
    }

    @Test("an object native code moved to another class just before calling is seen in that class by the implementation it calls")
    func classChangedJustBefore() throws {
        let runtime = MirroredRuntime.make()
        let seenClass = Atomic<Int>(0)
        let base = try runtime.defineClass("Observed", methods: [
            ("whichClass", "q@:", Implementation("-[Observed whichClass]") { message in
                seenClass.store(message.receiver.realClass.name == "Observed_Moved" ? 2 : 1, ordering: .relaxed)
                return .void
            }),
        ])
        let moved = try runtime.defineClass("Observed_Moved", superclass: base)
        let object = try runtime.allocate(base)
        let receiver = OpaquePointer(bitPattern: try #require(MirroredRuntime.realObject(of: object)).address)!
        let movedClass = OpaquePointer(bitPattern: try #require(MirroredRuntime.realClass(of: moved)).address)!
        // What an Objective-C hook does: object_setClass, then the class's method at once.
        _ = atr_setClass(receiver, movedClass)
        let result = atr_sendNative(receiver, atr_selector("whichClass"), 0, 0)
        #expect(!result.raised)
        #expect(seenClass.load(ordering: .relaxed) == 2)
        #expect(object.realClass === moved)
    }
}
