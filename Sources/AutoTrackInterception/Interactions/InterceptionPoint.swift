/// Where in a UI framework an interaction was intercepted: a name, and the kind of
/// event what is intercepted there becomes.
///
/// The set is open. The points of a UIKit-shaped host are static members
/// (``sendAction``, ``gesture``, ``alertAction``, ``delegateSelection``,
/// ``screenView``, ``swiftUITap``; ``uiKit`` lists them); a host with another kind of interaction —
/// a SwiftUI tap, a web view's message — declares its own without changing the core:
///
/// ```swift
/// extension InterceptionPoint {
///     static let webViewTap = InterceptionPoint("web-view-tap", records: .click)
/// }
/// ```
///
/// Two points are the same when their names are.
public struct InterceptionPoint: Hashable, Sendable, CustomStringConvertible {
    /// What an interaction at a point is recorded as.
    public enum Kind: Hashable, Sendable {
        /// A click on an element (`$AppClick`).
        case click
        /// A screen shown (`$AppViewScreen`); it ends the page shown before it.
        case screenView
        /// A touch that ended on an element: no event of its own, but a tap that
        /// nothing answers becomes a dead click (`$AppDeadClick`).
        case touch
        /// The app was opened from outside — a link (`$AppDeeplinkLaunch`) or a
        /// notification (`$AppPushClick`).
        case appOpen
    }

    /// The point's name, e.g. `send-action`; stable, written in reports.
    public let name: String
    /// What interactions at this point are recorded as.
    public let kind: Kind

    /// A point named `name` whose interactions are recorded as `kind`.
    public init(_ name: String, records kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// A control dispatched a target-action pair (`sendAction:to:forEvent:`, or the
    /// application-level `sendAction:to:from:forEvent:`).
    public static let sendAction = InterceptionPoint("send-action", records: .click)
    /// A tap or long-press recognizer fired its target-actions.
    public static let gesture = InterceptionPoint("gesture", records: .click)
    /// A tapped alert action ran its handler.
    public static let alertAction = InterceptionPoint("alert-action", records: .click)
    /// A list called its delegate's `didSelectRow/ItemAt`.
    public static let delegateSelection = InterceptionPoint("delegate-selection", records: .click)
    /// A view controller appeared (`viewDidAppear:`).
    public static let screenView = InterceptionPoint("screen-view", records: .screenView)
    /// A tap activated a SwiftUI button, link, toggle or tap-gesture view — seen where
    /// every touch passes (`-[UIApplication sendEvent:]`), since SwiftUI runs its
    /// controls' actions from its own gesture system, never through `sendAction:`.
    public static let swiftUITap = InterceptionPoint("swiftui-tap", records: .click)

    /// `-[UIApplication sendEvent:]` delivered a touch that ended on a view.
    public static let touchEnd = InterceptionPoint("touch-end", records: .touch)
    /// The app delegate was asked to open a URL (`application:openURL:options:`).
    public static let openURL = InterceptionPoint("open-url", records: .appOpen)
    /// The notification center's delegate got the user's response to a notification
    /// (`userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:`).
    public static let notificationResponse = InterceptionPoint("notification-response", records: .appOpen)

    /// The user-interface points of a UIKit-shaped host, in a fixed order: those
    /// whose interactions are clicks and screen views, SwiftUI's taps in hosting
    /// controllers last.
    public static let uiKit: [InterceptionPoint] = [.sendAction, .gesture, .alertAction, .delegateSelection, .screenView, .swiftUITap]
    /// The application-level points of a UIKit-shaped host: touches as the
    /// application delivers them, and the app opened from a link or a notification.
    public static let uiKitApplication: [InterceptionPoint] = [.touchEnd, .openURL, .notificationResponse]

    /// The UIKit point (of either list) named `name`, or `nil`.
    public static func uiKit(named name: String) -> InterceptionPoint? { (uiKit + uiKitApplication).first { $0.name == name } }

    /// Whether interactions at this point are screen views.
    public var isScreenView: Bool { kind == .screenView }

    /// The name.
    public var description: String { name }

    /// Equal when the names are.
    public static func == (lhs: InterceptionPoint, rhs: InterceptionPoint) -> Bool { lhs.name == rhs.name }

    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
