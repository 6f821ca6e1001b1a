import AutoTrackLocking
import AutoTrackObjCBackend
import AutoTrackReferenceUI
import AutoTrackRuntime

/// A host's application notifications for native code: hooks written for iOS observe the
/// app's lifecycle through `NSNotificationCenter` (a screen view when the app returns to
/// the foreground), so once a native hook installs on a host, each notification the host
/// posts is posted to the real runtime's default center too, under UIKit's name, with
/// the application as its object.
enum NativeNotifications {
    private static let key = AssociationKey("AutoTrackNativeHooks.notificationBridge")
    private static let bridging = Locked(())

    /// The host's observers posting to the real center, kept by the application object.
    private final class Bridge: Sendable {
        let tokens: [ObserverToken]
        init(tokens: [ObserverToken]) { self.tokens = tokens }
    }

    /// Bridges `host`'s notifications, once per host.
    static func bridge(_ host: ReferenceHost) {
        bridging.withLock { _ in
            guard let application = host.application, host.runtime.associatedObject(for: key, on: application) == nil else { return }
            let tokens = ApplicationNotification.allCases.map { name in
                host.addObserver(for: name) { [weak host] name in
                    MirroredRuntime.postNativeNotification(name.rawValue, object: host?.application)
                }
            }
            host.runtime.setAssociatedObject(Bridge(tokens: tokens), for: key, on: application)
        }
    }
}
