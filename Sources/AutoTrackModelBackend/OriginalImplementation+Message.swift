/// AutoTrackInterception: `OriginalCall` appears in this file's public API.
public import AutoTrackInterception
/// AutoTrackMethodWrapping: `OriginalImplementation` appears in this file's public API.
public import AutoTrackMethodWrapping
/// AutoTrackRuntime: `Implementation`, `Message`, `RuntimeValue`, `RuntimeError` appear in this file's public API.
public import AutoTrackRuntime

extension OriginalImplementation where Implementation == AutoTrackRuntime.Implementation {
    /// The original bound to one message — its receiver, selector and arguments as
    /// the caller sent them — for the combinator to run exactly once.
    ///
    /// ```swift
    /// Implementation("my-hook -[UIControl sendAction:to:forEvent:]") { message throws(RuntimeError) in
    ///     try interceptor.intercept(
    ///         dedupe: .touch(event: message.arguments[2].object, element: message.receiver),
    ///         capture: { try makeClick(message) },
    ///         original: original.call(message))
    /// }
    /// ```
    @inlinable
    public func call(_ message: Message) -> OriginalCall<Message, RuntimeValue, RuntimeError> {
        OriginalCall(implementation.body, arguments: message)
    }
}
