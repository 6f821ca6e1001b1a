import AutoTrackRuntime
import AutoTrackLocking

/// Counts calls by name, from any thread.
final class CallLog: Sendable {
    private let counts = Locked<[String: Int]>([:])
    private let order = Locked<[String]>([])

    func record(_ name: String) {
        counts.withLock { $0[name, default: 0] += 1 }
        order.withLock { $0.append(name) }
    }

    func count(_ name: String) -> Int { counts.withLock { $0[name, default: 0] } }
    var sequence: [String] { order.withLock { $0 } }
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }
}

/// An implementation that records `name` and returns it as a `.value(String)`.
func recording(_ name: String, _ log: CallLog) -> Implementation {
    Implementation(name) { _ in
        log.record(name)
        return .value(name)
    }
}

/// The name an implementation made with `recording` returned.
func ranName(_ value: RuntimeValue) -> String? {
    if case .value(let name) = value { return name as? String }
    return nil
}

extension Runtime {
    /// Defines `name` with one recorded no-argument method per selector.
    @discardableResult
    func defineRecordingClass(
        _ name: String, superclass: RuntimeClass? = nil, selectors: [Selector], log: CallLog
    ) throws -> RuntimeClass {
        try defineClass(
            name, superclass: superclass,
            methods: selectors.map { ($0, "v@:", recording("-[\(name) \($0)]", log)) })
    }
}
