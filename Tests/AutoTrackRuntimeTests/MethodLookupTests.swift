import AutoTrackRuntime
import Testing

@Suite("Method lookup, adding, replacing and exchanging (objc4 semantics)")
struct MethodLookupTests {
    let runtime = Runtime()
    let log = CallLog()
    let run: Selector = "run"

    @Test("objc_msgSend: a subclass without its own method runs the superclass's (inheritance lookup)")
    func inheritanceLookup() throws {
        let base = try runtime.defineRecordingClass("Base", selectors: [run], log: log)
        let sub = try runtime.defineClass("Sub", superclass: base)
        let grandchild = try runtime.defineClass("Grandchild", superclass: sub)
        #expect(ranName(try runtime.send(try runtime.allocate(grandchild), run)) == "-[Base run]")
        #expect(runtime.method(run, in: grandchild)?.owner === base)
        #expect(runtime.ownMethods(of: sub).isEmpty)
    }

    @Test("class_addMethod: adding to a class that only inherits the selector shadows it for that class alone")
    func addMethodShadows() throws {
        let base = try runtime.defineRecordingClass("Base", selectors: [run], log: log)
        let sub = try runtime.defineClass("Sub", superclass: base)
        let sibling = try runtime.defineClass("Sibling", superclass: base)
        _ = try runtime.send(try runtime.allocate(sub), run) // warm the cache before adding
        #expect(runtime.addMethod(to: sub, run, recording("-[Sub run]", log), types: "v@:"))
        #expect(ranName(try runtime.send(try runtime.allocate(sub), run)) == "-[Sub run]")
        #expect(ranName(try runtime.send(try runtime.allocate(sibling), run)) == "-[Base run]")
        #expect(ranName(try runtime.send(try runtime.allocate(base), run)) == "-[Base run]")
    }

    @Test("class_addMethod: returns NO and changes nothing when the class itself has the selector")
    func addMethodRefusesOwn() throws {
        let base = try runtime.defineRecordingClass("Base", selectors: [run], log: log)
        #expect(!runtime.addMethod(to: base, run, recording("other", log), types: "v@:"))
        #expect(ranName(try runtime.send(try runtime.allocate(base), run)) == "-[Base run]")
    }

    @Test("method_exchangeImplementations on the Method found by an inherited lookup changes the superclass and every sibling (the classic pitfall)")
    func inheritedExchangePitfall() throws {
        let hooked: Selector = "at_run"
        let base = try runtime.defineRecordingClass("Base", selectors: [run], log: log)
        let sub = try runtime.defineRecordingClass("Sub", superclass: base, selectors: [hooked], log: log)
        let sibling = try runtime.defineClass("Sibling", superclass: base)
        // Naive hook: look up `run` on Sub (finds Base's method) and exchange it.
        let inherited = try #require(runtime.method(run, in: sub))
        let swizzled = try #require(runtime.method(hooked, in: sub))
        #expect(inherited.owner === base)
        runtime.exchangeImplementations(inherited, swizzled)
        #expect(ranName(try runtime.send(try runtime.allocate(base), run)) == "-[Sub at_run]", "the superclass changed")
        #expect(ranName(try runtime.send(try runtime.allocate(sibling), run)) == "-[Sub at_run]", "a sibling changed")
    }

