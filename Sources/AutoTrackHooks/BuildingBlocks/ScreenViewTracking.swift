/// AutoTrackInterception: `HookError`, `HookHandle`, `InteractionContext`, `Interceptor` appear in this file's public API.
public import AutoTrackInterception
/// AutoTrackMethodWrapping: `OriginalImplementation` appears in this file's public API.
public import AutoTrackMethodWrapping
import AutoTrackModelBackend
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
/// AutoTrackRuntime: `Implementation`, `RuntimeClass` appear in this file's public API.
public import AutoTrackRuntime
import AutoTrackLocking

/// The wrappers every screen-view hook on the reference host needs, built on
/// ``ReferenceHostCapture``'s screen rules.
public enum ScreenViewTracking {
    /// The wrapper of a `viewDidAppear:` (of `UIViewController` or of an app class that
    /// overrides it): records the screen view — once per appearance, however many
    /// classes of the controller's hierarchy are wrapped — then runs the original.
    public static func appearance(_ original: OriginalImplementation<Implementation>, name: String, interceptor: Interceptor) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            try interceptor.intercept(dedupe: .reentrancy(ReferenceHostCapture.appearanceKey(message.receiver)), capture: {
                guard let controller = message.receiver as? ViewControllerObject else { throw ReferenceHostCapture.Failure.unexpectedReceiver }
                let animated = message.arguments.first.flatMap { if case .bool(let value) = $0 { value } else { nil } }
                return try ReferenceHostCapture.appearance(of: controller, animated: animated, interceptor: interceptor)
            }, original: original.call(message))
        }
    }

    /// The wrapper of `viewDidDisappear:`: runs the original, then notes that the
    /// controller left, so that its next appearance is a screen view again — noted
    /// whether or not the installation is on (a pass-through under another library's
    /// hook still sees the screen go, and a reinstall must not take its return for a
    /// duplicate).
    public static func disappearance(_ original: OriginalImplementation<Implementation>, name: String, interceptor: Interceptor) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            try interceptor.forward(original.call(message), then: { result in
                ReferenceHostCapture.noteDisappeared(message.receiver)
                // Its page time ends (a tracker resumes the page seen again).
                if interceptor.isRecording, let controller = message.receiver as? ViewControllerObject {
                    interceptor.context.screenDisappeared(controller)
                }
                return result
            })
        }
    }

    /// Records the visible screen whenever `host` returns from the background (UIKit
    /// sends no `viewDidAppear:` then), while `interceptor` records.
    public static func recordOnForeground(of host: ReferenceHost, interceptor: Interceptor) {
        host.addObserver(for: .willEnterForeground) { [weak host] _ in
            guard let host else { return }
            interceptor.record { foregroundScreenView(on: host, interceptor: interceptor) }
        }
    }

    /// The screen view of `host`'s visible screen on its return to the foreground, or
    /// `nil` when nothing is on screen. Native hooks' foreground calls use it too.
    package static func foregroundScreenView(on host: ReferenceHost, interceptor: Interceptor) -> Interaction? {
        guard let visible = host.visibleController else { return nil }
        return ReferenceHostCapture.screenView(of: visible, animated: nil, reason: .foreground, interceptor: interceptor)
    }

    /// The wrappers of app classes that override `viewDidAppear:` — so a screen view
    /// is recorded before the override's own code, and recorded at all when the
    /// override never calls super. Classes that exist at install are wrapped by
    /// ``wrapExisting()``; later ones at their first `viewDidLoad`
    /// (``wrappingOnLoad(_:interceptor:)``).
    public final class AppearanceOverrides: Sendable {
        private let wrapped = PerClassHandles()
        private let base: RuntimeClass
        private let name: String
        private let context: InteractionContext

        /// Wrappers of overrides below `base` (`UIViewController`), installed under
        /// `name`, reporting to `context`.
        public init(base: RuntimeClass, name: String, context: InteractionContext) {
            self.base = base
            self.name = name
            self.context = context
        }

        /// Wraps every override of `viewDidAppear:` from `real` up to the base class.
        public func wrap(_ real: RuntimeClass) throws(HookError) {
            var current: RuntimeClass? = real
            var steps = 0
            while let cls = current, cls !== base, steps < 64 {
                steps += 1
                current = cls.superclass
                guard cls.runtime.ownMethods(of: cls).contains(where: { $0.selector == "viewDidAppear:" }) else { continue }
                if wrapped.isInstalled(cls.name) { continue }
                let name = name
                let context = context
                let handle = try MethodWrapper.install(
                    name: "\(name)/override", runtime: cls.runtime, cls: cls, selector: "viewDidAppear:"
                ) { original, hookSwitch in
                    ScreenViewTracking.appearance(
                        original, name: "\(name) -[\(cls.name) viewDidAppear:]",
                        interceptor: Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name))
                }
                wrapped.keep(handle, for: cls.name)
            }
        }

        /// Wraps the overrides of every controller class that exists now
        /// (`objc_getClassList`).
        public func wrapExisting() {
            for candidate in base.runtime.subclasses(of: base) {
                try? wrap(candidate)
            }
        }

        /// The wrapper of `viewDidLoad`: wraps the loading controller's overrides
        /// (fail-open), then runs the original.
        public func wrappingOnLoad(_ original: OriginalImplementation<Implementation>, interceptor: Interceptor) -> Implementation {
            Implementation("\(name) -[UIViewController viewDidLoad]") { message throws(RuntimeError) in
                try interceptor.forward(original.call(message), preparing: { message in
                    try self.wrap(message.receiver.realClass)
                    return message
                })
            }
        }

        /// A handle that uninstalls every override wrapper.
        public var handle: HookHandle { wrapped.handle(named: "\(name)/overrides") }
    }
}
