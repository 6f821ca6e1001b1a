/// AutoTrackInterception: `HookError`, `HookHandle`, `InteractionContext`, `ScreenViewHook` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackProperties
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
import AutoTrackRuntime
import Synchronization

/// Screen views at `-[UIViewController viewDidAppear:]`, recorded before the original
/// runs, once per appearance:
///
/// - system containers and ignored screens (and their subclasses) are skipped (seed
///   002's blacklist, ``AutoTrackProperties/TrackingExclusions``);
/// - a child contained in an ordinary screen is not a screen of its own (its parent is);
///   children of navigation, tab and page containers are;
/// - a controller that appears again without having disappeared — the top of a
///   navigation stack after a cancelled swipe back — is not recorded twice:
///   `viewDidDisappear:` is wrapped too, to know;
/// - returning from the background records the visible screen again (seed 002's open
///   problem), since UIKit sends no `viewDidAppear:` then.
public final class ScreenViewAppearHook: ScreenViewHook {
    /// `screen-view/view-did-appear`.
    public let name = "screen-view/view-did-appear"
    static let shownKey = AssociationKey("AutoTrackHooks.screenShown")

    /// Creates the hook.
    public init() {}

    final class Shown: Sendable {}

    /// Wraps `viewDidAppear:` and `viewDidDisappear:` of `UIViewController`, and
    /// `viewDidAppear:` of every app controller class that overrides it — those that
    /// exist at install time, and later ones at their first `viewDidLoad` — so the
    /// screen view is recorded before the override's own code; observes foregrounding.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let cls = host.runtime.lookUpClass("UIViewController") else { throw .missingTarget("UIViewController") }
        let name = self.name
        let runtime = host.runtime
        let overrides = Overrides()
        let group = try MethodWrapper.installGroup(name: name, runtime: runtime) { () throws(HookError) -> [HookHandle] in
            let appear = try MethodWrapper.install(name: name, runtime: runtime, cls: cls, selector: "viewDidAppear:") { original, flag in
                Self.appearanceWrapper(name: "\(name) -[UIViewController viewDidAppear:]", original: original, flag: flag, context: context, capturedBy: name)
            }
            let disappear = try MethodWrapper.install(name: name, runtime: runtime, cls: cls, selector: "viewDidDisappear:") { original, _ in
                Implementation("\(name) -[UIViewController viewDidDisappear:]") { message throws(RuntimeError) in
                    message.runtime.setAssociatedObject(nil, for: Self.shownKey, on: message.receiver)
                    return try original.body(message)
                }
            }
            let load = try MethodWrapper.install(name: name, runtime: runtime, cls: cls, selector: "viewDidLoad") { original, flag in
                Implementation("\(name) -[UIViewController viewDidLoad]") { message throws(RuntimeError) in
                    if flag.isOn {
                        _ = context.failOpen { () throws -> Void? in
                            try overrides.wrapOverrides(of: message.receiver.realClass, below: cls, name: name, context: context)
                            return nil
                        }
                    }
                    return try original.body(message)
                }
            }
            return [appear, disappear, load]
        }
        // Classes that exist already (objc_getClassList): wrap their overrides now, so
        // controllers loaded before the install are recorded first too.
        for className in runtime.classNames {
            guard let candidate = runtime.lookUpClass(className), candidate !== cls, candidate.isSubclass(of: cls) else { continue }
            _ = context.failOpen { () throws -> Void? in
                try overrides.wrapOverrides(of: candidate, below: cls, name: name, context: context)
                return nil
            }
        }
        let handle = HookHandle(name: name) { () throws(HookError) -> HookState in
            try overrides.uninstallAll()
            try group.uninstall()
            return group.state
        }
        host.addObserver(for: .willEnterForeground) { [weak host] _ in
            guard handle.state == .installed, group.state == .installed, let host, let visible = host.visibleController else { return }
            Self.record(visible, animated: nil, reason: "foreground", context: context, capturedBy: name)
        }
        return handle
    }

    /// The wrappers put on app classes that override `viewDidAppear:`.
    final class Overrides: Sendable {
        let handles = Mutex<[String: HookHandle]>([:])

        func wrapOverrides(of real: RuntimeClass, below base: RuntimeClass, name: String, context: InteractionContext) throws {
            var current: RuntimeClass? = real
            var steps = 0
            while let cls = current, cls !== base, steps < 64 {
                steps += 1
                current = cls.superclass
                guard cls.runtime.ownMethods(of: cls).contains(where: { $0.selector == "viewDidAppear:" }) else { continue }
                if let existing = handles.withLock({ $0[cls.name] }), existing.state == .installed { continue }
                let handle = try MethodWrapper.install(
                    name: "\(name)/override", runtime: cls.runtime, cls: cls, selector: "viewDidAppear:"
                ) { original, flag in
                    ScreenViewAppearHook.appearanceWrapper(
                        name: "\(name) -[\(cls.name) viewDidAppear:]", original: original, flag: flag, context: context, capturedBy: name)
                }
                handles.withLock { $0[cls.name] = handle }
            }
        }

        func uninstallAll() throws(HookError) {
            for (_, handle) in handles.withLock({ $0 }) { try handle.uninstall() }
            handles.withLock { $0.removeAll() }
        }
    }

    /// Records the screen view — once per appearance, however many classes of the
    /// controller's hierarchy are wrapped — then runs the original.
    static func appearanceWrapper(
        name: String, original: Implementation, flag: MethodWrapper.EnabledFlag, context: InteractionContext, capturedBy: String
    ) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            let key = InteractionKey("viewDidAppear", objects: [message.receiver])
            return try context.reentrancy.withKey(key) { (isOutermost: Bool) throws(RuntimeError) -> RuntimeValue in
                if isOutermost, flag.isOn, let controller = message.receiver as? ViewControllerObject {
                    let animated = message.arguments.first.flatMap { if case .bool(let value) = $0 { value } else { nil } }
                    appeared(controller, animated: animated, reason: "appear", context: context, capturedBy: capturedBy)
                }
                return try original.body(message)
            }
        }
    }

    static func appeared(_ controller: ViewControllerObject, animated: Bool?, reason: String, context: InteractionContext, capturedBy: String) {
        let runtime = controller.host.runtime
        if runtime.associatedObject(for: shownKey, on: controller) != nil {
            context.count(\.deduplicated) // appeared again without disappearing
            return
        }
        runtime.setAssociatedObject(Shown(), for: shownKey, on: controller)
        if let parent = controller.parent, parent.kind == .plain, !context.exclusions.ignores(screen: parent) {
            context.count(\.filtered) // a contained child: its parent is the screen
            return
        }
        record(controller, animated: animated, reason: reason, context: context, capturedBy: capturedBy)
    }

    static func record(_ controller: ViewControllerObject, animated: Bool?, reason: String, context: InteractionContext, capturedBy: String) {
        let interaction: Interaction? = context.failOpen { () throws -> Interaction? in
            Interaction(
                point: .screenView, element: nil, screen: context.snapshot(of: controller),
                details: InteractionDetails(animated: animated, screenViewReason: reason), capturedBy: capturedBy)
        }
        if let interaction { context.emit(interaction) }
    }
}
