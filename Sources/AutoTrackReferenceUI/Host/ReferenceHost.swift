import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// AutoTrackProperties: `HierarchyVersion`, `Rect` appear in this file's public API.
public import AutoTrackProperties
/// AutoTrackRuntime: `AssociationKey`, `Implementation`, `Runtime`, `RuntimeClass` … appear in this file's public API.
public import AutoTrackRuntime
import AutoTrackLocking

/// Which Swift storage a runtime class's instances get, fixed by its UIKit base class.
enum StorageKind {
    case view(ElementRole)
    case hostingView
    case control(ElementRole)
    case list(ElementRole)
    case cell(ElementRole)
    case alertActionView
    case controller(ControllerKind)
    case gesture(GestureKind)
    case application
    case event
    case url
    case notificationCenter
    case notificationResponse
}

/// Names one registered notification observer (`removeObserver:`).
public struct ObserverToken: Hashable, Sendable {
    let id: Int
}

/// An application-level notification.
public enum ApplicationNotification: String, Sendable, CaseIterable {
    /// The app went to the background (`UIApplicationDidEnterBackgroundNotification`).
    case didEnterBackground = "UIApplicationDidEnterBackgroundNotification"
    /// The app is about to return (`UIApplicationWillEnterForegroundNotification`).
    case willEnterForeground = "UIApplicationWillEnterForegroundNotification"
    /// The app became active (`UIApplicationDidBecomeActiveNotification`).
    case didBecomeActive = "UIApplicationDidBecomeActiveNotification"
}

/// The reference host: UIKit's behaviour modelled on an `Runtime`.
///
/// It registers runtime classes named as in UIKit — `UIApplication`, `UIWindow`,
/// `UIView`, `UILabel`, `UIControl`, `UIButton`, `UISwitch`, `UITextField`,
/// `UIGestureRecognizer`s, `UIAlertAction`, `UITableView`, `UIViewController`, the
/// containers … — whose methods are runtime methods, so hooks can exchange, subclass
/// and forward them exactly as on iOS. Apps declare their own subclasses with
/// ``defineClass(_:superclass:methods:)``. The host knows nothing about tracking.
///
/// Objects are confined to the thread that drives the host, as UIKit's to the main
/// thread. In debug builds every user action of the ``driver`` checks it: a second
/// thread driving the host while another is inside an action traps at once, naming
/// both threads, instead of corrupting the view hierarchy.
public final class ReferenceHost: @unchecked Sendable {
    // Safe by confinement to the UI thread (see above; checked in debug builds).

    /// The runtime the host's classes live in.
    public let runtime: Runtime
    /// The screen size in points (an iPhone 14 by default).
    public let screenBounds: Rect
    /// Moves on every change to the view hierarchy that can move a view's path or
    /// change its id — views added, removed or reordered, cells given other rows, a
    /// controller's root view, identifiers, actions, alerts, paging frames — and with
    /// every class or method change of the runtime (a reported class name is a type
    /// name). Views cache their paths and ids against it.
    public let hierarchyVersion: HierarchyVersion
    /// `UIApplication.sharedApplication`.
    public private(set) var application: ApplicationObject!
    /// `UNUserNotificationCenter.currentNotificationCenter`.
    public private(set) var notificationCenter: NotificationCenterObject!
    /// The key window.
    public private(set) var window: ViewObject!
    /// The hosting views made so far and still alive.
    package let hostingViews = HostingViewRegistry()
    /// The window's root view controller.
    public internal(set) var rootViewController: ViewControllerObject?
    /// Whether the app is in the background.
    public internal(set) var isInBackground = false
    /// The touch event whose actions a control is dispatching right now (UIKit's
    /// current event), `nil` outside a touch — how a closure action's `sendAction:`,
    /// which carries no event, is tied to its touch.
    public internal(set) var currentTouchEvent: RuntimeObject?
    /// The names of the classes the host itself defines — UIKit's, as opposed to the
    /// app's (`objc_copyClassNamesForImage` of UIKit).
    public private(set) var frameworkClassNames: Set<String> = []
    private var storageKinds: [ObjectIdentifier: StorageKind] = [:]
    /// Like `NotificationCenter`, registration is thread-safe: hooks install from any
    /// thread. Observers run on the posting (UI) thread.
    private let observers = Locked<[(ApplicationNotification, ObserverToken, @Sendable (ApplicationNotification) -> Void)]>([])
    private let nextObserverToken = Atomic<Int>(0)
    /// Run-loop observers: called after each user action, on the UI thread.
    private let runLoopObservers = Locked<[(ObserverToken, @Sendable () -> Void)]>([])
    private static let hostKey = AssociationKey("AutoTrackReferenceUI.host")
    /// The thread inside a user action (0: none), and how deeply it is nested.
    private let uiThread = Atomic<UInt>(0)
    private let uiDepth = Atomic<Int>(0)

