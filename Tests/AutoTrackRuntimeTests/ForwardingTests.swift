import AutoTrackRuntime
import Testing
import AutoTrackLocking

@Suite("Message forwarding and proxies (objc4 and NSProxy semantics)")
struct ForwardingTests {
    let runtime = Runtime()
    let log = CallLog()
    let ping: Selector = "ping"

    @Test("forwarding order: forwardingTargetForSelector: first, then methodSignatureForSelector: + forwardInvocation:")
    func forwardingOrder() throws {
        let log = self.log
        let ping = self.ping
        let target = try runtime.defineRecordingClass("Target", selectors: [ping], log: log)
        let targetObject = try runtime.allocate(target)
        let handoff = Locked<Bool>(true)
        let forwarder = try runtime.defineClass("Forwarder", methods: [
            (Selectors.forwardingTarget, "@@::", Implementation("fast") { _ in
                log.record("forwardingTargetForSelector:")
                return .object(handoff.withLock { $0 } ? targetObject : nil)
            }),
            (Selectors.methodSignature, "@@::", Implementation("signature") { _ in
                log.record("methodSignatureForSelector:")
                return .value(MethodSignature(typeEncoding: "v@:"))
            }),
            (Selectors.forwardInvocation, "v@:@", Implementation("slow") { message throws(RuntimeError) in
                log.record("forwardInvocation:")
                let invocation: Invocation = try message.value(at: 0)
                try invocation.invoke(target: targetObject)
                return .void
            }),
        ])
        let object = try runtime.allocate(forwarder)
        #expect(ranName(try runtime.send(object, ping)) == "-[Target ping]")
        #expect(log.sequence == ["forwardingTargetForSelector:", "-[Target ping]"], "the fast path stops the search")
        handoff.withLock { $0 = false }
        #expect(ranName(try runtime.send(object, ping)) == "-[Target ping]", "the invocation's return value comes back")
        #expect(Array(log.sequence.dropFirst(2)) == [
            "forwardingTargetForSelector:", "methodSignatureForSelector:", "forwardInvocation:", "-[Target ping]",
        ])
    }

    @Test("forwardingTargetForSelector: returning self falls through to invocation forwarding")
    func forwardingToSelf() throws {
        let log = self.log
        let cls = try runtime.defineClass("SelfForwarder", methods: [
            (Selectors.forwardingTarget, "@@::", Implementation("fast") { message in .object(message.receiver) }),
            (Selectors.forwardInvocation, "v@:@", Implementation("slow") { message throws(RuntimeError) in
                let invocation: Invocation = try message.value(at: 0)
                log.record("forwardInvocation:\(invocation.selector)")
                invocation.returnValue = .int(42)
                return .void
            }),
            (Selectors.methodSignature, "@@::", Implementation("signature") { _ in .value(MethodSignature(typeEncoding: "q@:")) }),
        ])
        #expect(try runtime.call(try runtime.allocate(cls), "answer", returning: Int.self) == 42)
        #expect(log.sequence == ["forwardInvocation:answer"])
    }

    @Test("doesNotRecognizeSelector: without forwarding, the error names class and selector")
    func unrecognized() throws {
        let cls = try runtime.defineClass("Plain")
        do {
            try runtime.send(try runtime.allocate(cls), "tableView:didSelectRowAtIndexPath:")
            Issue.record("no error")
        } catch {
            #expect(error == .unrecognizedSelector(className: "Plain", selector: "tableView:didSelectRowAtIndexPath:", isClassMessage: false))
            #expect(error.description == "-[Plain tableView:didSelectRowAtIndexPath:]: unrecognized selector sent to instance")
        }
    }

    /// A proxy class in the style of a tutorial's delegate proxy: forwards everything to
    /// a target it holds.
    func makeProxyClass(target: RuntimeObject) throws -> RuntimeClass {
        try runtime.defineClass("DelegateProxy", superclass: runtime.proxyRootClass, methods: [
            (Selectors.methodSignature, "@@::", Implementation("-[DelegateProxy methodSignatureForSelector:]") { message throws(RuntimeError) in
                try message.runtime.send(target, Selectors.methodSignature, message.arguments)
            }),
            (Selectors.forwardInvocation, "v@:@", Implementation("-[DelegateProxy forwardInvocation:]") { message throws(RuntimeError) in
                let invocation: Invocation = try message.value(at: 0)
                try invocation.invoke(target: target)
                return .void
            }),
        ])
    }

    @Test("NSProxy: respondsToSelector: is answered by the target through forwardInvocation:")
    func proxyRespondsFromTarget() throws {
        let target = try runtime.allocate(try runtime.defineRecordingClass("Delegate", selectors: [ping], log: log))
        let proxy = try runtime.allocate(try makeProxyClass(target: target))
        #expect(try runtime.responds(proxy, to: ping))
        #expect(try !runtime.responds(proxy, to: "missing"))
        #expect(ranName(try runtime.send(proxy, ping)) == "-[Delegate ping]")
        #expect(try runtime.call(proxy, Selectors.isProxy, returning: Bool.self))
        #expect(try runtime.reportedClass(of: proxy)?.name == "DelegateProxy")
        #expect(try runtime.call(proxy, Selectors.isKindOfClass, target.realClass, returning: Bool.self),
                "isKindOfClass: is forwarded too")
    }

    @Test("NSProxy without overrides raises NSInvalidArgumentException instead of forwarding")
    func bareProxy() throws {
        let bare = try runtime.allocate(try runtime.defineClass("BareProxy", superclass: runtime.proxyRootClass))
        #expect(throws: RuntimeError.exception(
            name: "NSInvalidArgumentException", reason: "-[NSProxy methodSignatureForSelector:] called for ping!")) {
            try runtime.send(bare, ping)
        }
    }

    @Test("NSObject's default methodSignatureForSelector: returns the method's encoding, or nil")
    func defaultSignature() throws {
        let cls = try runtime.defineClass("Typed", methods: [("go:", "v@:@", recording("go", log))])
        let object = try runtime.allocate(cls)
        let signature = try runtime.send(object, Selectors.methodSignature, [.selector("go:")])
        guard case .value(let value) = signature else {
            Issue.record("no signature")
            return
        }
        #expect((value as? MethodSignature)?.typeEncoding == "v@:@")
        #expect(try runtime.call(object, Selectors.methodSignature, Selector("nope"), returning: RuntimeObject?.self) == nil)
    }
}
