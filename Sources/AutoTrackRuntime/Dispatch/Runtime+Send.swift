import Synchronization

extension Runtime {
    /// Sends a message (`objc_msgSend`).
    ///
    /// Lookup starts at the receiver's real class and walks the superclass chain. When
    /// nothing implements `selector`, forwarding runs in objc4's order:
    /// 1. `forwardingTargetForSelector:` — if the receiver's class implements it and it
    ///    returns an object other than the receiver, the message is re-sent there;
    /// 2. `methodSignatureForSelector:` then `forwardInvocation:` — if a signature comes
    ///    back, the message is packed into an ``Invocation`` and handed over; its
    ///    return value is the result;
    /// 3. otherwise ``RuntimeError/unrecognizedSelector(className:selector:isClassMessage:)``
    ///    (`doesNotRecognizeSelector:`).
    ///
    /// A message to `nil` does nothing and returns ``RuntimeValue/void``.
    @inline(__always)
    @discardableResult
    public func send(
        _ receiver: RuntimeObject?, _ selector: Selector, _ arguments: consuming MessageArguments = MessageArguments()
    ) throws(RuntimeError) -> RuntimeValue {
        guard receiver != nil else { return .void }
        if let engine { return try dispatchReally(engine, receiver.unsafelyUnwrapped, selector, arguments, superFrom: nil) }
        return try dispatch(receiver.unsafelyUnwrapped, selector, arguments)
    }

    @inline(__always)
    private func dispatch(
        _ receiver: borrowing RuntimeObject, _ selector: Selector, _ arguments: consuming MessageArguments
    ) throws(RuntimeError) -> RuntimeValue {
        let isa = receiver.isaStorage.load(ordering: .acquiring).unsafelyUnwrapped
        switch isa._withUnsafeGuaranteedRef({ lookUp(selector, startingAt: $0) }) {
        case .found(let method):
            return try RuntimeMethod.invoke(
                method, Message(receiver: copy receiver, selector: selector, arguments: arguments, runtime: self))
        case .notImplemented, .miss:
            return try forward(copy receiver, selector, arguments)
        }
    }

    /// Sends a message to `super` (`objc_msgSendSuper2`): lookup starts at the
    /// superclass of `staticClass` — the class whose code is making the call — not at
    /// the receiver's class. This is why an implementation moved to another class by an
    /// exchange still calls *its* superclass, which reproduces the double call when a
    /// subclass and its superclass are both exchange-swizzled.
    @discardableResult
    public func sendSuper(
        _ receiver: RuntimeObject, from staticClass: RuntimeClass, _ selector: Selector,
        _ arguments: consuming MessageArguments = MessageArguments()
    ) throws(RuntimeError) -> RuntimeValue {
        if let engine { return try dispatchReally(engine, receiver, selector, arguments, superFrom: staticClass) }
        // A class's superclass is fixed when the class is allocated, so it is read
        // without the lock.
        guard let start = staticClass.superclassStorage else {
            return try forward(receiver, selector, arguments)
        }
        switch lookUp(selector, startingAt: start) {
        case .found(let method):
            return try RuntimeMethod.invoke(
                method, Message(receiver: receiver, selector: selector, arguments: arguments, runtime: self))
        case .notImplemented, .miss:
            return try forward(receiver, selector, arguments)
        }
    }

    /// Passes `message` on to `super` unchanged — same receiver, selector and arguments
    /// — from the class whose code is handling it: `[super sameSelector:sameArgs]`
    /// without building a new message.
    @discardableResult
    public func sendSuper(_ message: Message, from staticClass: RuntimeClass) throws(RuntimeError) -> RuntimeValue {
        try Self.sendSuper(message, from: staticClass)
    }

    /// ``sendSuper(_:from:)`` without holding the runtime: a cached lookup touches
    /// only the superclass's cache, and neither it nor the runtime is retained for it
    /// (both live as long as the runtime; the message's runtime serves the slow paths).
    static func sendSuper(_ message: Message, from staticClass: RuntimeClass) throws(RuntimeError) -> RuntimeValue {
        if let engine = message.runtime.engine {
            return try message.runtime.dispatchReally(engine, message.receiver, message.selector, message.arguments, superFrom: staticClass)
        }
        guard let start = staticClass.superclassOnSendPath else {
            return try message.runtime.forward(message.receiver, message.selector, message.arguments)
        }
        var lookup = start._withUnsafeGuaranteedRef { $0.cachedLookup(message.selector) }
        if case .miss = lookup { lookup = message.runtime.lookUpSlowly(message.selector, startingAt: start.takeUnretainedValue()) }
        switch lookup {
        case .found(let method):
            return try RuntimeMethod.invoke(method, message)
        case .notImplemented, .miss:
            return try message.runtime.forward(message.receiver, message.selector, message.arguments)
        }
    }

    // MARK: Forwarding

    @inline(never)
    func forward(
        _ receiver: RuntimeObject, _ selector: Selector, _ arguments: MessageArguments
    ) throws(RuntimeError) -> RuntimeValue {
        let cls = receiver.realClass
        if selector != Selectors.forwardingTarget, instancesRespond(of: cls, to: Selectors.forwardingTarget) {
            let target = try send(receiver, Selectors.forwardingTarget, MessageArguments(.selector(selector))).object
            if let target, target !== receiver {
                return try send(target, selector, arguments)
            }
        }
        if selector != Selectors.methodSignature, instancesRespond(of: cls, to: Selectors.methodSignature) {
            let answer = try send(receiver, Selectors.methodSignature, MessageArguments(.selector(selector)))
            if case .value(let value) = answer, let signature = value as? MethodSignature {
                let invocation = Invocation(
                    selector: selector, target: receiver, arguments: arguments, signature: signature, runtime: self)
                try send(receiver, Selectors.forwardInvocation, MessageArguments(.value(invocation)))
                return invocation.returnValue
            }
        }
        throw unrecognized(selector, by: receiver)
    }

    /// The error `doesNotRecognizeSelector:` reports for `receiver`.
    public func unrecognized(_ selector: Selector, by receiver: RuntimeObject) -> RuntimeError {
        let cls = receiver.realClass
        if cls.isMetaclass {
            return .unrecognizedSelector(
                className: cls.instanceClass?.name ?? cls.name, selector: selector, isClassMessage: true)
        }
        return .unrecognizedSelector(className: cls.name, selector: selector, isClassMessage: false)
    }
}

/// Selectors the runtime itself sends.
public enum Selectors {
    /// `class`
    public static let `class` = Selector("class")
    /// `respondsToSelector:`
    public static let respondsToSelector = Selector("respondsToSelector:")
    /// `isKindOfClass:`
    public static let isKindOfClass = Selector("isKindOfClass:")
    /// `isProxy`
    public static let isProxy = Selector("isProxy")
    /// `forwardingTargetForSelector:`
    public static let forwardingTarget = Selector("forwardingTargetForSelector:")
    /// `methodSignatureForSelector:`
    public static let methodSignature = Selector("methodSignatureForSelector:")
    /// `forwardInvocation:`
    public static let forwardInvocation = Selector("forwardInvocation:")
    /// `instancesRespondToSelector:`
    public static let instancesRespondToSelector = Selector("instancesRespondToSelector:")
}
