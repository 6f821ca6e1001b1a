/// AutoTrackInterception: `HookError`, `HookHandle`, `InteractionContext`, `Interceptor` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackLocking
/// AutoTrackMethodWrapping: `OriginalImplementation` appears in this file's public API.
public import AutoTrackMethodWrapping
import AutoTrackModelBackend
/// AutoTrackRuntime: `Implementation`, `Runtime`, `RuntimeClass`, `RuntimeObject`, `Selector` appear in this file's public API.
public import AutoTrackRuntime

/// Wrappers of one delegate method on the classes of the delegates an object is given
/// (`-[UIApplication setDelegate:]`, `-[UNUserNotificationCenter setDelegate:]`): the
/// class whose own method answers — the delegate's class or the nearest ancestor that
/// implements it — is wrapped once, before the setter runs. A delegate that does not
/// implement the method gets none: UIKit asks `respondsToSelector:` and must keep
/// hearing the app's answer.
public final class DelegateMethodWrappers: Sendable {
    /// Makes the wrapper of the method `original` of `cls`, reporting through
    /// `interceptor`.
    public typealias Wrapper = @Sendable (_ original: OriginalImplementation<Implementation>, _ cls: RuntimeClass, _ interceptor: Interceptor) -> Implementation

    private let wrapped = PerClassHandles()
    private let selector: Selector
    private let name: String
    private let currentContext: Locked<InteractionContext>
    private let wrapper: Wrapper

    /// Wrappers of `selector`, installed under `name`, reporting to `context`.
    public init(of selector: Selector, name: String, context: InteractionContext, wrapper: @escaping Wrapper) {
        self.selector = selector
        self.name = name
        currentContext = Locked(context)
        self.wrapper = wrapper
    }

    /// The wrappers of the hook `name` in `runtime`, made once and shared by every
    /// installation of it: a `setDelegate:` wrapper an install re-enables (another
    /// library stacked on it kept it in place) reaches the same wrappers as the install
    /// that made it, so an uninstall removes every class either wrapped. Reports to
    /// `context` from now on.
    public static func shared(
        of selector: Selector, name: String, in runtime: Runtime, context: InteractionContext, wrapper: @escaping Wrapper
    ) -> DelegateMethodWrappers {
        let key = AssociationKey("AutoTrackHooks.DelegateMethodWrappers.\(name)")
        if let existing = runtime.associatedObject(for: key, on: runtime.rootClass) as? DelegateMethodWrappers {
            existing.currentContext.withLock { $0 = context }
            return existing
        }
        let made = DelegateMethodWrappers(of: selector, name: name, context: context, wrapper: wrapper)
        runtime.setAssociatedObject(made, for: key, on: runtime.rootClass)
        return made
    }

    /// Wraps the method of `delegate`'s class (or of the ancestor that implements it),
    /// unless it is wrapped already or not implemented.
    public func wrap(classOf delegate: RuntimeObject) throws(HookError) {
        let runtime = delegate.realClass.runtime
        let (selector, wrapper, context, name) = (selector, wrapper, currentContext.withLock { $0 }, name)
        var current: RuntimeClass? = delegate.realClass
        var steps = 0
        while let cls = current, steps < 64 {
            steps += 1
            current = cls.superclass
            guard runtime.ownMethods(of: cls).contains(where: { $0.selector == selector }) else { continue }
            if wrapped.isInstalled(cls.name) { return }
            let handle = try MethodWrapper.install(name: "\(name)/delegate", runtime: runtime, cls: cls, selector: selector.name) { original, hookSwitch in
                wrapper(original, cls, Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name))
            }
            wrapped.keep(handle, for: cls.name)
            return
        }
    }

    /// The wrapper of a `setDelegate:` (`name`): wraps the new delegate's method
    /// (fail-open), then runs the original with the app's own delegate.
    public func wrappingSetter(_ original: OriginalImplementation<Implementation>, name: String, interceptor: Interceptor) -> Implementation {
        Implementation(name) { message throws(RuntimeError) in
            try interceptor.forward(original.call(message), preparing: { message in
                if let delegate = message.arguments.first?.object { try self.wrap(classOf: delegate) }
                return message
            })
        }
    }

    /// A handle that uninstalls every delegate wrapper.
    public var handle: HookHandle { wrapped.handle(named: "\(name)/delegates") }
}
