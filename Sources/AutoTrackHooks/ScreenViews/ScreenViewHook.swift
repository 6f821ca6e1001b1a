public import AutoTrackInterception
import AutoTrackProperties
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

    /// Wraps `viewDidAppear:` and `viewDidDisappear:` and observes foregrounding.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard let cls = host.runtime.lookUpClass("UIViewController") else { throw .missingTarget("UIViewController") }
        let name = self.name
        let runtime = host.runtime
        let foregroundFlag = MethodWrapper.EnabledFlag()
        let handle = try MethodWrapper.installGroup(name: name, runtime: runtime) { () throws(HookError) -> [HookHandle] in
            let appear = try MethodWrapper.install(name: name, runtime: runtime, cls: cls, selector: "viewDidAppear:") { original, flag in
                Implementation("\(name) -[UIViewController viewDidAppear:]") { message throws(RuntimeError) in
                    if flag.isOn, let controller = message.receiver as? ViewControllerObject {
                        Self.appeared(controller, animated: message.arguments.first.flatMap { if case .bool(let b) = $0 { b } else { nil } },
                                      reason: "appear", context: context, capturedBy: name)
                    }
                    return try original.body(message)
                }
            }
            let disappear = try MethodWrapper.install(name: name, runtime: runtime, cls: cls, selector: "viewDidDisappear:") { original, _ in
                Implementation("\(name) -[UIViewController viewDidDisappear:]") { message throws(RuntimeError) in
                    message.runtime.setAssociatedObject(nil, for: Self.shownKey, on: message.receiver)
                    return try original.body(message)
                }
            }
            return [appear, disappear]
        }
        host.addObserver(for: .willEnterForeground) { [weak host] _ in
            guard foregroundFlag.isOn, handle.state == .installed, let host, let visible = host.visibleController else { return }
            Self.record(visible, animated: nil, reason: "foreground", context: context, capturedBy: name)
        }
        return handle
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
