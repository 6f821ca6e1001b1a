/// AutoTrackInterception: `HookError`, `Interceptor` appear in this file's public API.
public import AutoTrackInterception
/// AutoTrackMethodWrapping: `OriginalImplementation` appears in this file's public API.
public import AutoTrackMethodWrapping
import AutoTrackModelBackend
import AutoTrackProperties
/// AutoTrackReferenceUI: `GestureRecognizerObject` appears in this file's public API.
public import AutoTrackReferenceUI
/// AutoTrackRuntime: `RuntimeObject`, `Selector` appear in this file's public API.
public import AutoTrackRuntime
import AutoTrackLocking

/// The tracking target gesture hooks attach: one per recognizer, first in its target
/// list, so it records before any app target runs and exactly once per recognition —
/// a tap when it ends, a long press when it begins.
///
/// A hook calls ``attach(to:interceptor:)`` once the recognizer has its app target (at
/// `initWithTarget:action:`, `addTarget:action:` or `addGestureRecognizer:`), and
/// ``revive(in:interceptor:)`` when it installs, so recognizers made under an earlier
/// installation report to the new one.
public enum GestureTracking {
    /// The tracking target's action.
    public static let action = Selector("autotrack_gestureRecognized:")
    private static let trackerKey = AssociationKey("AutoTrackHooks.gestureTracker")
    private static let registryKey = "AutoTrackHooks.gestureTrackers"

    /// The tracker class of `runtime`, created on first use.
    static func trackerClass(in runtime: Runtime) throws(HookError) -> RuntimeClass {
        try HookClasses.named("AutoTrackGestureTracker", in: runtime) { () throws -> RuntimeClass in
            try runtime.defineClass("AutoTrackGestureTracker", methods: [
                (action, "v@:@", Implementation("-[AutoTrackGestureTracker autotrack_gestureRecognized:]") { message in
                    guard let tracker = message.receiver as? Tracker,
                          let recognizer = message.arguments.first?.object as? GestureRecognizerObject else { return .void }
                    tracker.recognized(recognizer)
                    return .void
                }),
            ])
        }
    }

    /// The tracker object: a runtime object reporting to the current installation.
    final class Tracker: RuntimeObject, @unchecked Sendable {
        // Safe: the interceptor it reports to is behind a mutex; the rest is immutable.
        let interceptor: Locked<Interceptor>

        init(class cls: RuntimeClass, interceptor: Interceptor) {
            self.interceptor = Locked(interceptor)
            super.init(instanceOf: cls)
        }

        var isActive: Bool { interceptor.withLock { $0.hookSwitch.isOn } }

        func recognized(_ recognizer: GestureRecognizerObject) {
            let interceptor = interceptor.withLock { $0 }
            // The tracker has no original of its own: the recognizer calls the app's
            // targets itself. The combinator still decides and records.
            interceptor.record { try GestureTracking.click(recognizedBy: recognizer, reportedTo: self, interceptor: interceptor) }
        }
    }

    /// What one call of a tracking target's action (`tracker`'s) is: a click when a tap
    /// ends or a long press begins on a recognizer that still has an app target (one
    /// that is no tracking target), named after that target's action; no interaction
    /// for a recognizer left with tracking targets only (the gesture runs no app code);
    /// the other states deduplicated, and recognizers other than taps and long presses
    /// filtered. Hooks whose tracking targets are objects of their own (native hooks)
    /// use it as the package's tracker does.
    package static func click(
        recognizedBy recognizer: GestureRecognizerObject, reportedTo tracker: RuntimeObject, interceptor: Interceptor
    ) throws -> Interaction? {
        guard recognizer.kind == .tap || recognizer.kind == .longPress else { throw CaptureSkip.filtered }
        let isAppPair = { (pair: TargetAction) in pair.action != action && pair.target !== tracker }
        guard recognizer.targets.contains(where: { isAppPair($0) && $0.target != nil }) else { return nil }
        let trigger: GestureState = recognizer.kind == .longPress ? .began : .ended
        guard recognizer.state == trigger else { throw CaptureSkip.deduplicated }
        guard let view = recognizer.view else { throw ReferenceHostCapture.Failure.unexpectedReceiver }
        return try ReferenceHostCapture.gestureClick(on: view, recognizer: recognizer, action: recognizer.targets.first(where: isAppPair)?.action.name, interceptor: interceptor)
    }

    /// Attaches a tracking target to a tap or long-press recognizer once (other kinds
    /// are left alone), reporting to `interceptor`. The target is kept alive by the
    /// recognizer (an associated object), since recognizers hold targets weakly. A
    /// recognizer whose target belongs to a removed installation is pointed at this one.
    public static func attach(to recognizer: GestureRecognizerObject, interceptor: Interceptor) throws {
        guard recognizer.kind == .tap || recognizer.kind == .longPress else { return }
        let runtime = recognizer.host.runtime
        if let existing = runtime.associatedObject(for: trackerKey, on: recognizer) as? Tracker {
            if !existing.isActive { existing.interceptor.withLock { $0 = interceptor } }
            return
        }
        let tracker = Tracker(class: try trackerClass(in: runtime), interceptor: interceptor)
        WeakRegistry<Tracker>.named(registryKey, in: runtime).note(tracker)
        runtime.setAssociatedObject(tracker, for: trackerKey, on: recognizer)
        recognizer.insertTargetFirst(tracker, action: action)
    }

    /// The wrapper of a method through which recognizers get their app targets
    /// (`initWithTarget:action:`, `addTarget:action:`, `addGestureRecognizer:`): the
    /// original runs first, with the caller's arguments; then, while the installation
    /// is on, the recognizer `recognizer` finds in the message gets its tracking target.
    public static func attachingAfter(
        _ original: OriginalImplementation<Implementation>, name: String, interceptor: Interceptor,
        recognizer: @escaping @Sendable (Message) -> GestureRecognizerObject?
    ) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            try interceptor.forward(original.call(message), then: { result in
                if interceptor.hookSwitch.isOn, let recognizer = recognizer(message) {
                    try attach(to: recognizer, interceptor: interceptor)
                }
                return result
            })
        }
    }

    /// Points every tracking target of `runtime` whose installation was removed at
    /// `interceptor`: recognizers made before a reinstall are clicks again.
    public static func revive(in runtime: Runtime, interceptor: Interceptor) {
        for tracker in WeakRegistry<Tracker>.named(registryKey, in: runtime).live where !tracker.isActive {
            tracker.interceptor.withLock { $0 = interceptor }
        }
    }
}
