/// The arguments of one message, in order.
///
/// Up to four arguments are held inline, so sending a message with few arguments does
/// not allocate and an empty list costs nothing to copy or destroy; more spill into
/// an array.
public struct MessageArguments: Sendable, RandomAccessCollection, ExpressibleByArrayLiteral {
    private enum Storage: Sendable {
        case none
        case one(RuntimeValue)
        case two(RuntimeValue, RuntimeValue)
        case three(RuntimeValue, RuntimeValue, RuntimeValue)
        case four(RuntimeValue, RuntimeValue, RuntimeValue, RuntimeValue)
        case many([RuntimeValue])
    }

    private var storage: Storage

    /// No arguments.
    public static let none = MessageArguments()

    /// Creates an empty argument list.
    public init() { storage = .none }

    /// One argument.
    public init(_ a: RuntimeValue) { storage = .one(a) }

    /// Two arguments.
    public init(_ a: RuntimeValue, _ b: RuntimeValue) { storage = .two(a, b) }

    /// Three arguments.
    public init(_ a: RuntimeValue, _ b: RuntimeValue, _ c: RuntimeValue) { storage = .three(a, b, c) }

    /// Arguments from a list.
    public init(_ values: [RuntimeValue]) {
        switch values.count {
        case 0: storage = .none
        case 1: storage = .one(values[0])
        case 2: storage = .two(values[0], values[1])
        case 3: storage = .three(values[0], values[1], values[2])
        case 4: storage = .four(values[0], values[1], values[2], values[3])
        default: storage = .many(values)
        }
    }

    /// Arguments from a literal list.
    public init(arrayLiteral values: RuntimeValue...) {
        self.init(values)
    }

    /// The arguments as an array.
    public var values: [RuntimeValue] {
        switch storage {
        case .none: []
        case .one(let a): [a]
        case .two(let a, let b): [a, b]
        case .three(let a, let b, let c): [a, b, c]
        case .four(let a, let b, let c, let d): [a, b, c, d]
        case .many(let all): all
        }
    }

    /// The number of arguments.
    public var count: Int {
        switch storage {
        case .none: 0
        case .one: 1
        case .two: 2
        case .three: 3
        case .four: 4
        case .many(let all): all.count
        }
    }

    /// Appends an argument.
    public mutating func append(_ value: RuntimeValue) {
        self = MessageArguments(values + [value])
    }

    /// The first position, 0.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { count }

    /// The argument at `position`; reading past the end is a programming error, as
    /// with arrays (typed accessors such as ``Message/argument(at:)`` check first).
    public subscript(position: Int) -> RuntimeValue {
        get {
            precondition(position >= 0 && position < count, "argument index out of range")
            // One switch over the storage alone: a switch over a (storage, position)
            // tuple copies every argument (a retain and a release each) to read one.
            switch storage {
            case .one(let a): return a
            case .two(let a, let b): return position == 0 ? a : b
            case .three(let a, let b, let c): return position == 0 ? a : position == 1 ? b : c
            case .four(let a, let b, let c, let d): return position == 0 ? a : position == 1 ? b : position == 2 ? c : d
            case .many(let all): return all[position]
            case .none: fatalError("unreachable: empty argument list")
            }
        }
        set {
            var all = values
            all[position] = newValue
            self = MessageArguments(all)
        }
    }
}
