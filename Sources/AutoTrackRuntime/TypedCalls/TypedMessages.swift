// Typed sends and typed implementations for the method shapes hooks need — no
// arguments; one argument (an object, a bool); two objects; a selector and two
// objects — so call sites neither build `MessageArguments` nor cast results.

extension Runtime {
    /// Sends a message with no arguments and reads a typed result.
    public func call<Result: RuntimeValueConvertible>(
        _ receiver: RuntimeObject?, _ selector: Selector, returning: Result.Type
    ) throws(RuntimeError) -> Result {
        try Result.fromRuntimeValue(try send(receiver, selector), selector: selector)
    }

    /// Sends a message with one argument and reads a typed result.
    public func call<A: RuntimeValueConvertible, Result: RuntimeValueConvertible>(
        _ receiver: RuntimeObject?, _ selector: Selector, _ a: A, returning: Result.Type
    ) throws(RuntimeError) -> Result {
        try Result.fromRuntimeValue(try send(receiver, selector, MessageArguments(a.runtimeValue)), selector: selector)
    }

    /// Sends a message with two arguments and reads a typed result.
    public func call<A: RuntimeValueConvertible, B: RuntimeValueConvertible, Result: RuntimeValueConvertible>(
        _ receiver: RuntimeObject?, _ selector: Selector, _ a: A, _ b: B, returning: Result.Type
    ) throws(RuntimeError) -> Result {
        try Result.fromRuntimeValue(
            try send(receiver, selector, MessageArguments(a.runtimeValue, b.runtimeValue)), selector: selector)
    }

    /// Sends a message with no arguments, ignoring the result.
    public func call(_ receiver: RuntimeObject?, _ selector: Selector) throws(RuntimeError) {
        try send(receiver, selector)
    }

    /// Sends a message with one argument, ignoring the result.
    public func call<A: RuntimeValueConvertible>(_ receiver: RuntimeObject?, _ selector: Selector, _ a: A) throws(RuntimeError) {
        try send(receiver, selector, MessageArguments(a.runtimeValue))
    }

    /// Sends a message with two arguments, ignoring the result.
    public func call<A: RuntimeValueConvertible, B: RuntimeValueConvertible>(
        _ receiver: RuntimeObject?, _ selector: Selector, _ a: A, _ b: B
    ) throws(RuntimeError) {
        try send(receiver, selector, MessageArguments(a.runtimeValue, b.runtimeValue))
    }

    /// Sends a message with three arguments (a selector and two objects, as
    /// `sendAction:to:forEvent:`), ignoring the result.
    public func call<A: RuntimeValueConvertible, B: RuntimeValueConvertible, C: RuntimeValueConvertible>(
        _ receiver: RuntimeObject?, _ selector: Selector, _ a: A, _ b: B, _ c: C
    ) throws(RuntimeError) {
        try send(receiver, selector, MessageArguments(a.runtimeValue, b.runtimeValue, c.runtimeValue))
    }

    /// Sends a message with three arguments and reads a typed result.
    public func call<
        A: RuntimeValueConvertible, B: RuntimeValueConvertible, C: RuntimeValueConvertible, Result: RuntimeValueConvertible
    >(
        _ receiver: RuntimeObject?, _ selector: Selector, _ a: A, _ b: B, _ c: C, returning: Result.Type
    ) throws(RuntimeError) -> Result {
        try Result.fromRuntimeValue(
            try send(receiver, selector, MessageArguments(a.runtimeValue, b.runtimeValue, c.runtimeValue)),
            selector: selector)
    }

    /// The class the object reports through the `class` message — which a dynamic
    /// subclass or KVO may override — as opposed to ``RuntimeObject/realClass``.
    public func reportedClass(of object: RuntimeObject) throws(RuntimeError) -> RuntimeClass? {
        try call(object, Selectors.class, returning: RuntimeClass?.self)
    }

    /// The object's answer to `respondsToSelector:`, which a class may override.
    public func responds(_ object: RuntimeObject?, to selector: Selector) throws(RuntimeError) -> Bool {
        guard let object else { return false }
        return try call(object, Selectors.respondsToSelector, selector, returning: Bool.self)
    }
}

