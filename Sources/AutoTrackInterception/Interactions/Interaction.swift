/// AutoTrackEvents: `Properties` appears in this file's public API.
public import AutoTrackEvents
/// AutoTrackProperties: `AlertContext`, `ElementRole`, `ListPosition`, `Point` appear in this file's public API.
public import AutoTrackProperties

/// An element as it was when the interaction happened: what filters need, plus the
/// collected `$element_*` and control properties.
public struct ElementSnapshot: Hashable, Sendable {
    /// The app-visible type name.
    public var typeName: String
    /// The type and its ancestors' names.
    public var typeHierarchy: [String]
    /// The role.
    public var role: ElementRole
    /// The accessibility identifier.
    public var accessibilityIdentifier: String?
    /// `$element_type`, `$element_content`, `$element_position`, `$element_path`,
    /// `$element_id` and the control attributes, in that order.
    public var properties: Properties
    /// Whether the app asked automatic capture to leave this element alone (it, or a
    /// view above it for its descendants).
    public var isIgnored: Bool
    /// Whether the element or a view above it asks for its text to be masked.
    public var isTextMasked: Bool
    /// Whether rapid taps are the element's normal use: never a rage click.
    public var allowsRapidTaps: Bool
    /// Whether a tap on the element may rightly do nothing: never a dead click.
    public var tapsMayDoNothing: Bool

    /// Creates a snapshot.
    public init(
        typeName: String, typeHierarchy: [String], role: ElementRole, accessibilityIdentifier: String?, properties: Properties,
        isIgnored: Bool = false, isTextMasked: Bool = false, allowsRapidTaps: Bool = false, tapsMayDoNothing: Bool = false
    ) {
        self.tapsMayDoNothing = tapsMayDoNothing
        self.allowsRapidTaps = allowsRapidTaps
        self.typeName = typeName
        self.typeHierarchy = typeHierarchy
        self.role = role
        self.accessibilityIdentifier = accessibilityIdentifier
        self.properties = properties
        self.isIgnored = isIgnored
        self.isTextMasked = isTextMasked
    }
}

/// A screen as it was when the interaction happened.
public struct ScreenSnapshot: Hashable, Sendable {
    /// The app-visible type name (`$screen_name`).
    public var typeName: String
    /// The type and its ancestors' names.
    public var typeHierarchy: [String]
    /// `$screen_name`, `$title`, `$url`, `$referrer` and the screen's own properties.
    public var properties: Properties
    /// How the screen is shown.
    public var presentation: ScreenPresentation
    /// Which screen object it is, to match its disappearance with its page; `nil`
    /// when unknown.
    public var instance: ObjectIdentifier?
    /// Which presented screen it belongs to (itself or a container above it), `nil`
    /// when none or unknown: a screen view in another presentation covers the page.
    public var presentationRoot: ObjectIdentifier?
    /// Whether its presentation was being dismissed when the snapshot was taken.
    public var isBeingDismissed: Bool

    /// Creates a snapshot.
    public init(
        typeName: String, typeHierarchy: [String], properties: Properties, presentation: ScreenPresentation = .fullScreen,
        instance: ObjectIdentifier? = nil, presentationRoot: ObjectIdentifier? = nil, isBeingDismissed: Bool = false
    ) {
        self.typeName = typeName
        self.typeHierarchy = typeHierarchy
        self.properties = properties
        self.presentation = presentation
        self.instance = instance
        self.presentationRoot = presentationRoot
        self.isBeingDismissed = isBeingDismissed
    }
}

/// Point-specific facts about an interaction.
public struct InteractionDetails: Hashable, Sendable {
    /// The action selector (send-action, gesture).
    public var actionName: String?
    /// The selected row or item (delegate selection).
    public var listPosition: ListPosition?
    /// The kind of gesture recognised (gesture).
    public var gestureKind: GestureKind?
    /// The alert's title, message, action title and style (alert action).
    public var alert: AlertContext?
    /// Whether the appearance was animated (screen view).
    public var animated: Bool?
    /// Why a screen view was recorded (screen view).
    public var screenViewReason: ScreenViewReason?
    /// The URL the app was asked to open (open URL).
    public var openedURL: String?
    /// The notification the user responded to (notification response).
    public var notification: NotificationContent?

    /// Creates details.
    public init(
        actionName: String? = nil, listPosition: ListPosition? = nil, gestureKind: GestureKind? = nil,
        alert: AlertContext? = nil, animated: Bool? = nil, screenViewReason: ScreenViewReason? = nil,
        openedURL: String? = nil, notification: NotificationContent? = nil
    ) {
        self.openedURL = openedURL
        self.notification = notification
        self.actionName = actionName
        self.listPosition = listPosition
        self.gestureKind = gestureKind
        self.alert = alert
        self.animated = animated
        self.screenViewReason = screenViewReason
    }

    /// What a notification showed: its title and body, and the service that sent it
    /// when its payload says.
    public struct NotificationContent: Hashable, Sendable {
        /// The title.
        public var title: String?
        /// The body.
        public var body: String?
        /// The sending service, when known.
        public var service: String?

        /// Creates the content.
        public init(title: String?, body: String?, service: String? = nil) {
            self.title = title
            self.body = body
            self.service = service
        }
    }