    @Test("class_addMethod then method_exchangeImplementations confines the change to the subclass")
    func addThenExchange() throws {
        let hooked: Selector = "at_run"
        let base = try runtime.defineRecordingClass("Base", selectors: [run], log: log)
        let sub = try runtime.defineRecordingClass("Sub", superclass: base, selectors: [hooked], log: log)
        let sibling = try runtime.defineClass("Sibling", superclass: base)
        let inherited = try #require(runtime.method(run, in: sub))
        // Give Sub its own `run` with the inherited implementation, then exchange that.
        #expect(runtime.addMethod(to: sub, run, inherited.implementation, types: inherited.typeEncoding))
        let own = try #require(runtime.method(run, in: sub))
        #expect(own.owner === sub)
        runtime.exchangeImplementations(own, try #require(runtime.method(hooked, in: sub)))
        #expect(ranName(try runtime.send(try runtime.allocate(sub), run)) == "-[Sub at_run]")
        #expect(ranName(try runtime.send(try runtime.allocate(sub), hooked)) == "-[Base run]")
        #expect(ranName(try runtime.send(try runtime.allocate(base), run)) == "-[Base run]")
        #expect(ranName(try runtime.send(try runtime.allocate(sibling), run)) == "-[Base run]")
    }

    @Test("method_exchangeImplementations twice restores both methods")
    func exchangeTwice() throws {
        let other: Selector = "other"
        let cls = try runtime.defineRecordingClass("Thing", selectors: [run, other], log: log)
        let first = try #require(runtime.method(run, in: cls))
        let second = try #require(runtime.method(other, in: cls))
        let object = try runtime.allocate(cls)
        runtime.exchangeImplementations(first, second)
        #expect(ranName(try runtime.send(object, run)) == "-[Thing other]")
        runtime.exchangeImplementations(first, second)
        #expect(ranName(try runtime.send(object, run)) == "-[Thing run]")
        #expect(ranName(try runtime.send(object, other)) == "-[Thing other]")
    }

    @Test("method_exchangeImplementations works across two unrelated classes")
    func exchangeAcrossClasses() throws {
        let hook: Selector = "hook_run"
        let app = try runtime.defineRecordingClass("AppClass", selectors: [run], log: log)
        let tracker = try runtime.defineRecordingClass("Tracker", selectors: [hook], log: log)
        runtime.exchangeImplementations(try #require(runtime.method(run, in: app)), try #require(runtime.method(hook, in: tracker)))
        #expect(ranName(try runtime.send(try runtime.allocate(app), run)) == "-[Tracker hook_run]")
        #expect(ranName(try runtime.send(try runtime.allocate(tracker), hook)) == "-[AppClass run]")
    }

    @Test("class_replaceMethod adds when the class lacks its own method (returning nil) and replaces otherwise (returning the previous)")
    func replaceMethod() throws {
        let base = try runtime.defineRecordingClass("Base", selectors: [run], log: log)
        let sub = try runtime.defineClass("Sub", superclass: base)
        #expect(runtime.replaceMethod(in: sub, run, recording("first", log), types: "v@:") == nil, "added, though Base has one")
        #expect(runtime.method(run, in: sub)?.owner === sub)
        let previous = runtime.replaceMethod(in: sub, run, recording("second", log), types: "v@:")
        #expect(previous?.name == "first")
        #expect(ranName(try runtime.send(try runtime.allocate(sub), run)) == "second")
        #expect(ranName(try runtime.send(try runtime.allocate(base), run)) == "-[Base run]")
    }

    @Test("method_setImplementation installs and returns the previous implementation")
    func setImplementation() throws {
        let cls = try runtime.defineRecordingClass("Thing", selectors: [run], log: log)
        let method = try #require(runtime.method(run, in: cls))
        let previous = runtime.setImplementation(of: method, to: recording("new", log))
        #expect(previous.name == "-[Thing run]")
        #expect(ranName(try runtime.send(try runtime.allocate(cls), run)) == "new")
    }

    @Test("class_copyMethodList lists own methods in order, not inherited ones; types are kept")
    func ownMethodListing() throws {
        let base = try runtime.defineRecordingClass("Base", selectors: ["a", "b"], log: log)
        let sub = try runtime.defineClass("Sub", superclass: base, methods: [
            ("z", "c@:", recording("z", log)), ("m", "v@:@", recording("m", log)),
        ])
        #expect(runtime.ownMethods(of: sub).map(\.selector) == ["z", "m"])
        #expect(runtime.ownMethods(of: sub).map(\.typeEncoding) == ["c@:", "v@:@"])
        #expect(runtime.ownMethods(of: base).map(\.selector) == ["a", "b"])
    }

    @Test("class methods live on the metaclass; the root metaclass inherits from the root class")
    func classMethods() throws {
        let make: Selector = "make"
        let cls = try runtime.defineClass("Factory", classMethods: [(make, "@@:", recording("+[Factory make]", log))])
        let sub = try runtime.defineClass("SubFactory", superclass: cls)
        #expect(ranName(try runtime.send(sub, make)) == "+[Factory make]")
        #expect(try runtime.call(cls, Selectors.class, returning: RuntimeClass.self) === cls, "+class returns the class itself")
        #expect(try runtime.call(cls, Selectors.isProxy, returning: Bool.self) == false, "root instance methods answer class messages")
        #expect(cls.metaclass.isMetaclass && cls.metaclass.instanceClass === cls)
        #expect(runtime.classMethod(make, in: sub)?.owner === cls.metaclass)
        #expect(throws: RuntimeError.unrecognizedSelector(className: "Factory", selector: "nothing", isClassMessage: true)) {
            try runtime.send(cls, "nothing")
        }
    }

    @Test("class_respondsToSelector and respondsToSelector: follow the real class chain; a class may override respondsToSelector:")
    func respondsToSelector() throws {
        let base = try runtime.defineRecordingClass("Base", selectors: [run], log: log)
        let liar = try runtime.defineClass("Liar", superclass: base, methods: [
            (Selectors.respondsToSelector, "c@::", .returning("-[Liar respondsToSelector:]") { (_: Message, _: Selector) in false }),
        ])
        let honest = try runtime.allocate(base)
        #expect(try runtime.responds(honest, to: run))
        #expect(try !runtime.responds(honest, to: "missing"))
        #expect(runtime.instancesRespond(of: liar, to: run), "the class answers by lookup")
        #expect(try !runtime.responds(try runtime.allocate(liar), to: run), "the object answers as its class overrides")
        #expect(try !runtime.responds(nil, to: run))
    }

    @Test("isKindOfClass: walks up from [self class], the reported class")
    func isKindOfClass() throws {
        let base = try runtime.defineClass("Base")
        let other = try runtime.defineClass("Other")
        let masked = try runtime.defineClass("Masked", superclass: other, methods: [
            (Selectors.class, "#@:", Implementation("-[Masked class]") { _ in .object(base) }),
        ])
        let object = try runtime.allocate(masked)
        #expect(try runtime.call(object, Selectors.isKindOfClass, base, returning: Bool.self))
        #expect(try !runtime.call(object, Selectors.isKindOfClass, other, returning: Bool.self))
    }

    @Test("a message to nil does nothing and returns zero")
    func messagingNil() throws {
        let result = try runtime.send(nil, "anything")
        guard case .void = result else {
            Issue.record("expected void, got \(result.kind)")
            return
        }
        #expect(try runtime.call(nil, "flag", returning: Bool?.self) == nil)
    }

    @Test("selectors are interned: equal names give equal selectors; the argument count is the colon count")
    func selectors() {
        #expect(Selector("tableView:didSelectRowAtIndexPath:") == "tableView:didSelectRowAtIndexPath:")
        #expect(Selector("tableView:didSelectRowAtIndexPath:").argumentCount == 2)
        #expect(Selector("class").argumentCount == 0)
        #expect(Selector("a") != Selector("b"))
    }
}