    /// Builds a host in `runtime` (a new one by default) with every UIKit class.
    public init(runtime: Runtime = Runtime(), screenBounds: Rect = Rect(x: 0, y: 0, width: 390, height: 844)) throws(RuntimeError) {
        self.runtime = runtime
        self.screenBounds = screenBounds
        hierarchyVersion = HierarchyVersion(alsoCounting: { [runtime] in runtime.dispatchChangeCount })
        runtime.setAssociatedObject(HostBox(self), for: Self.hostKey, on: runtime.rootClass)
        try ViewClasses.define(in: self)
        try ControlClasses.define(in: self)
        try GestureClasses.define(in: self)
        try ListClasses.define(in: self)
        try AlertClasses.define(in: self)
        try ControllerClasses.define(in: self)
        try HostingClasses.define(in: self)
        let applicationClass = try ApplicationClasses.define(in: self)
        application = try make(applicationClass, as: ApplicationObject.self)
        notificationCenter = frameworkObject("UNUserNotificationCenter", as: NotificationCenterObject.self)
        window = frameworkObject("UIWindow", as: ViewObject.self)
        window.frame = screenBounds
        window.applicationForChain = application
        frameworkClassNames = Set(runtime.classNames)
    }

    /// The host whose classes live in `runtime`, for class methods that need it.
    public static func host(of runtime: Runtime) -> ReferenceHost? {
        (runtime.associatedObject(for: hostKey, on: runtime.rootClass) as? HostBox)?.host
    }

    final class HostBox: @unchecked Sendable {
        // Safe: written once; the host it points to is confined to the UI thread.
        unowned let host: ReferenceHost
        init(_ host: ReferenceHost) { self.host = host }
    }

    // MARK: Confinement

    /// What ``enterUIThread(_:)`` found.
    package struct Confinement: Sendable {
        /// Whether this thread may drive the host (no other thread is inside an action).
        package let isConfined: Bool
        /// The thread already inside an action, when another one is.
        package let otherThread: UInt
    }

    private static var currentThread: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    /// Marks the start of a user action on this thread. In debug builds a second thread
    /// entering while another is inside an action traps; release builds only report it.
    package func enterUIThread(_ action: StaticString) -> Confinement {
        let me = Self.currentThread
        let (exchanged, holder) = uiThread.compareExchange(expected: 0, desired: me, ordering: .acquiringAndReleasing)
        guard exchanged || holder == me else {
            #if DEBUG
            preconditionFailure("ReferenceHost: \(action) on thread \(me) while thread \(holder) is inside a user action; a host is confined to one UI thread, as UIKit is")
            #else
            return Confinement(isConfined: false, otherThread: holder)
            #endif
        }
        uiDepth.wrappingAdd(1, ordering: .relaxed)
        return Confinement(isConfined: true, otherThread: 0)
    }

    /// The thread inside a user action now (0: none).
    package var threadInsideAction: UInt { uiThread.load(ordering: .acquiring) }

    /// The calling thread's id, as ``threadInsideAction`` reports threads.
    package static var callingThread: UInt { currentThread }

    /// Marks the end of the user action ``enterUIThread(_:)`` started.
    package func leaveUIThread(_ confinement: Confinement) {
        guard confinement.isConfined else { return }
        if uiDepth.load(ordering: .relaxed) == 1 {
            // The outermost action is done: the run loop is about to wait. Observers
            // still run inside it (on this thread), so what they drive is confined too.
            for (_, observer) in runLoopObservers.withLock({ $0 }) { observer() }
        }
        if uiDepth.wrappingSubtract(1, ordering: .relaxed).newValue == 0 {
            uiThread.store(0, ordering: .releasing)
        }
    }

    /// The transitions that drive appearance callbacks.
    public var transitions: Transitions { Transitions(host: self) }

    /// The touch driver for user actions.
    public var driver: TouchDriver { TouchDriver(host: self) }

    // MARK: Classes

    func register(_ cls: RuntimeClass, storage: StorageKind?) {
        if let storage { storageKinds[ObjectIdentifier(cls)] = storage }
    }

    func storageKind(for cls: RuntimeClass) -> StorageKind? {
        var current: RuntimeClass? = cls
        while let candidate = current {
            if let kind = storageKinds[ObjectIdentifier(candidate)] { return kind }
            current = candidate.superclass
        }
        return nil
    }