    /// The kind of gesture a recognizer recognised. Open: a host with recognizers of
    /// its own names them with ``init(_:)``.
    public struct GestureKind: Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, e.g. `tap`.
        public let name: String

        /// A kind named `name`.
        public init(_ name: String) { self.name = name }

        /// A tap, recognised once when it ends.
        public static let tap = GestureKind("tap")
        /// A long press, recognised when it begins.
        public static let longPress = GestureKind("longPress")

        /// The name.
        public var description: String { name }
    }

    /// Why a screen view was recorded.
    public enum ScreenViewReason: Hashable, Sendable, CustomStringConvertible {
        /// The screen appeared (`viewDidAppear:`).
        case appear
        /// The app returned from the background with the screen visible: the same
        /// screen again, so it keeps the `$referrer` it had.
        case foreground

        /// `appear` or `foreground`.
        public var description: String {
            switch self {
            case .appear: "appear"
            case .foreground: "foreground"
            }
        }
    }
}

/// What a hook reports: one user action at one interception point.
public struct Interaction: Hashable, Sendable {
    /// Where it was intercepted.
    public var point: InterceptionPoint {
        _read { yield storage.point }
        set { storage = storage.replacing(point: newValue) }
    }
    /// The element acted on; `nil` for screen views.
    public var element: ElementSnapshot? {
        _read { yield storage.element }
        set { storage = storage.replacing(element: newValue) }
    }
    /// The screen it happened on.
    public var screen: ScreenSnapshot? {
        _read { yield storage.screen }
        set { storage = storage.replacing(screen: newValue) }
    }
    /// Point-specific facts.
    public var details: InteractionDetails {
        _read { yield storage.details }
        set { storage = storage.replacing(details: newValue) }
    }
    /// The name of the hook strategy that captured it.
    public var capturedBy: String {
        _read { yield storage.capturedBy }
        set { storage = storage.replacing(capturedBy: newValue) }
    }

    /// The fields, shared by copies: an interaction is handed from the hook to the
    /// context, the sink and the tracker's worker, and each copy of the fields
    /// themselves would retain every string and array of both snapshots. Reading a
    /// field borrows it (`_read`): `interaction.screen?.instance` copies one value, not
    /// the whole snapshot. Setting one makes new storage, which is rare (filters and
    /// tests), so the fields are constants and reading them needs no exclusivity check.
    private var storage: Storage

    // Sendable: every field is a constant of a Sendable type.
    private final class Storage: Sendable {
        let point: InterceptionPoint
        let element: ElementSnapshot?
        let screen: ScreenSnapshot?
        let details: InteractionDetails
        let capturedBy: String

        init(point: InterceptionPoint, element: ElementSnapshot?, screen: ScreenSnapshot?, details: InteractionDetails, capturedBy: String) {
            self.point = point
            self.element = element
            self.screen = screen
            self.details = details
            self.capturedBy = capturedBy
        }

        /// This storage with the fields given changed.
        func replacing(
            point: InterceptionPoint? = nil, element: ElementSnapshot?? = nil, screen: ScreenSnapshot?? = nil,
            details: InteractionDetails? = nil, capturedBy: String? = nil
        ) -> Storage {
            Storage(point: point ?? self.point, element: element ?? self.element, screen: screen ?? self.screen,
                    details: details ?? self.details, capturedBy: capturedBy ?? self.capturedBy)
        }
    }

    /// Creates an interaction.
    public init(point: InterceptionPoint, element: ElementSnapshot?, screen: ScreenSnapshot?, details: InteractionDetails, capturedBy: String) {
        storage = Storage(point: point, element: element, screen: screen, details: details, capturedBy: capturedBy)
    }

    /// Equal when every field is.
    public static func == (lhs: Interaction, rhs: Interaction) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.point == rhs.point && lhs.element == rhs.element && lhs.screen == rhs.screen && lhs.details == rhs.details
                && lhs.capturedBy == rhs.capturedBy)
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(point)
        hasher.combine(element)
        hasher.combine(screen)
        hasher.combine(details)
        hasher.combine(capturedBy)
    }
}

/// Receives interactions from hooks. Called on the thread of the user action, before
/// the intercepted original runs; should be quick. A sink that throws never stops or
/// repeats the original — the error is counted (see ``InterceptionDiagnostics``).
public protocol InteractionSink: AnyObject, Sendable {
    /// Takes one interaction.
    func receive(_ interaction: Interaction) throws

    /// Told about a screen view the context's exclusions dropped: nothing is recorded
    /// for it, but the screen shown before it has been left (a tracker ends that
    /// screen's page time here). Called where ``receive(_:)`` would have been.
    func receiveExcludedScreenView(_ interaction: Interaction)

    /// Told that a screen disappeared (`viewDidDisappear:`): a tracker ends its page
    /// time here and resumes the page of the screen seen again.
    func receiveScreenDisappearance(_ screen: ScreenSnapshot)
}

extension InteractionSink {
    /// Nothing: a sink that keeps no page time ignores excluded screen views.
    public func receiveExcludedScreenView(_ interaction: Interaction) {}
    /// Nothing: a sink that keeps no page time ignores disappearances.
    public func receiveScreenDisappearance(_ screen: ScreenSnapshot) {}
}
