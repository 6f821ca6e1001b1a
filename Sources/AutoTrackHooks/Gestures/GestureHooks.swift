/// AutoTrackInterception: `GestureHook`, `HookError`, `HookHandle`, `InteractionContext` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackProperties
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
import AutoTrackRuntime
import Synchronization

/// The tracking target both gesture strategies attach: one per recognizer, first in
/// its target list, so it records before any app target runs and exactly once per
/// recognition — a tap when it ends, a long press when it begins.
enum GestureTracking {
    static let action = Selector("autotrack_gestureRecognized:")
    private static let trackerKey = AssociationKey("AutoTrackHooks.gestureTracker")

    /// The tracker class of `runtime`, created on first use.
    static func trackerClass(in runtime: Runtime) throws(HookError) -> RuntimeClass {
        try HookClasses.named("AutoTrackGestureTracker", in: runtime) { () throws(RuntimeError) -> RuntimeClass in
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

    /// The tracker object: a runtime object that remembers which context to report to.
    final class Tracker: RuntimeObject, @unchecked Sendable {
        // Safe: the installation it reports for is behind a mutex; the rest is
        // immutable.
        struct Installation: @unchecked Sendable {
            // Safe: the values are thread-safe classes and a string; only swapped whole.
            let context: InteractionContext
            let flag: MethodWrapper.EnabledFlag
            let capturedBy: String
        }
        let installation: Mutex<Installation>

        init(class cls: RuntimeClass, installation: Installation) {
            self.installation = Mutex(installation)
            super.init(instanceOf: cls)
        }

        var isActive: Bool { installation.withLock { $0.flag.isOn } }

        func recognized(_ recognizer: GestureRecognizerObject) {
            let current = installation.withLock { $0 }
            let context = current.context
            let capturedBy = current.capturedBy
            guard current.flag.isOn else { return }
            // No app target left: the tap runs no app code, so it is not a click.
            guard recognizer.targets.contains(where: { $0.action != action && $0.target != nil }) else { return }
            let trigger: GestureState = recognizer.kind == .longPress ? .began : .ended
            guard recognizer.state == trigger else {
                context.count(\.deduplicated)
                return
            }
            let interaction: Interaction? = context.failOpen { () throws -> Interaction? in
                guard let view = recognizer.view else { throw CaptureFailure.unexpectedReceiver }
                return Interaction(
                    point: .gesture,
                    element: context.snapshot(of: view),
                    screen: HookScreens.screen(for: view, context: context).map(context.snapshot(of:)),
                    details: InteractionDetails(
                        actionName: recognizer.targets.first { $0.action != action }?.action.name,
                        gestureKind: recognizer.kind.rawValue),
                    capturedBy: capturedBy)
            }
            if let interaction { context.emit(interaction) }
        }
    }

    /// Attaches a tracker to a tap or long-press recognizer once; other kinds are left
    /// alone. The tracker is kept alive by the recognizer (an associated object), since
    /// recognizers hold targets weakly.
    static func attach(to recognizer: GestureRecognizerObject, context: InteractionContext, flag: MethodWrapper.EnabledFlag, capturedBy: String) throws {
        guard recognizer.kind == .tap || recognizer.kind == .longPress else { return }
        let runtime = recognizer.host.runtime
        let installation = Tracker.Installation(context: context, flag: flag, capturedBy: capturedBy)
        if let existing = runtime.associatedObject(for: trackerKey, on: recognizer) as? Tracker {
            // One tracker per recognizer; a reinstall revives one whose hook was removed.
            if !existing.isActive { existing.installation.withLock { $0 = installation } }
            return
        }
        let tracker = Tracker(class: try trackerClass(in: runtime), installation: installation)
        Trackers.of(runtime).note(tracker)
        runtime.setAssociatedObject(tracker, for: trackerKey, on: recognizer)
        recognizer.insertTargetFirst(tracker, action: action)
    }
}

/// Every tracker attached in a runtime, so that a reinstall can revive those whose
/// hook was removed.
final class Trackers: Sendable {
    struct Entry: @unchecked Sendable {
        // Safe: only touched inside the mutex.
        weak var tracker: GestureTracking.Tracker?
    }
    let entries = Mutex<[Entry]>([])
    private static let key = AssociationKey("AutoTrackHooks.gestureTrackers")
    private static let creation = Mutex<Void>(())

    static func of(_ runtime: Runtime) -> Trackers {
        creation.withLock { _ in
            if let existing = runtime.associatedObject(for: key, on: runtime.rootClass) as? Trackers { return existing }
            let created = Trackers()
            runtime.setAssociatedObject(created, for: key, on: runtime.rootClass)
            return created
        }
    }

    func note(_ tracker: GestureTracking.Tracker) {
        entries.withLock { entries in
            entries.removeAll { $0.tracker == nil }
            entries.append(Entry(tracker: tracker))
        }
    }

    /// Points every inactive tracker at `installation`.
    func revive(_ installation: GestureTracking.Tracker.Installation) {
        for entry in entries.withLock({ $0 }) {
            guard let tracker = entry.tracker, !tracker.isActive else { continue }
            tracker.installation.withLock { $0 = installation }
        }
    }
}

/// Seed 003's point of attack: `initWithTarget:action:` and `addTarget:action:` of
/// `UIGestureRecognizer`. After the original registers the app's pair (with the app's
/// exact arguments), a tracking target is put first in the recognizer's list.
/// Recognizers made with plain `init` (storyboards) are covered at their first
/// `addTarget:action:`.
public final class GestureTargetHook: GestureHook {
    /// `gesture/target-action`.
    public let name = "gesture/target-action"

    /// Creates the hook.
    public init() {}

    /// Wraps `initWithTarget:action:` and `addTarget:action:`.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let cls = host.runtime.lookUpClass("UIGestureRecognizer") else { throw .missingTarget("UIGestureRecognizer") }
        let name = self.name
        let runtime = host.runtime
        let revivingFlag = Mutex<MethodWrapper.EnabledFlag?>(nil)
        let handle = try MethodWrapper.installGroup(name: name, runtime: runtime) { () throws(HookError) -> [HookHandle] in
            try ["initWithTarget:action:", "addTarget:action:"].map { (selector: Selector) throws(HookError) -> HookHandle in
                try MethodWrapper.install(name: name, runtime: runtime, cls: cls, selector: selector) { original, flag in
                    revivingFlag.withLock { $0 = flag }
                    return Implementation("\(name) -[UIGestureRecognizer \(selector)]") { message throws(RuntimeError) in
                        let result = try original.body(message)
                        if flag.isOn, let recognizer = message.receiver as? GestureRecognizerObject {
                            _ = context.failOpen { () throws -> Void? in
                                try GestureTracking.attach(to: recognizer, context: context, flag: flag, capturedBy: name)
                                return nil
                            }
                        }
                        return result
                    }
                }
            }
        }
        if let flag = revivingFlag.withLock({ $0 }) {
            Trackers.of(runtime).revive(.init(context: context, flag: flag, capturedBy: name))
        }
        return handle
    }
}

/// Seed 004's point of attack: `-[UIView addGestureRecognizer:]`. When a tap or
/// long-press recognizer is attached to a view, a tracking target is put first in its
/// list.
public final class AddGestureRecognizerHook: GestureHook {
    /// `gesture/add-recognizer`.
    public let name = "gesture/add-recognizer"

    /// Creates the hook.
    public init() {}

    /// Wraps `UIView addGestureRecognizer:`.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let cls = host.runtime.lookUpClass("UIView") else { throw .missingTarget("UIView") }
        let name = self.name
        let revivingFlag = Mutex<MethodWrapper.EnabledFlag?>(nil)
        let handle = try MethodWrapper.install(name: name, runtime: host.runtime, cls: cls, selector: "addGestureRecognizer:") { original, flag in
            revivingFlag.withLock { $0 = flag }
            return Implementation("\(name) -[UIView addGestureRecognizer:]") { message throws(RuntimeError) in
                let result = try original.body(message)
                if flag.isOn, let recognizer = message.arguments.first?.object as? GestureRecognizerObject {
                    _ = context.failOpen { () throws -> Void? in
                        try GestureTracking.attach(to: recognizer, context: context, flag: flag, capturedBy: name)
                        return nil
                    }
                }
                return result
            }
        }
        if let flag = revivingFlag.withLock({ $0 }) {
            Trackers.of(host.runtime).revive(.init(context: context, flag: flag, capturedBy: name))
        }
        return handle
    }
}
