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
        weakRegistryCreation.withLock { _ in
            if let existing = runtime.associatedObject(for: key, onClass: runtime.rootClass) as? WeakRegistry<Element> { return existing }
            let created = WeakRegistry<Element>()
            runtime.setAssociatedObject(created, for: key, onClass: runtime.rootClass)
            return created
        }
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

private let weakRegistryCreation = Locked<Void>(())
