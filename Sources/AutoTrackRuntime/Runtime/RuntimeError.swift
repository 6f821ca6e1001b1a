/// What the runtime refuses or what a message failed with. Where objc4 would crash or
/// raise an exception, this model throws one of these instead.
public enum RuntimeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No method, no forwarding target and no invocation forwarding answered the
    /// message (`-[X foo]: unrecognized selector sent to instance`). `isClassMessage`
    /// is true when the receiver was a class.
    case unrecognizedSelector(className: String, selector: Selector, isClassMessage: Bool)
    /// A class with this name is already registered or allocated
    /// (`objc_allocateClassPair` returns `Nil`).
    case classNameTaken(String)
    /// No class has this name.
    case classNotFound(String)
    /// The class does not implement this selector itself (and it was required to).
    case methodNotFound(className: String, selector: Selector)
    /// The class is allocated but not registered yet, so it cannot be instantiated.
    case classNotRegistered(String)
    /// The class is registered already, so its layout can no longer change.
    case classAlreadyRegistered(String)
    /// The class cannot be disposed of: subclasses or instances still use it.
    case classInUse(String, reason: String)
    /// The class was disposed of.
    case classDisposed(String)
    /// A typed call received a different kind of value than it expects.
    case typeMismatch(selector: Selector, expected: String, found: String)
    /// A typed call got a different number of arguments than the selector declares.
    case argumentCountMismatch(selector: Selector, expected: Int, found: Int)
    /// A key-value observation cannot be removed without leaving a wrong class behind:
    /// the object's class was changed by someone else while it was observed.
    case observationIsaChanged(expected: String, found: String)
    /// The object is not observed with this token.
    case notObserved
    /// An implementation raised an exception (`NSException`), with its name and reason.
    case exception(name: String, reason: String)

    /// What went wrong, in words.
    public var description: String {
        switch self {
        case .unrecognizedSelector(let className, let selector, let isClassMessage):
            "\(isClassMessage ? "+" : "-")[\(className) \(selector)]: unrecognized selector sent to "
                + (isClassMessage ? "class" : "instance")
        case .classNameTaken(let name): "a class named '\(name)' already exists"
        case .classNotFound(let name): "no class named '\(name)'"
        case .methodNotFound(let className, let selector): "\(className) does not implement \(selector) itself"
        case .classNotRegistered(let name): "class '\(name)' is allocated but not registered"
        case .classAlreadyRegistered(let name): "class '\(name)' is already registered"
        case .classInUse(let name, let reason): "class '\(name)' is in use: \(reason)"
        case .classDisposed(let name): "class '\(name)' was disposed of"
        case .typeMismatch(let selector, let expected, let found): "\(selector): expected \(expected), got \(found)"
        case .argumentCountMismatch(let selector, let expected, let found):
            "\(selector) takes \(expected) arguments, got \(found)"
        case .observationIsaChanged(let expected, let found):
            "cannot remove observation: the object's class is '\(found)', not the observing class '\(expected)'"
        case .notObserved: "the object is not observed with this token"
        case .exception(let name, let reason): "\(name): \(reason)"
        }
    }
}