    /// The registered class named `name` (a UIKit class or an app class).
    /// - Throws: `RuntimeError.classNotFound(_:)`.
    public func lookUpClass(_ name: String) throws(RuntimeError) -> RuntimeClass {
        guard let cls = runtime.lookUpClass(name) else { throw .classNotFound(name) }
        return cls
    }

    /// Declares an app class, e.g. `ViewController` under `UIViewController` or
    /// `MyTableViewCell` under `UITableViewCell`.
    @discardableResult
    public func defineClass(
        _ name: String, superclass: String, methods: [(Selector, String, Implementation)] = []
    ) throws(RuntimeError) -> RuntimeClass {
        guard let parent = runtime.lookUpClass(superclass) else { throw .classNotFound(superclass) }
        return try runtime.defineClass(name, superclass: parent, methods: methods)
    }

    // MARK: Notifications

    /// Calls `observer` whenever the application posts `name`; the token removes it.
    @discardableResult
    public func addObserver(
        for name: ApplicationNotification, _ observer: @escaping @Sendable (ApplicationNotification) -> Void
    ) -> ObserverToken {
        let token = ObserverToken(id: nextObserverToken.wrappingAdd(1, ordering: .relaxed).newValue)
        observers.withLock { $0.append((name, token, observer)) }
        return token
    }

    /// Calls `observer` on the UI thread each time the main run loop has handled a
    /// user action (a touch, a scroll, a transition, a move to or from the
    /// background) and is about to wait — where a UIKit app observes
    /// `kCFRunLoopBeforeWaiting`, after layout. The token removes it.
    @discardableResult
    public func addRunLoopObserver(_ observer: @escaping @Sendable () -> Void) -> ObserverToken {
        let token = ObserverToken(id: nextObserverToken.wrappingAdd(1, ordering: .relaxed).newValue)
        runLoopObservers.withLock { $0.append((token, observer)) }
        return token
    }

    /// Stops calling the observer `token` names (a notification or run-loop
    /// observer); removing it twice does nothing.
    public func removeObserver(_ token: ObserverToken) {
        observers.withLock { $0.removeAll { $0.1 == token } }
        runLoopObservers.withLock { $0.removeAll { $0.0 == token } }
    }

    /// One turn of the main run loop with no user action: lets observers see what
    /// changed in code (a view moved, hidden or scrolled without a touch) and
    /// deadlines that have passed.
    public func runLoopTurn() {
        let confinement = enterUIThread("runLoopTurn")
        leaveUIThread(confinement)
    }

    func post(_ name: ApplicationNotification) {
        // A copy, so an observer may add or remove observers without deadlocking.
        for (observed, _, observer) in observers.withLock({ $0 }) where observed == name { observer(name) }
    }

    // MARK: Screens

    /// The screen the user sees: the top of the presented chain, then the top of
    /// navigation stacks, selected tabs and current pages.
    public var visibleController: ViewControllerObject? {
        guard var controller = rootViewController else { return nil }
        var steps = 0
        while steps < 64 {
            steps += 1
            if let presented = controller.presentedController {
                controller = presented
                continue
            }
            if let shown = controller.appearanceChildren.last, controller.kind != .plain {
                controller = shown
                continue
            }
            break
        }
        return controller
    }
}

/// The phase of the touch a `UIEvent` carries (`UITouchPhase`).
public enum TouchPhase: Hashable, Sendable {
    /// The finger went down.
    case began
    /// The finger moved.
    case moved
    /// The finger lifted: the interaction ends.
    case ended
    /// The system cancelled the touch.
    case cancelled
}

/// The Swift-side storage of a `UIEvent`: one per touch sequence, shared by every
/// target-action pair it triggers.
public final class EventObject: RuntimeObject, @unchecked Sendable {
    // Safe: `sequence` is immutable; `touchPhase` is set by the touch driver and read
    // by hooks on the UI thread only, as UIKit's own event is.

    /// A number identifying the touch sequence, unique in the process.
    public let sequence: Int
    /// The phase of the sequence's touch now (`event.allTouches.anyObject.phase`).
    public internal(set) var touchPhase: TouchPhase = .began
    /// The view the touch is on (`event.allTouches.anyObject.view`), for an event a
    /// finger delivers through `-[UIApplication sendEvent:]`; `nil` for events
    /// made for a control's actions alone.
    public internal(set) var touchedView: ViewObject?
    /// Where the touch is, in ``touchedView``'s coordinates (`[touch
    /// locationInView:]`); `nil` when the driver touched the view as a whole.
    public internal(set) var touchLocation: Point?
    private static let counter = Atomic<Int>(0)

    init(class cls: RuntimeClass) {
        sequence = EventObject.counter.add(1, ordering: .relaxed).newValue
        super.init(instanceOf: cls)
    }
}
