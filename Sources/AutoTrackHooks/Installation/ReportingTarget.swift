import AutoTrackInterception
import AutoTrackRuntime
import Synchronization

/// Where code we leave behind in the app's classes (tracking methods added to a
/// delegate class, generated subclasses) reports to: the context and on/off flag of
/// the *current* installation. One target per class, stored on the class itself, so a
/// reinstall — with a new context or after an uninstall — redirects code that was
/// added earlier instead of adding it twice.
///
/// Reading the current installation is lock-free (it is on the path of every
/// intercepted call); each installation ever set stays alive with the target, so a
/// reader never sees one freed.
final class ReportingTarget: Sendable {
    /// One installation's reporting parameters; immutable.
    final class Current: Sendable {
        let context: InteractionContext
        let flag: MethodWrapper.EnabledFlag
        let capturedBy: String

        init(context: InteractionContext, flag: MethodWrapper.EnabledFlag, capturedBy: String) {
            self.context = context
            self.flag = flag
            self.capturedBy = capturedBy
        }

        /// Whether calls should be recorded at all right now.
        var isRecording: Bool { flag.isOn && context.isEnabled }
    }

    private let pointer: Atomic<Unmanaged<Current>>
    private let history: Mutex<[Current]>
    private static let key = AssociationKey("AutoTrackHooks.reportingTarget")
    private static let creation = Mutex<Void>(())

    private init(_ first: Current) {
        pointer = Atomic(Unmanaged.passUnretained(first))
        history = Mutex([first])
    }

    /// The installation calls report to now.
    var current: Current { pointer.load(ordering: .acquiring).takeUnretainedValue() }

    /// Whether calls should be recorded now, read without reference counting.
    var isRecording: Bool { pointer.load(ordering: .acquiring)._withUnsafeGuaranteedRef { $0.isRecording } }

    /// The target of `cls`, pointed at `current` (created on first use).
    static func target(on cls: RuntimeClass, current: Current) -> ReportingTarget {
        creation.withLock { _ in
            if let existing = cls.runtime.associatedObject(for: key, on: cls) as? ReportingTarget {
                existing.history.withLock { $0.append(current) }
                existing.pointer.store(Unmanaged.passUnretained(current), ordering: .releasing)
                return existing
            }
            let created = ReportingTarget(current)
            cls.runtime.setAssociatedObject(created, for: key, on: cls)
            return created
        }
    }
}

/// A method entity filled in once, just after the closure that reads it was made and
/// before that closure can run (publication goes through the runtime's lock and the
/// release/acquire of the implementation pointer).
final class MethodSlot: @unchecked Sendable {
    // Safe: written once before the reading implementation is installed; read-only
    // after. Unowned without counting: the runtime keeps every method alive.
    unowned(unsafe) var method: RuntimeMethod?
}

/// Creates a class the hooks need (a tracker, a proxy) once per runtime, even when
/// several threads install at the same time.
enum HookClasses {
    private static let creation = Mutex<Void>(())

    /// The registered class named `name`, defined by `define` if it does not exist yet.
    static func named(_ name: String, in runtime: Runtime, define: () throws(RuntimeError) -> RuntimeClass) throws(HookError) -> RuntimeClass {
        try creation.withLock { (_: inout Void) throws(HookError) -> RuntimeClass in
            if let existing = runtime.lookUpClass(name) { return existing }
            do {
                return try define()
            } catch {
                throw .runtimeRefused("defining \(name): \(error)")
            }
        }
    }
}
