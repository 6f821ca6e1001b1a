/// AutoTrackEvents: `EventName` appears in this file's public API.
public import AutoTrackEvents
/// AutoTrackInterception: `Interaction` appears in this file's public API.
public import AutoTrackInterception
/// AutoTrackProperties: `ElementTextPolicy` appears in this file's public API.
public import AutoTrackProperties

/// The automatic events a tracker records.
public struct AutomaticEventTypes: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: UInt16
    /// Creates a set from raw bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `$AppStart`.
    public static let appStart = AutomaticEventTypes(rawValue: 1 << 0)
    /// `$AppEnd`.
    public static let appEnd = AutomaticEventTypes(rawValue: 1 << 1)
    /// `$AppClick` from hooks (a manual `trackAppClick` is the app's own call and
    /// always recorded).
    public static let appClick = AutomaticEventTypes(rawValue: 1 << 2)
    /// `$AppViewScreen`.
    public static let appViewScreen = AutomaticEventTypes(rawValue: 1 << 3)
    /// `$AppPageLeave`: how long each screen was visible. Off by default, as in
    /// Sensors' SDK: it doubles the screen events.
    public static let appPageLeave = AutomaticEventTypes(rawValue: 1 << 4)
    /// The default: app start and end, clicks, screen views and exposures of watched
    /// elements.
    public static let standard: AutomaticEventTypes = [
        .appStart, .appEnd, .appClick, .appViewScreen, .appElementExposure, .appDeeplinkLaunch, .appPushClick,
    ]
    /// `$AppElementExposure` of the elements the app watches (see
    /// ``ElementExposureMonitor``): on in the standard set, since watching an element
    /// is the app's own request.
    public static let appElementExposure = AutomaticEventTypes(rawValue: 1 << 5)
    /// `$AppRageClick`: a burst of clicks on one element (see
    /// ``AutoTrackSettings/rageClicks``), after the click that completes it. Off by
    /// default.
    public static let appRageClick = AutomaticEventTypes(rawValue: 1 << 6)
    /// `$AppInstall`: the first launch of an install (a marker in the store), before
    /// its `$AppStart`. Off by default, as in Sensors' SDK, where the app asks for it.
    public static let appInstall = AutomaticEventTypes(rawValue: 1 << 7)
    /// `$AppDeeplinkLaunch`: the app opened by a link (``Tracker/trackDeepLink(_:)``).
    public static let appDeeplinkLaunch = AutomaticEventTypes(rawValue: 1 << 8)
    /// `$AppPushClick`: the app opened from a notification (``Tracker/trackPushOpen(title:content:service:)``).
    public static let appPushClick = AutomaticEventTypes(rawValue: 1 << 9)
    /// `$AppDeadClick`: a tap the host reported (``Tracker/noteTap(on:screen:)``) that
    /// no click or screen view answered within ``AutoTrackSettings/deadClickTimeout``.
    /// Off by default.
    public static let appDeadClick = AutomaticEventTypes(rawValue: 1 << 10)
    /// Every automatic event, page leaves, rage clicks and installs included.
    public static let all: AutomaticEventTypes = [.standard, .appPageLeave, .appRageClick, .appInstall, .appDeadClick]

    /// Each single type with its event name, in a fixed order.
    public static let named: [(type: AutomaticEventTypes, name: EventName)] = [
        (.appStart, .appStart), (.appEnd, .appEnd), (.appClick, .appClick), (.appViewScreen, .appViewScreen),
        (.appPageLeave, .appPageLeave), (.appElementExposure, .appElementExposure), (.appRageClick, .appRageClick),
        (.appInstall, .appInstall), (.appDeeplinkLaunch, .appDeeplinkLaunch), (.appPushClick, .appPushClick),
        (.appDeadClick, .appDeadClick),
    ]
}

