/// AutoTrack: `Tracker` appears in this file's public API.
public import AutoTrack
/// AutoTrackHooks: `BuiltInHooks` appears in this file's public API.
public import AutoTrackHooks
/// AutoTrackInterception: `HookError`, `HookHandle`, `InteractionContext`, `InterceptionHook` appear in this file's public API.
public import AutoTrackInterception
/// AutoTrackReferenceUI: `ReferenceHost` appears in this file's public API.
public import AutoTrackReferenceUI
import AutoTrackRuntime
import AutoTrackLocking

/// Automatic capture of one tracker on one reference host: the hooks installed, the
/// context they report to, the exposure monitor, and the lifecycle and run-loop
/// observers. ``disable()`` reverses it.
public final class AutomaticCapture: Sendable {
    /// The context every hook of this capture reports to.
    public let context: InteractionContext
    /// Records `$AppElementExposure` for the views the app watches
    /// (`ElementExposureMonitor.watch(_:options:properties:eventName:)`): updated
    /// after every turn of the host's run loop, suspended in the background.
    public let exposures: ElementExposureMonitor
    private let state: Locked<State>
    private let host: ReferenceHost
    private let release: @Sendable () -> Void

    struct State {
        var handles: [HookHandle]
        var observers: [ObserverToken]
        var isActive = true
    }

    init(context: InteractionContext, exposures: ElementExposureMonitor, host: ReferenceHost, release: @escaping @Sendable () -> Void) {
        self.context = context
        self.exposures = exposures
        self.host = host
        self.release = release
        state = Locked(State(handles: [], observers: []))
    }

    /// The handles of the installed hooks, in installation order.
    public var handles: [HookHandle] { state.withLock { $0.handles } }

    /// Whether capture is on (`false` after ``disable()``).
    public var isActive: Bool { state.withLock { $0.isActive } }

    /// Turns capture off: no more automatic events, `$AppStart` or `$AppEnd`; every hook
    /// is uninstalled (a hook another library stacked on stays as a pass-through), and
    /// the originals keep running exactly once. A second call does nothing.
    public func disable() throws(HookError) {
        let (handles, observers) = state.withLock { state -> ([HookHandle], [ObserverToken]) in
            guard state.isActive else { return ([], []) }
            state.isActive = false
            defer { state.handles = []; state.observers = [] }
            return (state.handles, state.observers)
        }
        guard !handles.isEmpty || !observers.isEmpty else { return }
        context.isEnabled = false
        for token in observers { host.removeObserver(token) }
        release()
        for handle in handles.reversed() { try handle.uninstall() }
    }

    func add(_ handle: HookHandle) {
        state.withLock { state in
            if !state.handles.contains(where: { $0 === handle }) { state.handles.append(handle) }
        }
    }

    func observe(_ token: ObserverToken) { state.withLock { $0.observers.append(token) } }
}

/// The captures active on one host, by tracker: an associated object of its runtime.
final class ActiveCaptures: Sendable {
    let byTracker = Locked<[ObjectIdentifier: AutomaticCapture]>([:])
    private static let key = AssociationKey("AutoTrackReferenceHostIntegration.captures")
    private static let creation = Locked<Void>(())

    static func of(_ host: ReferenceHost) -> ActiveCaptures {
        creation.withLock { _ in
            let runtime = host.runtime
            if let existing = runtime.associatedObject(for: key, on: runtime.rootClass) as? ActiveCaptures { return existing }
            let created = ActiveCaptures()
            runtime.setAssociatedObject(created, for: key, on: runtime.rootClass)
            return created
        }
    }
}

extension Tracker {
    /// Enables automatic capture on a reference-host application: installs `hooks` (one
    /// per interception point by default), turns their interactions into `$AppClick`
    /// and `$AppViewScreen` events, tracks `$AppStart` now and on every return from the
    /// background, and `$AppEnd` with the session's `$event_duration` on every move to
    /// it; records the exposures of the views watched through
    /// ``AutomaticCapture/exposures``, and of the SwiftUI views that ask for it
    /// (`.autoTrackExposure(…)`), after every run-loop turn.
    ///
    /// Idempotent: while capture is on, calling it again (from any thread) tracks no
    /// second `$AppStart`, adds no second observer, and only installs hooks not
    /// installed yet (a hook's own install is idempotent too); it returns the same
    /// capture. ``AutomaticCapture/disable()`` reverses it; enabling again after that
    /// tracks no cold `$AppStart` (the app did not start again), and a screen shown
    /// before is recorded when it returns.
    @discardableResult
    public func enableAutoTrack(
        on host: ReferenceHost, hooks: [any InterceptionHook<ReferenceHost>] = BuiltInHooks.standard()
    ) throws(HookError) -> AutomaticCapture {
        let captures = ActiveCaptures.of(host)
        let trackerID = ObjectIdentifier(self)
        let (capture, isNew) = captures.byTracker.withLock { active -> (AutomaticCapture, Bool) in
            if let existing = active[trackerID], existing.isActive { return (existing, false) }
            let context = makeInteractionContext()
            let exposures = makeExposureMonitor(context: context)
            let created = AutomaticCapture(context: context, exposures: exposures, host: host) { [weak captures] in
                captures?.byTracker.withLock { active in
                    if active[trackerID]?.isActive == false { active[trackerID] = nil }
                }
            }
            active[trackerID] = created
            return (created, true)
        }
        if isNew {
            // Observers first: on return, $AppStart comes before the screen view.
            let exposures = capture.exposures
            capture.observe(host.addObserver(for: .didEnterBackground) { [weak self] _ in
                exposures.suspend()
                self?.trackAppEnd()
            })
            capture.observe(host.addObserver(for: .willEnterForeground) { [weak self] _ in
                self?.trackAppStart(resumingFromBackground: true)
                exposures.resume()
            })
            let swiftUIExposures = SwiftUIExposures(monitor: exposures)
            capture.observe(host.addRunLoopObserver { [unowned host] in
                swiftUIExposures.watchRequested(on: host)
                exposures.update()
            })
            // The app starts once: capture enabled again after disable() is no launch.
            if claimLaunch() { trackAppStart(resumingFromBackground: false) }
        }
        for hook in hooks { capture.add(try hook.install(on: host, context: capture.context)) }
        return capture
    }

    /// The automatic capture this tracker has on `host`, if it is on.
    public func automaticCapture(on host: ReferenceHost) -> AutomaticCapture? {
        ActiveCaptures.of(host).byTracker.withLock { $0[ObjectIdentifier(self)] }
    }
}
