/// AutoTrackInterception: `HookError`, `HookHandle`, `InteractionContext` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackEvents
import AutoTrackObjCBackend
import AutoTrackProperties
import AutoTrackLocking

/// Screen views on the real Objective-C runtime: `viewDidAppear:` of the framework's
/// view controller class and of every app class that overrides it, so a screen view is
/// recorded before the override's own code — and recorded at all when the override
/// never calls `super`. Classes that exist at install are found with
/// `objc_getClassList`; classes registered later are wrapped at their first
/// `viewDidLoad`. Built like ``ObjCDelegateSelectionHook``: `MethodWrapper` for every
/// method, the combinator for every call (one screen view per appearance, however many
/// wrapped levels it passes), trampolines as IMPs.
///
/// ```swift
/// let handle = try ObjCScreenViewHook().install(context: context)
/// ```
public struct ObjCScreenViewHook: Sendable {
    /// The framework's view controller class.
    public let baseClassName: String
    /// Whether app classes' overrides are wrapped too. Turned off only by the
    /// conformance kit's deliberately broken variant, which wraps the base class alone
    /// and so misses every override that does not call `super`.
    package var wrapsOverrides = true

    /// Creates the hook.
    public init(baseClassName: String = "ATViewController") {
        self.baseClassName = baseClassName
    }

    /// The hook's name, stamped on its interactions.
    public var name: String { wrapsOverrides ? "objc-screen-view" : "objc-screen-view-base-only" }

    /// Installs the hook; idempotent. Uninstalling restores the base class's methods and
    /// turns the override wrappers into pass-throughs.
    /// - Throws: `HookError` when the base class or its methods are missing, or no
    ///   trampoline is left.
    public func install(context: InteractionContext) throws(HookError) -> HookHandle {
        let runtime = ObjCRuntime.shared
        guard let base = runtime.lookUpClass(named: baseClassName) else { throw .classNotFound(className: baseClassName) }
        let name = self.name, wrapsOverrides = self.wrapsOverrides
        let wrapped = WrappedClasses()
        // viewDidLoad: wraps the loading controller's overrides, then runs the original.
        let loading = try TrampolineWrapping.install(name: name, cls: base, selector: "viewDidLoad", context: context) { original, interceptor in
            ObjCTrampolines.make { call in
                if interceptor.hookSwitch.isOn, wrapsOverrides {
                    Self.wrapOverrides(of: call.receiverClass, base: base, interceptor: interceptor, wrapped: wrapped)
                }
                call.call(original)
            }
        }
        let appearing = try MethodWrapper.install(name: name, runtime: runtime, cls: base, selector: "viewDidAppear:") { original, hookSwitch in
            Self.appearance(original, interceptor: Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)) ?? original
        }
        // The classes that exist now.
        let interceptor = Interceptor(context: context, hookSwitch: HookSwitch(isOn: true), capturedBy: name)
        for cls in runtime.allClasses where wrapsOverrides && cls != base && runtime.isSubclass(cls, of: base) {
            Self.wrapOverrides(of: cls, base: base, interceptor: interceptor, wrapped: wrapped)
        }
        return HookHandle(name: name) { () throws(HookError) -> HookState in
            try appearing.uninstall()
            try loading.uninstall()
            for handle in wrapped.handles.withLock({ $0.values }) { try handle.uninstall() }
            return appearing.state == .passThrough || loading.state == .passThrough ? .passThrough : .uninstalled
        }
    }

    /// The override wrappers installed, by class.
    final class WrappedClasses: Sendable {
        let handles = Locked<[ObjCClass: HookHandle]>([:])
    }

    /// Wraps `viewDidAppear:` of every class from `cls` up to (not including) `base`
    /// that overrides it.
    static func wrapOverrides(of cls: ObjCClass, base: ObjCClass, interceptor: Interceptor, wrapped: WrappedClasses) {
        let runtime = ObjCRuntime.shared
        var current: ObjCClass? = cls
        var steps = 0
        while let candidate = current, candidate != base, steps < 64 {
            steps += 1
            current = runtime.superclass(of: candidate)
            guard runtime.ownMethod(named: "viewDidAppear:", in: candidate) != nil,
                  wrapped.handles.withLock({ $0[candidate] }) == nil
            else { continue }
            // Each override wrapper records under its own installation's switch, which an
            // uninstall turns off and a reinstall back on.
            let handle = try? MethodWrapper.install(name: "objc-screen-view/override", runtime: runtime, cls: candidate, selector: "viewDidAppear:") {
                original, hookSwitch in
                appearance(original, interceptor: Interceptor(context: interceptor.context, hookSwitch: hookSwitch, capturedBy: interceptor.capturedBy))
                    ?? original
            }
            if let handle { wrapped.handles.withLock { $0[candidate] = handle } }
        }
    }

    /// A `viewDidAppear:` wrapper: one screen view per appearance (the outermost
    /// wrapper records; the ones `super` reaches are the same appearance), then the
    /// original, with the caller's `animated`.
    static func appearance(_ original: ObjCImplementation, interceptor: Interceptor) -> ObjCImplementation? {
        ObjCTrampolines.make { call in
            interceptor.intercept(dedupe: .reentrancy(InteractionKey("objc-appear", objects: [], numbers: [Int(bitPattern: call.receiver)]))) {
                let screen = ObjCRuntime.shared.reportedClassName(ofObjectAt: call.receiver)
                return Interaction(
                    point: .screenView, element: nil,
                    screen: ScreenSnapshot(typeName: screen, typeHierarchy: [screen], properties: ["$screen_name": .string(screen)]),
                    details: InteractionDetails(animated: call.first & 0xFF != 0, screenViewReason: .appear), capturedBy: interceptor.capturedBy)
            } original: {
                _ = call.call(original)
            }
        }
    }
}
