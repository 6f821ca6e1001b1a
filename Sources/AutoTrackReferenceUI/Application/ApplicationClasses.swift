/// AutoTrackRuntime: `RuntimeObject` appears in this file's public API.
public import AutoTrackRuntime

/// `UIApplication` — target-actions, touch delivery (`sendEvent:`) and its delegate —
/// `NSURL`, and `UNUserNotificationCenter` with its delegate and
/// `UNNotificationResponse`: what the app-level hooks hang on.
enum ApplicationClasses {
    static func define(in host: ReferenceHost) throws(RuntimeError) -> RuntimeClass {
        let runtime = host.runtime
        let responder = runtime.lookUpClass("UIResponder")!
        let application = try runtime.defineClass("UIApplication", superclass: responder, methods: [
            ("sendAction:to:from:forEvent:", "c@::@@@", ControlClasses.applicationSendAction),
            // UIKit: every event of the app comes through here, phase by phase, and goes
            // on to the window, the touched view and its recognizers.
            ("sendEvent:", "v@:@", .procedure("-[UIApplication sendEvent:]") { (message: Message, event: EventObject) throws(RuntimeError) in
                guard let application = message.receiver as? ApplicationObject else { return }
                try application.host.driver.deliver(event)
            }),
            ("delegate", "@@:", .returning("-[UIApplication delegate]") { (message: Message) -> RuntimeObject? in
                (message.receiver as? ApplicationObject)?.delegate
            }),
            ("setDelegate:", "v@:@", .procedure("-[UIApplication setDelegate:]") { (message: Message, delegate: RuntimeObject?) in
                (message.receiver as? ApplicationObject)?.delegate = delegate
            }),
        ])
        host.register(application, storage: .application)
        host.register(try runtime.defineClass("NSURL"), storage: .url)
        host.register(try runtime.defineClass("UNNotificationResponse"), storage: .notificationResponse)
        let center = try runtime.defineClass("UNUserNotificationCenter", methods: [
            ("delegate", "@@:", .returning("-[UNUserNotificationCenter delegate]") { (message: Message) -> RuntimeObject? in
                (message.receiver as? NotificationCenterObject)?.delegate
            }),
            ("setDelegate:", "v@:@", .procedure("-[UNUserNotificationCenter setDelegate:]") { (message: Message, delegate: RuntimeObject?) in
                (message.receiver as? NotificationCenterObject)?.delegate = delegate
            }),
        ])
        host.register(center, storage: .notificationCenter)
        // The shared instances, as class methods (what code outside the host asks).
        runtime.addMethod(
            to: application.metaclass, "sharedApplication",
            Implementation("+[UIApplication sharedApplication]") { message in .object(ReferenceHost.host(of: message.runtime)?.application) },
            types: "@@:")
        runtime.addMethod(
            to: center.metaclass, "currentNotificationCenter",
            Implementation("+[UNUserNotificationCenter currentNotificationCenter]") { message in
                .object(ReferenceHost.host(of: message.runtime)?.notificationCenter)
            }, types: "@@:")
        return application
    }
}

/// The Swift-side storage of `UIApplication`.
public final class ApplicationObject: ResponderObject, @unchecked Sendable {
    // Safe by confinement to the UI thread.

    /// The app delegate (weak: the app holds it, as `UIApplicationMain` does).
    public internal(set) weak var delegate: RuntimeObject?
}

/// The Swift-side storage of an `NSURL`: its text.
public final class URLObject: RuntimeObject, @unchecked Sendable {
    // Safe: set once, before the object is handed out.

    /// `absoluteString`.
    public internal(set) var absoluteString = ""
}

/// The Swift-side storage of `UNUserNotificationCenter`.
public final class NotificationCenterObject: RuntimeObject, @unchecked Sendable {
    // Safe by confinement to the UI thread.

    /// The delegate (weak, as UIKit's).
    public internal(set) weak var delegate: RuntimeObject?
}

/// The Swift-side storage of a `UNNotificationResponse`: what the notification showed
/// and what the user chose.
public final class NotificationResponseObject: RuntimeObject, @unchecked Sendable {
    // Safe: set once, before the object is handed out.

    /// `notification.request.content.title`.
    public internal(set) var title: String?
    /// `notification.request.content.body`.
    public internal(set) var body: String?
    /// `notification.request.content.userInfo`, as text.
    public internal(set) var userInfo: [String: String] = [:]
    /// `actionIdentifier`: the default action when the user opened the notification.
    public internal(set) var actionIdentifier = NotificationResponseObject.defaultActionIdentifier

    /// `UNNotificationDefaultActionIdentifier`: the user opened the notification.
    public static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
    /// `UNNotificationDismissActionIdentifier`: the user dismissed it.
    public static let dismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"
}
