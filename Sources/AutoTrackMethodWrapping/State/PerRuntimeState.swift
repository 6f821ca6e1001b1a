/// AutoTrackInterception: `HookError` appears in this file's public API.
public import AutoTrackInterception
import AutoTrackLocking

/// Creates a class a hook needs (a tracking target, a proxy) once per runtime, even
/// when several threads install at the same time.
public enum HookClasses {
    private static let creation = Locked<Void>(())

    /// The registered class named `name`, defined by `define` if it does not exist yet.
    public static func named<Runtime: RuntimeOperations>(
        _ name: String, in runtime: Runtime, define: () throws -> Runtime.Class
    ) throws(HookError) -> Runtime.Class {
        try creation.withLock { (_: inout Void) throws(HookError) -> Runtime.Class in
            if let existing = runtime.lookUpClass(named: name) { return existing }
            do {
                return try define()
            } catch {
                throw .classNotCreated(className: name, reason: "\(error)")
            }
        }
    }
}

/// One object per runtime and key (an associated object on the runtime's root class),
/// made on first use: the state a hook's installations share.
///
/// Keep what a hook's wrappers work with here rather than in a variable of one
/// `install` call: a reinstall that re-enables a pass-through reuses the wrappers of the
/// installation that made them, so state made by the later call would never be seen by
/// them — and its uninstall would miss what they did.
public enum PerRuntimeState {
    private static let creation = Locked<Void>(())

    /// The object named `key` of `runtime`, made by `make` on first use.
    public static func object<Runtime: RuntimeOperations, Value: AnyObject & Sendable>(
        _ key: String, in runtime: Runtime, make: () -> Value
    ) -> Value {
        creation.withLock { _ in
            if let existing = runtime.associatedObject(for: key, onClass: runtime.rootClass) as? Value { return existing }
            let created = make()
            runtime.setAssociatedObject(created, for: key, onClass: runtime.rootClass)
            return created
        }
    }
}

/// A registry of weakly held objects kept per runtime (an associated object on its
/// root class): what a reinstall must find again — lists given a delegate, tracking
/// targets attached to recognizers.
public final class WeakRegistry<Element: AnyObject>: Sendable {
    private struct Entry: @unchecked Sendable {
        // Safe: only read and written inside the mutex.
        weak var object: Element?
    }
    private let entries = Locked<[Entry]>([])

    private init() {}

    /// The registry named `key` of `runtime`, created on first use.
    public static func named<Runtime: RuntimeOperations>(_ key: String, in runtime: Runtime) -> WeakRegistry<Element> {
        PerRuntimeState.object(key, in: runtime) { WeakRegistry<Element>() }
    }

    /// Remembers `object` once (and forgets released ones).
    public func note(_ object: Element) {
        entries.withLock { entries in
            entries.removeAll { $0.object == nil }
            if !entries.contains(where: { $0.object === object }) { entries.append(Entry(object: object)) }
        }
    }

    /// The objects still alive, oldest first.
    public var live: [Element] { entries.withLock { $0.compactMap(\.object) } }
}