/// The automatic-capture settings a running tracker can change at any time: which
/// automatic events it records and which screens (with their subclasses), element
/// types (with their subclasses) and element ids it leaves alone.
///
/// Set them in code through ``Tracker/autoTrackSettings``, or load a JSON document
/// (a file shipped with the app, or fetched from a server) with
/// ``init(json:)`` and ``Tracker/loadAutoTrackSettings(json:)``:
///
/// ```json
/// {
///   "version": 1,
///   "event_types": ["$AppStart", "$AppEnd", "$AppClick", "$AppViewScreen", "$AppPageLeave"],
///   "ignored_screens": ["SFSafariViewController", "DebugMenuViewController"],
///   "ignored_element_types": ["UISwitch"],
///   "ignored_element_ids": ["3fa4b1e2c0d9"],
///   "exposure_visible_ratio": 0.5,
///   "exposure_duration": 1.0,
///   "exposure_repeats": true,
///   "element_text": "masked",
///   "mask_digit_runs": 4
/// }
/// ```
///
/// Every key is optional (a missing one keeps its default: the standard event types,
/// nothing ignored, ``ExposureOptions/standard``). Unknown keys, a `version` other than
/// 1, unknown event names, values of the wrong type and values out of range are typed
/// errors, so a typo never silently turns a setting off. `exposure_visible_ratio` is in
/// 0…1; `exposure_duration` is in seconds, 0…86 400 (a negative one, however small, is
/// refused); each ignore list holds at most 10 000 names or ids of 1…1024 UTF-8 bytes.
/// `element_text` is `full`, `masked` or `none` (see `ElementTextPolicy`);
/// `mask_digit_runs` masks runs of that many digits or more (2…64; 0 turns it off).
public struct AutoTrackSettings: Hashable, Sendable {
    /// The automatic events recorded.
    public var eventTypes: AutomaticEventTypes
    /// Screen type names whose screen views, page leaves, and clicks and exposures on
    /// them are not recorded; subclasses included.
    public var ignoredScreenTypes: Set<String>
    /// Element type names whose clicks and exposures are not recorded; subclasses
    /// included.
    public var ignoredElementTypes: Set<String>
    /// `$element_id` values whose clicks and exposures are not recorded (an element's
    /// path hash or its app-assigned id).
    public var ignoredElementIDs: Set<String>
    /// When a watched element counts as seen, for elements watched without options of
    /// their own (see ``ElementExposureMonitor``).
    public var exposure: ExposureOptions
    /// How much of an element's text automatic events carry (full by default); a view
    /// that masks its text (`ElementNode.masksText`) is masked
    /// whatever this says.
    public var elementText: ElementTextPolicy
    /// What makes a burst of clicks a rage click, when `$AppRageClick` is recorded.
    public var rageClicks: RageClickRule
    /// How long a reported tap may wait for a click or screen view before it is a
    /// dead click (when `$AppDeadClick` is recorded): 1 s by default, up to 10 s.
    public var deadClickTimeout: Duration = .seconds(1)

    /// Creates settings; the defaults record everything.
    public init(
        eventTypes: AutomaticEventTypes = .standard, ignoredScreenTypes: Set<String> = [], ignoredElementTypes: Set<String> = [],
        ignoredElementIDs: Set<String> = [], exposure: ExposureOptions = .standard, elementText: ElementTextPolicy = .full,
        rageClicks: RageClickRule = .standard
    ) {
        self.rageClicks = rageClicks
        self.eventTypes = eventTypes
        self.ignoredScreenTypes = ignoredScreenTypes
        self.ignoredElementTypes = ignoredElementTypes
        self.ignoredElementIDs = ignoredElementIDs
        self.exposure = exposure
        self.elementText = elementText
    }

    /// The standard event types recorded, nothing ignored: the default.
    public static let standard = AutoTrackSettings()

    /// Whether an interaction a hook reported is recorded under these settings.
    public func records(_ interaction: Interaction) -> Bool {
        records(interaction.automaticEventType, element: interaction.element, screen: interaction.screen)
    }

    /// Whether an automatic event of `type` about `element` on `screen` is recorded
    /// under these settings.
    public func records(_ type: AutomaticEventTypes, element: ElementSnapshot?, screen: ScreenSnapshot?) -> Bool {
        guard eventTypes.contains(type) else { return false }
        if let screen, ignoredScreenTypes.containsAny(of: screen.typeHierarchy) { return false }
        guard let element else { return true }
        if ignoredElementTypes.containsAny(of: element.typeHierarchy) { return false }
        if !ignoredElementIDs.isEmpty, case .string(let id)? = element.properties["$element_id"], ignoredElementIDs.contains(id) { return false }
        return true
    }
}

extension Interaction {
    /// The automatic event an interaction becomes: a click, a screen view, a dead
    /// click when nothing answers a touch, a deep link or a notification open.
    public var automaticEventType: AutomaticEventTypes {
        switch point.kind {
        case .click: .appClick
        case .screenView: .appViewScreen
        case .touch: .appDeadClick
        case .appOpen: details.notification != nil ? .appPushClick : .appDeeplinkLaunch
        }
    }
}
