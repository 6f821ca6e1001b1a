import AutoTrackConformance
import AutoTrackConformanceCore
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackObjCBackend
import AutoTrackReferenceUI
import AutoTrackRuntime
import CObjCRuntimeBridge
import Foundation
import Testing

/// The reference host and the built-in hooks on a runtime whose dispatch GCC's libobjc
/// decides.
@Suite("Mirrored runtime")
struct MirroredRuntimeTests {
    static let objc = ScenarioBackend(name: "objc") { MirroredRuntime.make() }

    /// The address of the IMP a real send of `selector` to `object` runs.
    static func realIMP(_ object: RuntimeObject, _ selector: String) throws -> UInt {
        let real = try #require(MirroredRuntime.realObject(of: object))
        let imp = try #require(atr_messageLookup(OpaquePointer(bitPattern: real.address)!, atr_selector(selector)))
        return UInt(bitPattern: unsafeBitCast(imp, to: Int.self))
    }

    @Test("the host's classes are real classes, under a per-runtime root below GNUstep's NSObject")
    func classesAreReal() throws {
        let host = try ReferenceHost(runtime: MirroredRuntime.make())
        let button = try #require(host.runtime.lookUpClass("UIButton"))
        let real = try #require(MirroredRuntime.realClass(of: button))
        #expect(real.description.hasSuffix("_UIButton"))
        var names: [String] = []
        var current: ObjCClass? = real
        while let cls = current {
            names.append(cls.description)
            current = ObjCRuntime.shared.superclass(of: cls)
        }
        #expect(names.map { $0.split(separator: "_", maxSplits: 1).last.map(String.init) ?? $0 }
            == ["UIButton", "UIControl", "UIView", "UIResponder", "NSObject", "NSObject"])
        #expect(names.last == "NSObject")
        #expect(host.runtime.hasRealDispatch)
        #expect(!(try ReferenceHost()).runtime.hasRealDispatch)
    }

    /// A mirrored runtime with a class `Widget` whose `first` answers 1 and `second` 2, and
    /// an instance.
    static func widget() throws -> (Runtime, RuntimeClass, RuntimeObject) {
        let runtime = MirroredRuntime.make()
        let cls = try runtime.defineClass("Widget", methods: [
            ("first", "q@:", Implementation("-[Widget first]") { _ in .int(1) }),
            ("second", "q@:", Implementation("-[Widget second]") { _ in .int(2) }),
        ])
        return (runtime, cls, try runtime.allocate(cls))
    }

    @Test("an exchange made through the model is made on the real classes: the real lookup finds the other IMP")
    func exchangeReachesTheRealRuntime() throws {
        let (runtime, cls, widget) = try Self.widget()
        let before = (try Self.realIMP(widget, "first"), try Self.realIMP(widget, "second"))
        runtime.exchangeImplementations(try #require(runtime.method("first", in: cls)), try #require(runtime.method("second", in: cls)))
        #expect(try Self.realIMP(widget, "first") == before.1)
        #expect(try Self.realIMP(widget, "second") == before.0)
        #expect(try runtime.send(widget, "first").intValue == 2)
        #expect(runtime.dispatchDivergences.isEmpty)
    }

    @Test("a send runs what the real runtime chose — a change made behind the model's back is run, and the model takes it in")
    func realRuntimeDecides() throws {
        let (runtime, cls, widget) = try Self.widget()
        #expect(try runtime.send(widget, "first").intValue == 1)
        // Exchange on the real runtime only: the model's tables still say `first` → 1.
        let real = try #require(MirroredRuntime.realClass(of: cls))
        let objc = ObjCRuntime.shared
        objc.exchangeImplementations(try #require(objc.ownMethod(named: "first", in: real)), try #require(objc.ownMethod(named: "second", in: real)))
        #expect(try runtime.send(widget, "first").intValue == 2)
        #expect(runtime.dispatchDivergences.isEmpty, "native code's change, taken in: \(runtime.dispatchDivergences)")
        #expect(runtime.method("first", in: cls)?.implementation.name == "-[Widget second]")
        #expect(runtime.method("second", in: cls)?.implementation.name == "-[Widget first]")
    }

    @Test("an IMP native code installed runs natively with the method's convention, and the model lists methods native code added")
    func nativeImplementations() throws {
        let (runtime, cls, widget) = try Self.widget()
        let real = try #require(MirroredRuntime.realClass(of: cls))
        let realClass = OpaquePointer(bitPattern: real.address)!
        // What an Objective-C hook does: method_setImplementation on the real method.
        let method = try #require(atr_ownMethod(realClass, atr_selector("first")))
        _ = atr_setImplementation(realClass, method, atr_oracleImplementation(7))
        #expect(try runtime.send(widget, "first").intValue == 7)
        #expect(runtime.dispatchDivergences.isEmpty)
        #expect(runtime.method("first", in: cls)?.implementation.name.hasPrefix("native IMP") == true)
        // class_addMethod: the model's method list has it, and sends run it.
        #expect(atr_addMethod(realClass, atr_selector("third"), atr_oracleImplementation(9), "q@:"))
        #expect(runtime.ownMethods(of: cls).map(\.selector.name).contains("third"))
        #expect(try runtime.send(widget, "third").intValue == 9)
    }

    @Test("super sends are looked up by the real runtime from the static class")
    func superSends() throws {
        let runtime = MirroredRuntime.make()
        let base = try runtime.defineClass("Base", methods: [("value", "q@:", Implementation("-[Base value]") { _ in .int(10) })])
        let holder = ClassHolder()
        let sub = try runtime.defineClass("Sub", superclass: base, methods: [
            ("value", "q@:", Implementation("-[Sub value]") { message throws(RuntimeError) in
                .int((try message.sendSuper(from: holder.cls!).intValue ?? 0) + 1)
            }),
        ])
        holder.cls = sub
        let object = try runtime.allocate(sub)
        #expect(try runtime.send(object, "value").intValue == 11)
        #expect(runtime.dispatchDivergences.isEmpty)
    }

    @Test("native code calling a mirrored object's method runs its Swift implementation, arguments and result marshalled")
    func nativeCallsReachTheImplementation() throws {
        let runtime = MirroredRuntime.make()
        let seen = SeenArguments()
        let cls = try runtime.defineClass("Adder", methods: [
            ("add:to:", "q@:q@", Implementation("-[Adder add:to:]") { message throws(RuntimeError) in
                seen.record(try message.argument(at: 0).intValue ?? -1, try message.object(at: 1))
                return .int((try message.argument(at: 0).intValue ?? 0) + 100)
            }),
            ("half:", "d@:d", Implementation("-[Adder half:]") { message throws(RuntimeError) in
                guard case .double(let value) = try message.argument(at: 0) else { return .double(-1) }
                return .double(value / 2)
            }),
        ])
        let adder = try runtime.allocate(cls)
        let other = try runtime.allocate(cls)
        let receiver = OpaquePointer(bitPattern: try #require(MirroredRuntime.realObject(of: adder)).address)!
        let argument = try #require(MirroredRuntime.realObject(of: other)).address
        let result = atr_sendNative(receiver, atr_selector("add:to:"), 23, argument)
        #expect(!result.raised)
        #expect(result.value == 123)
        #expect(seen.number == 23)
        #expect(seen.object === other)
        #expect(atr_sendNativeDouble(receiver, atr_selector("half:"), 5) == 2.5)
    }

    @Test("the Swift Testing layer takes the backend: a hook's scenarios on real dispatch, an issue per violation")
    func swiftTestingLayer() throws {
        let hook = ConformanceSubject(ControlSendActionHook())
        let scenario = try #require(ScenarioCatalog.scenario("SA-01"))
        expectConformance(hook, scenario: scenario, backend: Self.objc)
        try requireConformance(hook, scenarios: [scenario], backend: Self.objc)
        let mutant = try #require(Mutants.all.first { $0.caughtBy.contains("SA-01") })
        withKnownIssue("the mutant double-records on the real runtime too") {
            expectConformance(mutant.subject, scenario: scenario, backend: Self.objc)
        }
        #expect(throws: ConformanceFailure.self) { try requireConformance(mutant.subject, scenarios: [scenario], backend: Self.objc) }
    }

    @Test("every hand-written mutant is caught on real dispatch by the scenarios that name it")
    func mutantsCaught() throws {
        for mutant in Mutants.all {
            let scenarios = mutant.caughtBy.compactMap(ScenarioCatalog.scenario)
            #expect(scenarios.count == mutant.caughtBy.count)
            let report = Conformance.evaluate(mutant.subject, scenarios: scenarios, backend: Self.objc)
            #expect(Set(report.failedScenarioIDs) == Set(mutant.caughtBy), "\(mutant.subject.name)")
            #expect(report.outcomes.allSatisfy { $0.error?.contains("different implementations") != true }, "\(mutant.subject.name)")
        }
    }

    /// Set in a child process of this test binary: the hook whose scenarios it runs.
    static let childSubject = "AUTOTRACK_MIRRORED_CATALOG_SUBJECT"
    /// Set in a child process: the scenario ids it runs, comma-separated.
    static let childScenarios = "AUTOTRACK_MIRRORED_CATALOG_SCENARIOS"

    @Test("a message nothing implements is forwarded by GNUstep: forwardInvocation: gets its NSInvocation as the model's, boxed values and the result included")
    func realForwarding() throws {
        let runtime = MirroredRuntime.make()
        let seen = SeenInvocations()
        let proxyClass = try runtime.defineClass("Forwarder", superclass: runtime.proxyRootClass, methods: [
            (Selectors.methodSignature, "@@::", Implementation("-[Forwarder methodSignatureForSelector:]") { _ in
                .value(MethodSignature(typeEncoding: "q@:q@"))
            }),
            (Selectors.forwardInvocation, "v@:@", Implementation("-[Forwarder forwardInvocation:]") { message throws(RuntimeError) in
                let invocation: Invocation = try message.value(at: 0)
                seen.record(invocation)
                invocation.returnValue = .int(42)
                return .void
            }),
        ])
        let proxy = try runtime.allocate(proxyClass)
        let result = try runtime.send(proxy, "scale:by:", MessageArguments(.int(7), .value(AutoTrackReferenceUI.IndexPath(row: 3, section: 1))))
        #expect(MirroredRuntime.realForwardCount(of: runtime) == 1, "through GNUstep's forwarding")
        #expect(MirroredRuntime.realForwardCount(of: Runtime()) == 0)
        #expect(result.intValue == 42)
        let invocation = try #require(seen.invocations.first)
        #expect(invocation.selector == "scale:by:")
        #expect(invocation.target === proxy)
        #expect(invocation.arguments[0].intValue == 7)
        guard case .value(let boxed) = invocation.arguments[1] else { Issue.record("the index path did not arrive"); return }
        #expect(boxed as? AutoTrackReferenceUI.IndexPath == AutoTrackReferenceUI.IndexPath(row: 3, section: 1))
        #expect(runtime.dispatchDivergences.isEmpty)
    }

    @Test("a message nobody forwards is unrecognized, and an error thrown while GNUstep forwards reaches the sender")
    func forwardingErrors() throws {
        let runtime = MirroredRuntime.make()
        let plain = try runtime.allocate(try runtime.defineClass("Plain"))
        #expect(throws: RuntimeError.unrecognizedSelector(className: "Plain", selector: "missing", isClassMessage: false)) {
            try runtime.send(plain, "missing")
        }
        let failing = try runtime.allocate(try runtime.defineClass("Failing", superclass: runtime.proxyRootClass, methods: [
            (Selectors.methodSignature, "@@::", Implementation("sig") { _ in .value(MethodSignature(typeEncoding: "v@:")) }),
            (Selectors.forwardInvocation, "v@:@", Implementation("fail") { _ throws(RuntimeError) in
                throw .exception(name: "AppFailure", reason: "on purpose")
            }),
        ]))
        #expect(throws: RuntimeError.exception(name: "AppFailure", reason: "on purpose")) { try runtime.send(failing, "anything") }
    }

    @Test("type encodings read as the closures pass their values", arguments: [
        ("v@:@q", "v@:@q"), ("c24@0:8@16", "c@:@"), ("@@:@\"NSString\"16", "@@:@"), ("v@:^{CGRect=dddd}@?", "v@:^?"),
        ("rVv@:Bl", "v@:Cq"), ("d@:d", "d@:d"),
    ])
    func typeKinds(types: String, kinds: String) {
        #expect(String(ObjCTypeKinds(types).all) == kinds)
    }

    @Test("a call site that knows only its values declares an object result and their kinds")
    func encodingFromValues() {
        let encoding = ObjCTypeKinds.encoding(returningObjectFor: [.int(1), .bool(true), .object(nil), .selector("a"), .double(2)])
        #expect(encoding == "@@:qc@:d")
        #expect(ObjCTypeKinds(encoding).takes(argumentCount: 5))
        #expect(!ObjCTypeKinds("").takes(argumentCount: 0))
    }

    @Test("the catalog on real dispatch: every built-in hook passes every scenario, no send diverging from the model",
          arguments: BuiltInHooks.all().map(\.name))
    func catalog(hookName: String) throws {
        // Each hook in a child process of this test binary, as `autotrack conformance
        // --backend objc` runs them: the real runtime never forgets a class, and its
        // registrations and implementation changes walk every class it has.
        guard ProcessInfo.processInfo.environment[Self.childSubject] == nil else { return }
        let hook = try #require(BuiltInHooks.all().first { $0.name == hookName })
        let scenarios = ScenarioCatalog.all.filter { $0.applies(to: hook.point) }
        let result = try IsolatedCatalog.run(
            subject: hook.name, point: hook.point.name, scenarios: scenarios.map { ($0.id, $0.title, $0.failure) }, backend: "objc",
            environment: { ids in [Self.childSubject: hook.name, Self.childScenarios: ids.joined(separator: ",")] }, deadline: 600
        ) { _ in
            ["--testing-library", "swift-testing", "--filter", "MirroredRuntimeTests/catalogChild"]
        }
        #expect(result.report.outcomes.count == scenarios.count)
        #expect(result.deaths == 0)
        #expect(result.report.passed, "\(result.report.table)")
    }

    @Test("(the child side of the catalog test: runs nothing unless started by it)")
    func catalogChild() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let name = environment[Self.childSubject], let hook = BuiltInHooks.all().first(where: { $0.name == name }) else { return }
        let ids = Set((environment[Self.childScenarios] ?? "").split(separator: ",").map(String.init))
        try IsolatedCatalog.runChild(
            ConformanceSubject(any: hook), scenarios: ScenarioCatalog.all.filter { ids.contains($0.id) }, backend: Self.objc)
    }
}

/// The class a `super` call is compiled in, set after the class is made.
private final class ClassHolder: @unchecked Sendable {
    // Safe: written once before any send, read by sends on the test's thread.
    var cls: RuntimeClass?
}

/// The invocations a forwarder was handed.
private final class SeenInvocations: @unchecked Sendable {
    // Safe: written by the one forwarded send, read after it returns, on the test's thread.
    var invocations: [Invocation] = []
    func record(_ invocation: Invocation) { invocations.append(invocation) }
}

/// What a native call handed an implementation.
private final class SeenArguments: @unchecked Sendable {
    // Safe: written by the one native call, read after it returns, on the test's thread.
    var number = 0
    var object: RuntimeObject?
    func record(_ number: Int, _ object: RuntimeObject?) {
        self.number = number
        self.object = object
    }
}

extension RuntimeValue {
    /// The integer, if this is `.int`.
    var intValue: Int? {
        if case .int(let value) = self { return value }
        return nil
    }
}
