/// A Swift type that travels as a message argument or result, so typed calls and
/// typed implementations need no casts at the call site.
public protocol RuntimeValueConvertible: SendableMetatype {
    /// The value as a message argument.
    var runtimeValue: RuntimeValue { get }
    /// Reads the value back; throws ``RuntimeError/typeMismatch(selector:expected:found:)``
    /// naming `selector` when the value is of another kind.
    static func fromRuntimeValue(_ value: RuntimeValue, selector: Selector) throws(RuntimeError) -> Self
}

/// A plain Swift value type (an index path, a rectangle, an event) passed as
/// ``RuntimeValue/value(_:)``. Conform to get the conversions for free.
public protocol RuntimeStructValue: RuntimeValueConvertible, Sendable {}

extension RuntimeStructValue {
    /// `.value(self)`.
    public var runtimeValue: RuntimeValue { .value(self) }

    /// The wrapped value, if it has this type.
    public static func fromRuntimeValue(_ value: RuntimeValue, selector: Selector) throws(RuntimeError) -> Self {
        guard case .value(let wrapped) = value, let typed = wrapped as? Self else {
            throw .typeMismatch(selector: selector, expected: "\(Self.self)", found: value.kind)
        }
        return typed
    }
}

extension RuntimeValue: RuntimeValueConvertible {
    /// Itself.
    public var runtimeValue: RuntimeValue { self }

    /// Itself.
    public static func fromRuntimeValue(_ value: RuntimeValue, selector: Selector) throws(RuntimeError) -> RuntimeValue {
        value
    }
}

extension Bool: RuntimeValueConvertible {
    /// `.bool(self)`.
    public var runtimeValue: RuntimeValue { .bool(self) }

    /// The boolean of a `.bool` value.
    public static func fromRuntimeValue(_ value: RuntimeValue, selector: Selector) throws(RuntimeError) -> Bool {
        guard case .bool(let flag) = value else { throw .typeMismatch(selector: selector, expected: "bool", found: value.kind) }
        return flag
    }
}

extension Int: RuntimeValueConvertible {
    /// `.int(self)`.
    public var runtimeValue: RuntimeValue { .int(self) }

    /// The integer of an `.int` value.
    public static func fromRuntimeValue(_ value: RuntimeValue, selector: Selector) throws(RuntimeError) -> Int {
        guard case .int(let number) = value else { throw .typeMismatch(selector: selector, expected: "int", found: value.kind) }
        return number
    }
}

extension Double: RuntimeValueConvertible {
    /// `.double(self)`.
    public var runtimeValue: RuntimeValue { .double(self) }

    /// The number of a `.double` value.
    public static func fromRuntimeValue(_ value: RuntimeValue, selector: Selector) throws(RuntimeError) -> Double {
        guard case .double(let number) = value else {
            throw .typeMismatch(selector: selector, expected: "double", found: value.kind)
        }
        return number
    }
}

extension Selector: RuntimeValueConvertible {
    /// `.selector(self)`.
    public var runtimeValue: RuntimeValue { .selector(self) }

    /// The selector of a `.selector` value.
    public static func fromRuntimeValue(_ value: RuntimeValue, selector: Selector) throws(RuntimeError) -> Selector {
        guard case .selector(let found) = value else {
            throw .typeMismatch(selector: selector, expected: "selector", found: value.kind)
        }
        return found
    }
}

extension RuntimeObject: RuntimeValueConvertible {
    /// `.object(self)`.
    public var runtimeValue: RuntimeValue { .object(self) }

    /// The object of an `.object` value, if it is non-nil and of this Swift type.
    public static func fromRuntimeValue(_ value: RuntimeValue, selector: Selector) throws(RuntimeError) -> Self {
        guard case .object(let object) = value, let typed = object as? Self else {
            let found = if case .object(nil) = value { "nil" } else { value.kind }
            throw .typeMismatch(selector: selector, expected: "\(Self.self)", found: found)
        }
        return typed
    }
}

extension Optional: RuntimeValueConvertible where Wrapped: RuntimeValueConvertible {
    /// The wrapped value's form; `nil` is a nil object (or a nil block).
    public var runtimeValue: RuntimeValue {
        switch self {
        case .some(let wrapped): wrapped.runtimeValue
        case .none: Wrapped.self == RuntimeBlock.self ? .block(nil) : .object(nil)
        }
    }

    /// `nil` for a nil object, nil block or `void`; otherwise the wrapped value.
    public static func fromRuntimeValue(_ value: RuntimeValue, selector: Selector) throws(RuntimeError) -> Wrapped? {
        switch value {
        case .object(nil), .block(nil), .void: return nil
        default: return try Wrapped.fromRuntimeValue(value, selector: selector)
        }
    }
}

extension RuntimeBlock: RuntimeValueConvertible {
    /// `.block(self)`.
    public var runtimeValue: RuntimeValue { .block(self) }

    /// The block of a non-nil `.block` value.
    public static func fromRuntimeValue(_ value: RuntimeValue, selector: Selector) throws(RuntimeError) -> RuntimeBlock {
        guard case .block(let block?) = value else {
            throw .typeMismatch(selector: selector, expected: "block", found: value.kind)
        }
        return block
    }
}

/// Text travels as a plain Swift value (`NSString` in Objective-C).
extension String: RuntimeStructValue {}
