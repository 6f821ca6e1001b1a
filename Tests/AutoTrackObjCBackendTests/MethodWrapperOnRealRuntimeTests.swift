import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackObjCBackend
import CObjCRuntimeBridge
import Synchronization
import Testing
import AutoTrackLocking

/// The contract's method-wrapping machinery — written once against `RuntimeOperations` —
/// on real classes, real methods and real IMPs: the wrapper is a C-convention Swift
/// function installed with `method_setImplementation`, calling the original IMP.
@Suite(.serialized) struct MethodWrapperOnRealRuntimeTests {
    typealias Send = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int

    /// What the wrappers installed in these tests call, by selector name: our
    /// installation's original and switch, and what each "other library" replaced.
    final class Installations: Sendable {
        struct Ours {
            let original: ObjCImplementation
            let hookSwitch: HookSwitch
        }
        let ours = Locked<[String: Ours]>([:])
        let theirs = Locked<[String: ObjCImplementation]>([:])
        let recorded = Locked<[String: Int]>([:])
        let theirCalls = Locked<[String: Int]>([:])
    }

    static let installations = Installations()
    static let runtime = ObjCRuntime.shared
    static let counter = Atomic<Int>(0)

    /// Our wrapper: records when its switch is on, then runs the original once.
    static let ourWrapper: Send = { receiver, selector in
        let name = String(cString: atr_selectorName(selector!))
        guard let installation = MethodWrapperOnRealRuntimeTests.installations.ours.withLock({ $0[name] }) else { return -1 }
        if installation.hookSwitch.isOn { MethodWrapperOnRealRuntimeTests.installations.recorded.withLock { $0[name, default: 0] += 1 } }
        return unsafeBitCast(Int(bitPattern: installation.original.address), to: Send.self)(receiver, selector)
    }

    /// Another library's wrapper stacked on ours (method_setImplementation, keeping what it replaced).
    static let theirWrapper: Send = { receiver, selector in
        let name = String(cString: atr_selectorName(selector!))
        guard let replaced = MethodWrapperOnRealRuntimeTests.installations.theirs.withLock({ $0[name] }) else { return -1 }
        MethodWrapperOnRealRuntimeTests.installations.theirCalls.withLock { $0[name, default: 0] += 1 }
        return unsafeBitCast(Int(bitPattern: replaced.address), to: Send.self)(receiver, selector)
    }

    static func implementation(_ function: Send) -> ObjCImplementation {
        ObjCImplementation(address: UInt(bitPattern: unsafeBitCast(function, to: Int.self)))
    }

    static func oracle(_ tag: Int32) -> ObjCImplementation {
        AutoTrackObjCBackendTests.implementation(atr_oracleImplementation(tag))
    }

    /// A new class with `selector` implemented by oracle implementation 11.
    static func makeClass(selector: String) throws -> ObjCClass {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let cls = try runtime.makeClassPair(superclass: runtime.rootClass, named: "MethodWrapperOnRealRuntime\(number)")
        try runtime.registerClass(cls)
        runtime.addMethod(to: cls, selector: selector, implementation: oracle(11), types: "q@:")
        return cls
    }

    static func install(_ cls: ObjCClass, _ selector: String) throws -> HookHandle {
        try MethodWrapper.install(name: "real-runtime-test", runtime: runtime, cls: cls, selector: selector) { original, hookSwitch in
            installations.ours.withLock { $0[selector] = .init(original: original.implementation, hookSwitch: hookSwitch) }
            return implementation(ourWrapper)
        }
    }

    /// `[object selector]`: the oracle trace (which original ran), and what was recorded.
    static func send(_ object: ObjCObject, _ selector: String) throws -> ([Int], Int) {
        atr_oracleResetTrace()
        _ = try runtime.send(object, selector)
        let trace = (0..<atr_oracleTraceCount()).map { Int(atr_oracleTraceEntry($0)) }
        return (trace, installations.recorded.withLock { $0[selector] ?? 0 })
    }

    @Test("install: the original runs once per call and the call is recorded once; a second install is the same handle")
    func installOnce() throws {
        let selector = "wrapperInstallOnce"
        let cls = try Self.makeClass(selector: selector)
        let object = try #require(Self.runtime.makeObject(of: cls))
        let handle = try Self.install(cls, selector)
        #expect(try Self.install(cls, selector) === handle)
        let (trace, recorded) = try Self.send(object, selector)
        #expect(trace == [11])
        #expect(recorded == 1)
        #expect(handle.state == .installed)
    }

    @Test("uninstall restores the original IMP; the call is no longer recorded")
    func uninstallRestores() throws {
        let selector = "wrapperUninstallRestores"
        let cls = try Self.makeClass(selector: selector)
        let object = try #require(Self.runtime.makeObject(of: cls))
        let method = try #require(Self.runtime.ownMethod(named: selector, in: cls))
        let handle = try Self.install(cls, selector)
        try handle.uninstall()
        #expect(handle.state == .uninstalled)
        #expect(Self.runtime.implementation(of: method) == Self.oracle(11))
        let (trace, recorded) = try Self.send(object, selector)
        #expect(trace == [11])
        #expect(recorded == 0)
    }

    @Test("another library stacked on ours: uninstall leaves ours as a pass-through, theirs still reaches the original once; reinstall turns ours back on")
    func passThroughUnderAnotherLibrary() throws {
        let selector = "wrapperPassThrough"
        let cls = try Self.makeClass(selector: selector)
        let object = try #require(Self.runtime.makeObject(of: cls))
        let method = try #require(Self.runtime.ownMethod(named: selector, in: cls))
        let handle = try Self.install(cls, selector)
        let replaced = Self.runtime.setImplementation(of: method, to: Self.implementation(Self.theirWrapper))
        Self.installations.theirs.withLock { $0[selector] = replaced }

        try handle.uninstall()
        #expect(handle.state == .passThrough)
        let (trace, recorded) = try Self.send(object, selector)
        #expect(trace == [11], "the original ran exactly once")
        #expect(recorded == 0, "ours passes through")
        #expect(Self.installations.theirCalls.withLock { $0[selector] } == 1)

        #expect(try Self.install(cls, selector) === handle)
        #expect(handle.state == .installed)
        let (again, recordedAgain) = try Self.send(object, selector)
        #expect(again == [11])
        #expect(recordedAgain == 1)
    }

    @Test("a class that only inherits the method gets its own: the superclass and its other subclasses are untouched")
    func addThenWrap() throws {
        let selector = "wrapperAddThenWrap"
        let parent = try Self.makeClass(selector: selector)
        let number = Self.counter.wrappingAdd(1, ordering: .relaxed).newValue
        let child = try Self.runtime.makeClassPair(superclass: parent, named: "MethodWrapperOnRealRuntimeChild\(number)")
        try Self.runtime.registerClass(child)
        _ = try Self.install(child, selector)
        #expect(Self.runtime.ownMethod(named: selector, in: child) != nil)
        #expect(Self.runtime.implementation(of: try #require(Self.runtime.ownMethod(named: selector, in: parent))) == Self.oracle(11))
        let (parentTrace, parentRecorded) = try Self.send(try #require(Self.runtime.makeObject(of: parent)), selector)
        #expect(parentTrace == [11] && parentRecorded == 0)
        let (childTrace, childRecorded) = try Self.send(try #require(Self.runtime.makeObject(of: child)), selector)
        #expect(childTrace == [11] && childRecorded == 1)
    }
}
