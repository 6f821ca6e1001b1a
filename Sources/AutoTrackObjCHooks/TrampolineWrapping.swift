import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackObjCBackend

/// What every real-runtime hook's installation shares: `MethodWrapper` around one method,
/// the replacement a trampoline built from the original and the installation's
/// interceptor, and no trampoline left a typed error (the original stays in place).
enum TrampolineWrapping {
    /// Installs a wrapper around `selector` of `cls` (its metaclass with `isClassMethod`).
    /// `makeWrapper` gets the original implementation and the installation's
    /// interceptor and returns the trampoline, or `nil` when none is left.
    static func install(
        name: String, cls: ObjCClass, selector: String, isClassMethod: Bool = false, context: InteractionContext,
        makeWrapper: (_ original: ObjCImplementation, _ interceptor: Interceptor) -> ObjCImplementation?
    ) throws(HookError) -> HookHandle {
        var failure: HookError?
        let handle = try MethodWrapper.install(
            name: name, runtime: ObjCRuntime.shared, cls: cls, selector: selector, isClassMethod: isClassMethod
        ) { original, hookSwitch in
            guard let wrapper = makeWrapper(original, Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: name)) else {
                failure = .methodNotAdded(className: cls.description, selector: "\(isClassMethod ? "+" : "-")\(selector) (no trampoline left)")
                return original
            }
            return wrapper
        }
        if let failure { throw failure }
        return handle
    }
}
