import AutoTrackInterception
import AutoTrackObjCBackend
import Testing

/// Associated objects on the real runtime: a side table (GCC's runtime has none) that
/// forgets an object when it is deallocated, as objc4 does.
@Suite struct AssociationTests {
    final class Value: Sendable {}

    @Test("an instance's associations go with it: the values are released, and nothing is left for its address")
    func associationsGoWithTheirObject() throws {
        let runtime = ObjCRuntime.shared
        let cls = try makeRegisteredClass("AssociationTestsObject")
        weak var released: Value?
        var address: UInt = 0
        do {
            let object = try #require(runtime.makeObject(of: cls))
            address = object.address
            let value = Value()
            released = value
            runtime.setAssociatedObject(value, for: "first", on: object)
            runtime.setAssociatedObject(Value(), for: "second", on: object)
            #expect(runtime.associatedObject(for: "first", on: object) === value)
            #expect(runtime.associationKeys(atAddress: address) == ["first", "second"], "both keys in one entry for the object")
        }
        #expect(released == nil, "released with the object")
        // Other tests use the one real runtime at the same time: the side table is
        // asked about this object's address only, not counted as a whole.
        #expect(runtime.associationKeys(atAddress: address) == nil, "nothing left for address \(address)")
        // An object made at the same address later (malloc reuses it) starts clean.
        let later = try #require(runtime.makeObject(of: cls))
        #expect(runtime.associatedObject(for: "first", on: later) == nil)
    }

    @Test("an NSProxy-rooted object's associations go with it too; a class's stay")
    func proxiesAndClasses() throws {
        let runtime = ObjCRuntime.shared
        let cls = try makeRegisteredClass("AssociationTestsProxy", under: "NSProxy")
        weak var released: Value?
        do {
            let proxy = try #require(runtime.allocateObject(of: cls))
            let value = Value()
            released = value
            runtime.setAssociatedObject(value, for: "key", on: proxy)
        }
        #expect(released == nil)
        let classValue = Value()
        runtime.setAssociatedObject(classValue, for: "AssociationTests.key", onClass: cls)
        #expect(runtime.associatedObject(for: "AssociationTests.key", onClass: cls) === classValue)
        runtime.setAssociatedObject(nil, for: "AssociationTests.key", onClass: cls)
        #expect(runtime.associatedObject(for: "AssociationTests.key", onClass: cls) == nil)
    }
}