extension Implementation {
    private static func checkCount(_ message: Message, _ expected: Int) throws(RuntimeError) {
        if message.arguments.count != expected {
            throw .argumentCountMismatch(selector: message.selector, expected: expected, found: message.arguments.count)
        }
    }

    private static func argument<T: RuntimeValueConvertible>(
        _ message: Message, _ index: Int, as type: T.Type
    ) throws(RuntimeError) -> T {
        try T.fromRuntimeValue(message.arguments[index], selector: message.selector)
    }

    /// A method taking no arguments and returning a typed result.
    public static func returning<Result: RuntimeValueConvertible>(
        _ name: String, _ body: @escaping @Sendable (Message) throws(RuntimeError) -> Result
    ) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            try checkCount(message, 0)
            return try body(message).runtimeValue
        }
    }

    /// A `void` method taking no arguments.
    public static func procedure(
        _ name: String, _ body: @escaping @Sendable (Message) throws(RuntimeError) -> Void
    ) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            try checkCount(message, 0)
            try body(message)
            return .void
        }
    }

    /// A method taking one typed argument and returning a typed result.
    public static func returning<A: RuntimeValueConvertible, Result: RuntimeValueConvertible>(
        _ name: String, _ body: @escaping @Sendable (Message, A) throws(RuntimeError) -> Result
    ) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            try checkCount(message, 1)
            return try body(message, try argument(message, 0, as: A.self)).runtimeValue
        }
    }

    /// A `void` method taking one typed argument (an object, a bool …).
    public static func procedure<A: RuntimeValueConvertible>(
        _ name: String, _ body: @escaping @Sendable (Message, A) throws(RuntimeError) -> Void
    ) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            try checkCount(message, 1)
            try body(message, try argument(message, 0, as: A.self))
            return .void
        }
    }

    /// A method taking two typed arguments and returning a typed result.
    public static func returning<A: RuntimeValueConvertible, B: RuntimeValueConvertible, Result: RuntimeValueConvertible>(
        _ name: String, _ body: @escaping @Sendable (Message, A, B) throws(RuntimeError) -> Result
    ) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            try checkCount(message, 2)
            return try body(message, try argument(message, 0, as: A.self), try argument(message, 1, as: B.self))
                .runtimeValue
        }
    }

    /// A `void` method taking two typed arguments (two objects, as
    /// `tableView:didSelectRowAtIndexPath:`).
    public static func procedure<A: RuntimeValueConvertible, B: RuntimeValueConvertible>(
        _ name: String, _ body: @escaping @Sendable (Message, A, B) throws(RuntimeError) -> Void
    ) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            try checkCount(message, 2)
            try body(message, try argument(message, 0, as: A.self), try argument(message, 1, as: B.self))
            return .void
        }
    }

    /// A method taking three typed arguments and returning a typed result (a selector
    /// and two objects, as `sendAction:to:forEvent:` returning `BOOL`).
    public static func returning<
        A: RuntimeValueConvertible, B: RuntimeValueConvertible, C: RuntimeValueConvertible, Result: RuntimeValueConvertible
    >(
        _ name: String, _ body: @escaping @Sendable (Message, A, B, C) throws(RuntimeError) -> Result
    ) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            try checkCount(message, 3)
            return try body(
                message, try argument(message, 0, as: A.self), try argument(message, 1, as: B.self),
                try argument(message, 2, as: C.self)
            ).runtimeValue
        }
    }

    /// A `void` method taking three typed arguments (a selector and two objects).
    public static func procedure<A: RuntimeValueConvertible, B: RuntimeValueConvertible, C: RuntimeValueConvertible>(
        _ name: String, _ body: @escaping @Sendable (Message, A, B, C) throws(RuntimeError) -> Void
    ) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            try checkCount(message, 3)
            try body(
                message, try argument(message, 0, as: A.self), try argument(message, 1, as: B.self),
                try argument(message, 2, as: C.self))
            return .void
        }
    }
}
