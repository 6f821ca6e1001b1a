/// AutoTrackRuntime: `RuntimeValue` appears in this file's public API.
public import AutoTrackRuntime
import Synchronization
import AutoTrackLocking

/// A weak reference to an object the log numbered.
final class WeakObject: @unchecked Sendable {
    // Safe: read and written only under the log's lock.
    weak var object: RuntimeObject?
    init(_ object: RuntimeObject) { self.object = object }
}

/// What the sample app's own code did, in order: the originals' side of every
/// exactly-once count — and, for each original, the call it received (its transcript:
/// receiver, selector and arguments), so a hook that changes or drops an argument shows.
public final class AppLog: Sendable {
    private struct State {
        var entries: [AppLogEntry] = []
        var calls: [String] = []
        /// Each object's ordinal, with a weak reference that tells a later object at the
        /// same address (its identifier reused after it was freed) from it.
        var ordinals: [ObjectIdentifier: (object: WeakObject, ordinal: Int)] = [:]
        var nextOrdinal = 1
    }
    private let state = Locked(State())
    private let recordsCalls = Atomic<Bool>(false)

    /// Creates an empty log.
    public init() {}

    /// Whether ``record(_:selector:receiver:arguments:)`` also keeps the call (off by
    /// default: describing arguments costs more than the originals themselves, which
    /// benchmarks would measure). The conformance kit turns it on.
    public var keepsCalls: Bool {
        get { recordsCalls.load(ordering: .relaxed) }
        set { recordsCalls.store(newValue, ordering: .relaxed) }
    }

    /// Records an entry.
    public func record(_ entry: AppLogEntry) { state.withLock { $0.entries.append(entry) } }

    /// Records an entry and the call that made it: `selector` sent to `receiver` with
    /// `arguments`. Objects are written as the class they report (`-class`, what the
    /// app sees) and the order in which the log first saw them (`UIButton#2`), so two
    /// runs of the same actions read the same — unless a different object was passed.
    /// An object made later at a freed object's address is a new object: its own number.
    public func record(_ entry: AppLogEntry, selector: String, receiver: RuntimeObject, arguments: [RuntimeValue]) {
        guard keepsCalls else {
            record(entry)
            return
        }
        // Class names first, outside the lock: `-class` is a message a hook may wrap.
        let values = [RuntimeValue.object(receiver)] + arguments
        let classNames = values.map { value -> String? in
            guard case .object(let object?) = value else { return nil }
            return ((try? object.realClass.runtime.reportedClass(of: object)) ?? nil)?.name ?? object.realClass.name
        }
        state.withLock { state in
            state.entries.append(entry)
            var described: [String] = []
            for (value, className) in zip(values, classNames) {
                switch value {
                case .object(let object?):
                    let key = ObjectIdentifier(object)
                    let ordinal: Int
                    if let known = state.ordinals[key], known.object.object === object {
                        ordinal = known.ordinal
                    } else {
                        ordinal = state.nextOrdinal
                        state.nextOrdinal += 1
                        state.ordinals[key] = (WeakObject(object), ordinal)
                    }
                    described.append("\(className ?? "?")#\(ordinal)")
                case .object(nil): described.append("nil")
                default: described.append("\(value)")
                }
            }
            state.calls.append("\(selector) \(described[0]) (\(described.dropFirst().joined(separator: ", ")))")
        }
    }

    /// Every entry, in order.
    public var all: [AppLogEntry] { state.withLock { $0.entries } }

    /// The calls the originals received, in order.
    public var calls: [String] { state.withLock { $0.calls } }

    /// How many entries equal `entry`.
    public func count(_ entry: AppLogEntry) -> Int { state.withLock { $0.entries.filter { $0 == entry }.count } }

    /// How many entries are of `kind`, whatever their detail.
    public func count(of kind: AppLogEntry.Kind) -> Int { state.withLock { $0.entries.filter { $0.kind == kind }.count } }

    /// Forgets everything (object ordinals included).
    public func clear() { state.withLock { $0 = State() } }
}
