/// The name of an event, such as `$AppClick` or `purchase`.
///
/// A name follows the same rule as a property key (see ``PropertyRules``): it starts
/// with a letter, `_` or `$`, continues with letters, digits, `_` or `$`, is at most
/// 100 characters long and is not a reserved word. Use the presets for automatic
/// events and ``init(validating:rules:)`` for names that come from a caller.
public struct EventName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The name as written on the wire.
    public let rawValue: String

    /// Creates a name if `rawValue` passes ``PropertyRules/standard``; `nil` otherwise.
    public init?(rawValue: String) {
        guard (try? PropertyRules.standard.checkName(rawValue)) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// Creates a name, reporting why `name` is not acceptable.
    /// - Throws: ``ValidationError/invalidEventName(_:_:)``.
    public init(validating name: String, rules: PropertyRules = .standard) throws(ValidationError) {
        do {
            try rules.checkName(name)
        } catch {
            throw .invalidEventName(name, error)
        }
        self.rawValue = name
    }

    private init(preset: String) { self.rawValue = preset }

    /// A tap on a control, cell, gesture target or alert action.
    public static let appClick = EventName(preset: "$AppClick")
    /// A screen (view controller) became visible.
    public static let appViewScreen = EventName(preset: "$AppViewScreen")
    /// The app started or returned to the foreground.
    public static let appStart = EventName(preset: "$AppStart")
    /// The app went to the background or ended.
    public static let appEnd = EventName(preset: "$AppEnd")
    /// A screen stopped being visible (another screen appeared, or the app went to the
    /// background), with how long it was visible in `event_duration`.
    public static let appPageLeave = EventName(preset: "$AppPageLeave")
    /// An element the app asked to watch was seen: enough of it on screen for long
    /// enough, once per appearance.
    public static let appElementExposure = EventName(preset: "$AppElementExposure")
    /// A burst of clicks on one element in a short time: a user who expected more.
    public static let appRageClick = EventName(preset: "$AppRageClick")
    /// The first launch of an install.
    public static let appInstall = EventName(preset: "$AppInstall")
    /// The app opened by a link.
    public static let appDeeplinkLaunch = EventName(preset: "$AppDeeplinkLaunch")
    /// The app opened from a push notification.
    public static let appPushClick = EventName(preset: "$AppPushClick")
    /// A tap nothing answered (no action, no new screen) in time.
    public static let appDeadClick = EventName(preset: "$AppDeadClick")

    /// The preset names of automatic events.
    public static let presets: [EventName] = [.appClick, .appViewScreen, .appStart, .appEnd, .appPageLeave, .appElementExposure, .appRageClick, .appInstall, .appDeeplinkLaunch, .appPushClick,
        .appDeadClick,
    ]

    /// The raw name.
    public var description: String { rawValue }
}
