import CAutoTrackHook
/// AutoTrackInterception: `HookError`, `HookHandle`, `HookedMethod`, `InteractionContext`, `InterceptionHook`, `InterceptionPoint` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackLocking
import AutoTrackObjCBackend
import AutoTrackRuntime
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI

/// One hook of a ``NativeHookLibrary``: a hook written in C or Objective-C against the
/// real runtime, as an `InterceptionHook` on a reference host whose dispatch the real
/// runtime decides (`MirroredRuntime`).
///
/// Installing calls the hook's `install` with an installation of its own and the kit's
/// API; every call its wrappers hand to `api->intercept` goes through the package's
/// combinator (`Interceptor`) and the capture code the built-in hooks use, so a native
/// hook records exactly what a Swift hook would. Installing again for the same context
/// takes effect once; for another context it is a
/// `HookError.installedForAnotherContext`. Uninstalling calls the hook's `uninstall`
/// and turns the installation off, so wrappers left in place pass calls through.
public final class NativeHook: InterceptionHook {
    /// The hook's name, from its definition.
    public let name: String
    /// Its interception point.
    public let point: InterceptionPoint
    /// The framework methods it declares.
    public let hookedMethods: [HookedMethod]
    let definition: Definition
    private let installations = Locked<[ObjectIdentifier: NativeHookInstallation]>([:])

    /// The C definition, which the library keeps for the process's life.
    struct Definition: @unchecked Sendable {
        // Safe: a hook library's definitions are constant data of a library that is
        // never unloaded (`NativeHookLibrary`); only their function pointers are called.
        let pointer: UnsafePointer<autotrack_hook_definition>
    }

    init(definition pointer: UnsafePointer<autotrack_hook_definition>, index: Int) throws(NativeHookLibraryError) {
        let definition = pointer.pointee
        guard let name = definition.name.map({ String(cString: $0) }), !name.isEmpty else {
            throw .invalidDefinition(index: index, reason: "no name")
        }
        guard let pointName = definition.point.map({ String(cString: $0) }), let point = InterceptionPoint.nativeHookPoints[pointName] else {
            let known = InterceptionPoint.nativeHookPoints.keys.sorted().joined(separator: ", ")
            throw .invalidDefinition(index: index, reason: "\(name): point must be one of \(known)")
        }
        guard definition.install != nil, definition.uninstall != nil else {
            throw .invalidDefinition(index: index, reason: "\(name): install and uninstall are required")
        }
        var methods: [HookedMethod] = []
        if let list = definition.hooked_methods {
            var cursor = 0
            while let entry = list[cursor], cursor < 256 {
                methods.append(try Self.hookedMethod(String(cString: entry), hook: name, index: index))
                cursor += 1
            }
        }
        self.name = name
        self.point = point
        hookedMethods = methods
        self.definition = Definition(pointer: pointer)
    }

    /// `Class selector`, or `+Class selector` for a class method.
    static func hookedMethod(_ text: String, hook: String, index: Int) throws(NativeHookLibraryError) -> HookedMethod {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else {
            throw .invalidDefinition(index: index, reason: "\(hook): hooked method '\(text)' is not 'Class selector' or '+Class selector'")
        }
        let isClassMethod = parts[0].hasPrefix("+")
        return HookedMethod(String(isClassMethod ? parts[0].dropFirst() : parts[0]), String(parts[1]), isClassMethod: isClassMethod)
    }

    /// Installs the hook on `host`, whose runtime must be mirrored on the real runtime.
    public func install(on host: ReferenceHost, context: InteractionContext) throws(HookError) -> HookHandle {
        guard host.runtime.hasRealDispatch else {
            throw .classNotCreated(className: name, reason: "a native hook needs a host on the real runtime (MirroredRuntime)")
        }
        let installation = try installations.withLock { (installations: inout [ObjectIdentifier: NativeHookInstallation]) throws(HookError) in
            if let existing = installations[ObjectIdentifier(host)] {
                guard existing.context === context else { throw .installedForAnotherContext(hookName: name) }
                return existing
            }
            let made = NativeHookInstallation(hook: self, host: host, context: context)
            installations[ObjectIdentifier(host)] = made
            return made
        }
        try installation.install()
        return HookHandle(name: name) { () throws(HookError) -> HookState in installation.uninstall() }
    }
}
