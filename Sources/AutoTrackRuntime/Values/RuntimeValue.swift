/// An argument or return value of a message.
///
/// Objective-C passes C types through registers; this model passes them as cases of one
/// enum, which is enough to express every method shape a hook touches (objects,
/// selectors, booleans, integers, blocks and plain Swift values such as index paths).
public enum RuntimeValue: Sendable {
    /// No value: the return of a `void` method, and of any message sent to `nil`.
    case void
    /// An object reference, possibly `nil`. Classes are objects too.
    case object(RuntimeObject?)
    /// A `BOOL`.
    case bool(Bool)
    /// An `NSInteger`.
    case int(Int)
    /// A `double`.
    case double(Double)
    /// A `SEL`.
    case selector(Selector)
    /// A block (closure object), possibly `nil`.
    case block(RuntimeBlock?)
    /// Any other Swift value (a struct such as an index path or a rectangle). Boxed, so
    /// that every value stays two words and argument lists copy cheaply.
    indirect case value(any Sendable)

    /// The object, if this is `.object`; `nil` for a nil object and for other cases.
    public var object: RuntimeObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The case name, for diagnostics.
    public var kind: String {
        switch self {
        case .void: "void"
        case .object: "object"
        case .bool: "bool"
        case .int: "int"
        case .double: "double"
        case .selector: "selector"
        case .block: "block"
        case .value(let value): "value(\(type(of: value)))"
        }
    }
}

/// A block: a closure object that can be stored, passed and invoked, as
/// `UIAlertAction`'s handler is.
public final class RuntimeBlock: Sendable {
    /// The closure: takes the block's arguments, returns its result.
    public let body: @Sendable ([RuntimeValue]) throws(RuntimeError) -> RuntimeValue

    /// Wraps a closure.
    public init(_ body: @escaping @Sendable ([RuntimeValue]) throws(RuntimeError) -> RuntimeValue) {
        self.body = body
    }

    /// Runs the block.
    @discardableResult
    public func invoke(_ arguments: [RuntimeValue] = []) throws(RuntimeError) -> RuntimeValue {
        try body(arguments)
    }
}
