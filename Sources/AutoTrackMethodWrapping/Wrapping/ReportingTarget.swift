/// AutoTrackInterception: `Interceptor`, `InterceptionDedupe`, `Interaction` appear in this file's public API.
public import AutoTrackInterception
import Synchronization
import AutoTrackLocking

/// Where code a hook leaves behind in the app's classes (tracking methods added to a
/// delegate class, generated subclasses) reports to: the `Interceptor` of the
/// *current* installation. One target per class, stored on the class itself, so a
/// reinstall — with a new context or after an uninstall — redirects code that was
/// added earlier instead of adding it twice.
///
/// Reading the current interceptor is lock-free (it is on the path of every
/// intercepted call); every interceptor ever set stays alive with the target, so a
/// reader never sees one freed.
public final class ReportingTarget: Sendable {
    private let pointer: Atomic<Unmanaged<Interceptor>>
    private let history: Locked<[Interceptor]>
    private static let key = "AutoTrackInterception.reportingTarget"
    private static let creation = Locked<Void>(())

    private init(_ first: Interceptor) {
        pointer = Atomic(Unmanaged.passUnretained(first))
        history = Locked([first])
    }

    /// The interceptor calls report to now.
    public var current: Interceptor { pointer.load(ordering: .acquiring).takeUnretainedValue() }

    /// Whether calls are recorded now, read without reference counting.
    public var isRecording: Bool { pointer.load(ordering: .acquiring)._withUnsafeGuaranteedRef { $0.isRecording } }

    /// The combinator (`Interceptor.intercept(dedupe:capture:original:)`) through
    /// the current interceptor, for code a hook left in the app's classes. While
    /// nothing is recorded — uninstalled, or tracking disabled — the original runs
    /// straight away, without reference counting the interceptor; the skip is counted
    /// as the combinator counts it.
    @inlinable
    public func intercept<Result, Failure: Error>(
        dedupe: @autoclosure () -> InterceptionDedupe = .none,
        capture: (Interceptor) throws -> Interaction?,
        original: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let current = currentUnmanaged
        if current._withUnsafeGuaranteedRef({ !$0.isRecording && $0.context.combinatorSubstitute == nil }) {
            current._withUnsafeGuaranteedRef { $0.countSkip() }
            return try original()
        }
        let interceptor = current.takeUnretainedValue()
        return try interceptor.intercept(dedupe: dedupe()) { try capture(interceptor) } original: { () throws(Failure) -> Result in
            try original()
        }
    }

    @usableFromInline var currentUnmanaged: Unmanaged<Interceptor> { pointer.load(ordering: .acquiring) }

    /// The target of `cls`, pointed at `current` (created on first use).
    public static func target<Runtime: RuntimeOperations>(on cls: Runtime.Class, in runtime: Runtime, current: Interceptor) -> ReportingTarget {
        creation.withLock { _ in
            if let existing = runtime.associatedObject(for: key, onClass: cls) as? ReportingTarget {
                existing.history.withLock { $0.append(current) }
                existing.pointer.store(Unmanaged.passUnretained(current), ordering: .releasing)
                return existing
            }
            let created = ReportingTarget(current)
            runtime.setAssociatedObject(created, for: key, onClass: cls)
            return created
        }
    }
}
