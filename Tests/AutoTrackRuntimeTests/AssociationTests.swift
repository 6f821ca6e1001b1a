import AutoTrackRuntime
import Testing

@Suite("Associated objects (objc_setAssociatedObject policies)")
struct AssociationTests {
    let runtime = Runtime()
    let key = AssociationKey("test.value")

    final class Payload: Sendable {}

    @Test("OBJC_ASSOCIATION_RETAIN keeps the value alive and releases it with its object")
    func retainPolicy() throws {
        let cls = try runtime.defineClass("Holder")
        var holder: RuntimeObject? = try runtime.allocate(cls)
        weak var watched: Payload?
        do {
            let payload = Payload()
            watched = payload
            runtime.setAssociatedObject(payload, for: key, on: holder!)
        }
        #expect(watched != nil, "retained by the association")
        #expect(runtime.associatedObject(for: key, on: holder!) === watched)
        holder = nil
        #expect(watched == nil, "released with its object")
    }

    @Test("OBJC_ASSOCIATION_ASSIGN does not retain; the model reads nil once the value is gone")
    func assignPolicy() throws {
        let holder = try runtime.allocate(try runtime.defineClass("Holder"))
        var payload: Payload? = Payload()
        weak let watched = payload
        runtime.setAssociatedObject(payload, for: key, on: holder, policy: .assign)
        #expect(runtime.associatedObject(for: key, on: holder) === payload)
        payload = nil
        #expect(watched == nil, "not kept alive by the association")
        #expect(runtime.associatedObject(for: key, on: holder) == nil)
    }

    @Test("setting nil removes; replacing releases the old value; removeAssociatedObjects clears all")
    func replaceAndRemove() throws {
        let holder = try runtime.allocate(try runtime.defineClass("Holder"))
        weak var first: Payload?
        do {
            let payload = Payload()
            first = payload
            runtime.setAssociatedObject(payload, for: key, on: holder)
        }
        runtime.setAssociatedObject(Payload(), for: key, on: holder)
        #expect(first == nil)
        runtime.setAssociatedObject(nil, for: key, on: holder)
        #expect(runtime.associatedObject(for: key, on: holder) == nil)
        runtime.setAssociatedObject(Payload(), for: AssociationKey("a"), on: holder)
        runtime.setAssociatedObject(Payload(), for: AssociationKey("b"), on: holder)
        runtime.removeAssociatedObjects(from: holder)
        #expect(runtime.associatedObject(for: AssociationKey("a"), on: holder) == nil)
    }
}
