import AutoTrackRuntime
import Testing

@Suite("Key-value observation isa-swizzling, alone and combined with a dynamic-subclass hook")
struct ObservationTests {
    let runtime = Runtime()
    let log = CallLog()
    let setTitle: Selector = "setTitle:"

    func makeModel() throws -> RuntimeClass {
        let log = self.log
        return try runtime.defineClass("Model", methods: [
            (setTitle, "v@:@", .procedure("-[Model setTitle:]") { (_: Message, _: RuntimeObject?) in log.record("setter") }),
        ])
    }

    /// A hook's dynamic subclass of the object's current real class, masking `class`.
    func isaSwizzleHook(_ object: RuntimeObject) throws -> (hook: RuntimeClass, previous: RuntimeClass) {
        let previous = object.realClass
        let reported = try runtime.reportedClass(of: object)
        let hook = try runtime.allocateClassPair(superclass: previous, name: "Hook_\(previous.name)")
        runtime.addMethod(to: hook, Selectors.class, Implementation("-[Hook class]") { _ in .object(reported) }, types: "#@:")
        try runtime.registerClassPair(hook)
        runtime.setClass(of: object, to: hook)
        return (hook, previous)
    }

    @Test("KVO isa-swizzles to NSKVONotifying_<Class>, reports the original class, notifies after the setter and restores on removal")
    func plainObservation() throws {
        let model = try makeModel()
        let object = try runtime.allocate(model)
        let other = try runtime.allocate(model)
        let log = self.log
        let token = try runtime.addObservation(of: "title", on: object) { _, key in log.record("changed \(key)") }
        #expect(object.realClass.name == "NSKVONotifying_Model")
        #expect(try runtime.reportedClass(of: object) === model)
        #expect(other.realClass === model)
        try runtime.call(object, setTitle, RuntimeObject?.none)
        #expect(log.sequence == ["setter", "changed title"])
        let second = try runtime.addObservation(of: "title", on: other) { _, _ in }
        #expect(other.realClass === object.realClass, "observed objects of one class share the KVO class")
        try runtime.removeObservation(token)
        #expect(object.realClass === model)
        #expect(!runtime.isObserved(object))
        #expect(throws: RuntimeError.notObserved) { try runtime.removeObservation(token) }
        try runtime.removeObservation(second)
        #expect(other.realClass === model)
    }

    @Test("KVO on an already isa-swizzled object builds on the hook's class; removing KVO then the hook restores the original")
    func hookThenObservationRemovedInReverse() throws {
        let model = try makeModel()
        let object = try runtime.allocate(model)
        let (hook, previous) = try isaSwizzleHook(object)
        let token = try runtime.addObservation(of: "title", on: object) { _, _ in }
        #expect(object.realClass.name == "NSKVONotifying_Hook_Model")
        #expect(object.realClass.isSubclass(of: hook))
        try runtime.removeObservation(token)
        #expect(object.realClass === hook)
        runtime.setClass(of: object, to: previous)
        #expect(object.realClass === model)
    }

    @Test("hook first, KVO second, hook removed first: KVO removal reports the changed class instead of restoring a wrong one")
    func hookRemovedUnderObservation() throws {
        let model = try makeModel()
        let object = try runtime.allocate(model)
        let (_, previous) = try isaSwizzleHook(object)
        let token = try runtime.addObservation(of: "title", on: object) { _, _ in }
        runtime.setClass(of: object, to: previous) // a naive unhook drops the KVO layer
        #expect(throws: RuntimeError.observationIsaChanged(expected: "NSKVONotifying_Hook_Model", found: "Model")) {
            try runtime.removeObservation(token)
        }
        #expect(object.realClass === model, "the class is left as the unhook set it, not reset to the hook class")
        #expect(!runtime.isObserved(object))
    }

    @Test("KVO first, hook second: removing KVO while the hook sits on top is refused and kept; after unhooking it succeeds")
    func observationThenHook() throws {
        let model = try makeModel()
        let object = try runtime.allocate(model)
        let token = try runtime.addObservation(of: "title", on: object) { _, _ in }
        let observing = object.realClass
        let (hook, previous) = try isaSwizzleHook(object)
        #expect(previous === observing)
        #expect(try runtime.reportedClass(of: object) === model, "the hook masks with what the object reported")
        #expect(throws: RuntimeError.observationIsaChanged(expected: "NSKVONotifying_Model", found: hook.name)) {
            try runtime.removeObservation(token)
        }
        #expect(object.realClass === hook)
        #expect(runtime.isObserved(object))
        runtime.setClass(of: object, to: previous)
        try runtime.removeObservation(token)
        #expect(object.realClass === model)
    }

    @Test("adding an observation after someone replaced the KVO class is a typed error")
    func addAfterIsaChange() throws {
        let model = try makeModel()
        let object = try runtime.allocate(model)
        _ = try runtime.addObservation(of: "title", on: object) { _, _ in }
        _ = try isaSwizzleHook(object)
        #expect(throws: RuntimeError.observationIsaChanged(expected: "NSKVONotifying_Model", found: "Hook_NSKVONotifying_Model")) {
            try runtime.addObservation(of: "title", on: object) { _, _ in }
        }
    }

    @Test("adding and removing observations are messages: a layer on top that overrides them sees the app's calls")
    func observationMessages() throws {
        let model = try makeModel()
        let object = try runtime.allocate(model)
        _ = try runtime.addObservation(of: "title", on: object) { _, _ in }
        let (hook, previous) = try isaSwizzleHook(object)
        let log = self.log
        // The layer steps aside for KVO, as a KVO-aware hook does.
        runtime.addMethod(to: hook, Runtime.removeObserverSelector, Implementation("-[Hook removeObserver:forKeyPath:]") { message throws(RuntimeError) in
            log.record("remove seen")
            message.runtime.setClass(of: message.receiver, to: previous)
            _ = try message.runtime.send(message.receiver, message.selector, message.arguments)
            return .void
        }, types: "v@:@@")
        runtime.addMethod(to: hook, Runtime.addObserverSelector, Implementation("-[Hook addObserver:forKeyPath:options:context:]") { message throws(RuntimeError) in
            log.record("add seen")
            guard case .value(let argument)? = message.arguments.first, let request = argument as? ObservationRequest else { return .void }
            message.runtime.setClass(of: message.receiver, to: previous)
            request.token = try message.runtime.addObservation(of: request.key, on: message.receiver, onChange: request.onChange)
            message.runtime.setClass(of: message.receiver, to: hook)
            return .void
        }, types: "v@:@@Q^v")
        let second = try runtime.addObservation(of: "title", on: object) { _, _ in }
        #expect(object.realClass === hook)
        runtime.setClass(of: object, to: previous)
        try runtime.removeObservation(second)
        runtime.setClass(of: object, to: hook)
        #expect(log.sequence == ["add seen"])
        let third = try runtime.addObservation(of: "title", on: object) { _, _ in }
        try runtime.removeObservation(third)
        #expect(log.sequence == ["add seen", "add seen", "remove seen"])
        #expect(runtime.isObserved(object), "the first observation remains")
    }
}
