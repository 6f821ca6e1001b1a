/// The methods of the root classes `NSObject` and `NSProxy`.
enum RootBehaviour {
    static func install(in runtime: Runtime) {
        let root = runtime.rootClass
        let proxy = runtime.proxyRootClass
        for (selector, types, body) in objectMethods(runtime) {
            runtime.addMethod(to: root, selector, Implementation("-[NSObject \(selector)]", body), types: types)
        }
        runtime.addMethod(
            to: root.metaclass, Selectors.class,
            Implementation("+[NSObject class]") { message in .object(message.receiver) }, types: "#@:")
        runtime.addMethod(
            to: root.metaclass, Selectors.instancesRespondToSelector,
            Implementation("+[NSObject instancesRespondToSelector:]") { message throws(RuntimeError) in
                guard let cls = message.receiver as? RuntimeClass else { return .bool(false) }
                return .bool(message.runtime.instancesRespond(of: cls, to: try message.selector(at: 0)))
            }, types: "c@::")
        for (selector, types, body) in proxyMethods() {
            runtime.addMethod(to: proxy, selector, Implementation("-[NSProxy \(selector)]", body), types: types)
        }
        runtime.addMethod(
            to: proxy.metaclass, Selectors.class,
            Implementation("+[NSProxy class]") { message in .object(message.receiver) }, types: "#@:")
    }

    private static func objectMethods(_ runtime: Runtime) -> [(Selector, String, Implementation.Body)] {
        [
            (Selectors.class, "#@:", { message in .object(message.receiver.realClass) }),
            (Selectors.isProxy, "c@:", { _ in .bool(false) }),
            (Selectors.respondsToSelector, "c@::", { message throws(RuntimeError) in
                .bool(message.runtime.instancesRespond(of: message.receiver.realClass, to: try message.selector(at: 0)))
            }),
            (Selectors.isKindOfClass, "c@:#", { message throws(RuntimeError) in
                guard let target = try message.object(at: 0) as? RuntimeClass else { return .bool(false) }
                let reported = try message.runtime.send(message.receiver, Selectors.class).object as? RuntimeClass
                return .bool(reported?.isSubclass(of: target) ?? false)
            }),
            (Selectors.forwardingTarget, "@@::", { _ in .object(nil) }),
            (Selectors.methodSignature, "@@::", { message throws(RuntimeError) in
                let selector = try message.selector(at: 0)
                guard let method = message.runtime.method(selector, in: message.receiver.realClass) else {
                    return .object(nil)
                }
                return .value(MethodSignature(typeEncoding: method.typeEncoding))
            }),
            (Selectors.forwardInvocation, "v@:@", { message throws(RuntimeError) in
                let invocation: Invocation = try message.value(at: 0)
                throw message.runtime.unrecognized(invocation.selector, by: message.receiver)
            }),
            // Key-value observing: the observer is the request the token goes back in.
            (Runtime.addObserverSelector, "v@:@@Q^v", { message throws(RuntimeError) in
                guard case .value(let argument)? = message.arguments.first, let request = argument as? ObservationRequest else {
                    throw .typeMismatch(
                        selector: message.selector, expected: "ObservationRequest", found: message.arguments.first?.kind ?? "nothing")
                }
                request.token = try message.runtime.observe(request.key, on: message.receiver, onChange: request.onChange)
                return .void
            }),
        ]
    }

    private static func proxyMethods() -> [(Selector, String, Implementation.Body)] {
        [
            (Selectors.class, "#@:", { message in .object(message.receiver.realClass) }),
            (Selectors.isProxy, "c@:", { _ in .bool(true) }),
            (Selectors.methodSignature, "@@::", { message throws(RuntimeError) in
                throw .exception(
                    name: "NSInvalidArgumentException",
                    reason: "-[NSProxy methodSignatureForSelector:] called for \(try message.selector(at: 0))!")
            }),
            (Selectors.forwardInvocation, "v@:@", { message throws(RuntimeError) in
                let invocation: Invocation = try message.value(at: 0)
                throw .exception(
                    name: "NSInvalidArgumentException",
                    reason: "-[NSProxy forwardInvocation:] called for \(invocation.selector)!")
            }),
            (Selectors.respondsToSelector, "c@::", forwardToOwnInvocation),
            (Selectors.isKindOfClass, "c@:#", forwardToOwnInvocation),
        ]
    }

    /// NSProxy's handling of the NSObject-protocol queries: pack the message and hand it
    /// to the proxy's own `forwardInvocation:`, so the subclass's forwarding answers.
    private static let forwardToOwnInvocation: Implementation.Body = { message throws(RuntimeError) in
        let runtime = message.runtime
        let signature = try runtime.send(message.receiver, Selectors.methodSignature, MessageArguments(.selector(message.selector)))
        guard case .value(let value) = signature, let methodSignature = value as? MethodSignature else {
            throw runtime.unrecognized(message.selector, by: message.receiver)
        }
        let invocation = Invocation(
            selector: message.selector, target: message.receiver, arguments: message.arguments,
            signature: methodSignature, runtime: runtime)
        try runtime.send(message.receiver, Selectors.forwardInvocation, MessageArguments(.value(invocation)))
        return invocation.returnValue
    }
}
