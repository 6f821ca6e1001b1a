import CAutoTrackHook
import AutoTrackInterception
import AutoTrackLocking
import AutoTrackObjCBackend
import AutoTrackReferenceUI
import AutoTrackRuntime

/// One native hook on one host for one context: what the C side holds as its
/// `autotrack_hook_installation *` (retained for the process's life, as wrappers may
/// keep it).
final class NativeHookInstallation: Sendable {
    unowned let hook: NativeHook
    let host: ReferenceHost
    let context: InteractionContext
    let hookSwitch = HookSwitch(isOn: false)
    let interceptor: Interceptor
    /// Whether the C `install` succeeded and `uninstall` has not run since.
    private let installed = Locked(false)
    /// Calls the combinator could not read (an unknown receiver): their originals ran.
    let unreadableCalls = Locked(0)
    /// The run-loop observer noting alerts on screen, for a hook at the alert-action point.
    private let alertWatch = Locked<ObserverToken?>(nil)

    init(hook: NativeHook, host: ReferenceHost, context: InteractionContext) {
        self.hook = hook
        self.host = host
        self.context = context
        interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: hook.name)
    }

    /// The pointer the C side holds.
    var pointer: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    func install() throws(HookError) {
        try installed.withLock { (installed: inout Bool) throws(HookError) in
            guard !installed else { return }
            // Kept alive for the process: wrappers may hold the pointer after uninstall.
            _ = Unmanaged.passRetained(self)
            var message = [CChar](repeating: 0, count: 512)
            let status = hook.definition.pointer.pointee.install(pointer, NativeHookAPI.shared.pointer, &message, message.count)
            guard status == 0 else {
                let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw .classNotCreated(className: hook.name, reason: text.isEmpty ? "its install returned \(status)" : text)
            }
            hookSwitch.set(true)
            installed = true
            NativeNotifications.bridge(host)
            if hook.point == .alertAction {
                alertWatch.withLock { $0 = $0 ?? AlertNotes.watchAlerts(on: host, context: context) }
            }
        }
    }

    func uninstall() -> HookState {
        installed.withLock { installed in
            guard installed else { return .uninstalled }
            installed = false
            hookSwitch.set(false)
            if let watch = alertWatch.withLock({ token in defer { token = nil }; return token }) { host.removeObserver(watch) }
            let restored = hook.definition.pointer.pointee.uninstall(pointer)
            return restored == 1 ? .uninstalled : .passThrough
        }
    }

    /// Runs one intercepted call through the combinator. A call with no original (a
    /// hook's own tracking target or observer) may have a receiver the host does not
    /// know yet: it is adopted.
    func intercept(_ call: autotrack_call, hasOriginal: Bool, original: () -> Void) {
        let count = Int(max(0, min(call.argument_count, AUTOTRACK_CALL_MAX_ARGUMENTS)))
        let arguments = withUnsafeBytes(of: call.arguments) { Array($0.bindMemory(to: UInt64.self).prefix(count)) }
        guard let receiver = UInt(bitPattern: call.receiver) as UInt?, receiver != 0,
              let message = MirroredRuntime.message(
                in: host.runtime, receiver: receiver, selector: UnsafeRawPointer(call.selector), arguments: arguments, adoptingReceiver: !hasOriginal)
        else {
            unreadableCalls.withLock { $0 += 1 }
            original()
            return
        }
        NativeHookCapture.run(point: hook.point, message: message, host: host, interceptor: interceptor, original: original)
    }
}

/// The API table every native hook gets, at one address for the process's life (hooks
/// keep the pointer).
struct NativeHookAPI: @unchecked Sendable {
    // Safe: the table is written once, before any hook can read it, and never again.
    let pointer: UnsafePointer<autotrack_hook_api>

    static let shared: NativeHookAPI = {
        let table = UnsafeMutablePointer<autotrack_hook_api>.allocate(capacity: 1)
        table.initialize(to: autotrack_hook_api(version: UInt32(AUTOTRACK_HOOK_API_VERSION), intercept: intercept, class_named: classNamed))
        return NativeHookAPI(pointer: UnsafePointer(table))
    }()

    static let intercept: @convention(c) (OpaquePointer?, UnsafePointer<autotrack_call>?, autotrack_original_function?, UnsafeMutableRawPointer?) -> Void = {
        installation, call, original, context in
        // No original: the call is a reporting target's (a gesture hook's tracking target).
        let runOriginal: () -> Void = { original?(context) }
        guard let installation, let call else {
            runOriginal()
            return
        }
        let owner = Unmanaged<NativeHookInstallation>.fromOpaque(UnsafeRawPointer(installation)).takeUnretainedValue()
        owner.intercept(call.pointee, hasOriginal: original != nil, original: runOriginal)
    }

    static let classNamed: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> UnsafeMutableRawPointer? = { installation, name in
        guard let installation, let name else { return nil }
        let owner = Unmanaged<NativeHookInstallation>.fromOpaque(UnsafeRawPointer(installation)).takeUnretainedValue()
        return MirroredRuntime.realClassAddress(named: String(cString: name), in: owner.host.runtime).flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
    }
}
