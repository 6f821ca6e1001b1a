import AutoTrackRuntime
import Testing

@Suite("Super dispatch, dynamic subclasses and class pairs (objc4 semantics)")
struct SuperAndSubclassTests {
    let runtime = Runtime()
    let log = CallLog()
    let appear: Selector = "viewDidAppear:"

    /// A base class and a subclass whose `viewDidAppear:` calls super, as UIKit apps do.
    func makeControllers() throws -> (base: RuntimeClass, sub: RuntimeClass) {
        let log = self.log
        let base = try runtime.defineClass("UIViewController", methods: [
            (appear, "v@:c", .procedure("-[UIViewController viewDidAppear:]") { (_: Message, _: Bool) in
                log.record("base original")
            }),
        ])
        let sub = try runtime.allocateClassPair(superclass: base, name: "ViewController")
        let appear = self.appear
        runtime.addMethod(to: sub, appear, .procedure("-[ViewController viewDidAppear:]") { (message: Message, animated: Bool) throws(RuntimeError) in
            log.record("sub original")
            try message.runtime.sendSuper(message.receiver, from: sub, appear, [.bool(animated)])
        }, types: "v@:c")
        try runtime.registerClassPair(sub)
        return (base, sub)
    }

    /// Exchange-swizzles `viewDidAppear:` of `cls` with a tracking method under a
    /// selector unique to that class (add-then-exchange).
    func swizzle(_ cls: RuntimeClass) throws {
        let log = self.log
        let swizzled = Selector("at_\(cls.name)_viewDidAppear:")
        let tracking = Implementation.procedure("-[\(cls.name) at_viewDidAppear:]") { (message: Message, animated: Bool) throws(RuntimeError) in
            log.record("track")
            try message.runtime.call(message.receiver, swizzled, animated)
        }
        runtime.addMethod(to: cls, swizzled, tracking, types: "v@:c")
        let inherited = try #require(runtime.method(appear, in: cls))
        runtime.addMethod(to: cls, appear, inherited.implementation, types: inherited.typeEncoding)
        runtime.exchangeImplementations(try #require(runtime.method(appear, in: cls)), try #require(runtime.method(swizzled, in: cls)))
    }

    @Test("objc_msgSendSuper2 starts at the static class's superclass: with both classes exchange-swizzled and the subclass calling super, tracking runs twice")
    func doubleCallThroughSuper() throws {
        let (base, sub) = try makeControllers()
        try swizzle(base)
        try swizzle(sub)
        try runtime.call(try runtime.allocate(sub), appear, true)
        #expect(log.count("track") == 2, "the classic double event")
        #expect(log.count("sub original") == 1)
        #expect(log.count("base original") == 1)
        #expect(log.sequence == ["track", "sub original", "track", "base original"])
    }

    @Test("a message passed on to super unchanged: found through the superclass's cache (filled on the first call), forwarded from a root class")
    func messageToSuper() throws {
        let log = self.log
        let base = try runtime.defineClass("Base", methods: [
            ("greet:", "v@:@", Implementation("-[Base greet:]") { message throws(RuntimeError) in
                log.record("base \(try message.value(at: 0, as: String.self))")
                return .void
            }),
        ])
        let sub = try runtime.allocateClassPair(superclass: base, name: "Sub")
        runtime.addMethod(to: sub, "greet:", Implementation("-[Sub greet:]") { message throws(RuntimeError) in
            log.record("sub")
            return try message.sendSuper(from: sub)
        }, types: "v@:@")
        try runtime.registerClassPair(sub)
        let object = try runtime.allocate(sub)
        for _ in 0..<3 { try runtime.send(object, "greet:", MessageArguments(.value("hi"))) }
        #expect(log.sequence == ["sub", "base hi", "sub", "base hi", "sub", "base hi"])
        // From a root class, `super` has nothing: the message is forwarded, and an
        // object that does not forward it raises as objc4 does.
        let root = try runtime.defineClass("Root", superclass: nil, methods: [
            ("ping", "v@:", Implementation("-[Root ping]") { message throws(RuntimeError) in try message.sendSuper(from: message.receiver.realClass) }),
        ])
        #expect(throws: RuntimeError.self) { try runtime.send(try runtime.allocate(root), "ping") }
    }

    @Test("with only the superclass swizzled, a subclass calling super is tracked once")
    func singleHookThroughSuper() throws {
        let (base, sub) = try makeControllers()
        try swizzle(base)
        try runtime.call(try runtime.allocate(sub), appear, false)
        #expect(log.sequence == ["sub original", "track", "base original"])
    }

    @Test("objc_allocateClassPair + object_setClass changes one object only; an overridden class hides it; a second object can share the generated class")
    func dynamicSubclass() throws {
        let (_, sub) = try makeControllers()
        let first = try runtime.allocate(sub)
        let second = try runtime.allocate(sub)
        let bystander = try runtime.allocate(sub)
        let generated = try runtime.allocateClassPair(superclass: sub, name: "cn.SensorsDataViewController")
        runtime.addMethod(to: generated, Selectors.class, Implementation("-[cn.SensorsDataViewController class]") { _ in
            .object(sub)
        }, types: "#@:")
        try runtime.registerClassPair(generated)
        #expect(runtime.setClass(of: first, to: generated) === sub)
        #expect(first.realClass === generated)
        #expect(bystander.realClass === sub, "other instances keep their class")
        #expect(try runtime.reportedClass(of: first) === sub, "the class message hides the subclass")
        // A second object of the same class reuses the generated class, found by name.
        let reused = try #require(runtime.lookUpClass("cn.SensorsDataViewController"))
        runtime.setClass(of: second, to: reused)
        #expect(second.realClass === first.realClass)
        try runtime.call(first, appear, true)
        #expect(log.sequence == ["sub original", "base original"], "the generated class inherits behaviour")
        #expect(generated.instanceCount == 2 && sub.instanceCount == 1)
    }

    @Test("objc_allocateClassPair refuses a taken name; registering twice and instantiating an unregistered class are errors")
    func classPairErrors() throws {
        let cls = try runtime.allocateClassPair(superclass: runtime.rootClass, name: "Thing")
        #expect(throws: RuntimeError.classNameTaken("Thing")) { try runtime.allocateClassPair(superclass: runtime.rootClass, name: "Thing") }
        #expect(throws: RuntimeError.classNameTaken("NSObject")) { try runtime.allocateClassPair(superclass: cls, name: "NSObject") }
        #expect(throws: RuntimeError.classNotRegistered("Thing")) { try runtime.allocate(cls) }
        #expect(runtime.lookUpClass("Thing") == nil, "objc_getClass does not see an unregistered class")
        try runtime.registerClassPair(cls)
        #expect(throws: RuntimeError.classAlreadyRegistered("Thing")) { try runtime.registerClassPair(cls) }
        #expect(runtime.lookUpClass("Thing") === cls)
        #expect(runtime.classNames.contains("Thing"))
    }

    @Test("objc_disposeClassPair frees the name once no instance or subclass remains; refuses otherwise")
    func dispose() throws {
        let cls = try runtime.defineClass("Temporary")
        var instance: RuntimeObject? = try runtime.allocate(cls)
        #expect(throws: RuntimeError.classInUse("Temporary", reason: "1 instances still exist")) { try runtime.disposeClassPair(cls) }
        let sub = try runtime.defineClass("TemporaryChild", superclass: cls)
        instance = nil
        #expect(throws: RuntimeError.classInUse("Temporary", reason: "subclass TemporaryChild still exists")) {
            try runtime.disposeClassPair(cls)
        }
        try runtime.disposeClassPair(sub)
        try runtime.disposeClassPair(cls)
        #expect(instance == nil)
        #expect(throws: RuntimeError.classDisposed("Temporary")) { try runtime.allocate(cls) }
        #expect(runtime.lookUpClass("Temporary") == nil)
        _ = try runtime.defineClass("Temporary") // the name is free again
    }

    @Test("subclasses(of:) lists every registered descendant, sorted by name, and none of the rest")
    func subclassesOfABase() throws {
        let (base, sub) = try makeControllers()
        let grandchild = try runtime.defineClass("AccountViewController", superclass: sub)
        _ = try runtime.defineClass("Model")
        let pending = try runtime.allocateClassPair(superclass: base, name: "NotYetRegistered")
        let disposed = try runtime.defineClass("Gone", superclass: base)
        try runtime.disposeClassPair(disposed)
        #expect(runtime.subclasses(of: base).map(\.name) == [grandchild.name, sub.name])
        #expect(runtime.subclasses(of: sub).map(\.name) == ["AccountViewController"])
        #expect(runtime.subclasses(of: grandchild).isEmpty)
        try runtime.registerClassPair(pending)
        #expect(runtime.subclasses(of: base).map(\.name) == ["AccountViewController", "NotYetRegistered", "ViewController"])
    }
}
