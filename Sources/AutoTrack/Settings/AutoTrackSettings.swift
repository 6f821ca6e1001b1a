/// AutoTrackEvents: `EventName` appears in this file's public API.
public import AutoTrackEvents
/// AutoTrackInterception: `Interaction` appears in this file's public API.
public import AutoTrackInterception
/// AutoTrackSerialization: `JSONSyntaxError` appears in this file's public API.
public import AutoTrackSerialization
import AutoTrackProperties

/// The automatic events a tracker records.
public struct AutomaticEventTypes: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: UInt8
    /// Creates a set from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

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
    public static let standard: AutomaticEventTypes = [.appStart, .appEnd, .appClick, .appViewScreen, .appElementExposure]
    /// `$AppElementExposure` of the elements the app watches (see
    /// ``ElementExposureMonitor``): on in the standard set, since watching an element
    /// is the app's own request.
    public static let appElementExposure = AutomaticEventTypes(rawValue: 1 << 5)
    /// Every automatic event, page leaves included.
    public static let all: AutomaticEventTypes = [.standard, .appPageLeave]

    /// Each single type with its event name, in a fixed order.
    public static let named: [(type: AutomaticEventTypes, name: EventName)] = [
        (.appStart, .appStart), (.appEnd, .appEnd), (.appClick, .appClick), (.appViewScreen, .appViewScreen),
        (.appPageLeave, .appPageLeave), (.appElementExposure, .appElementExposure),
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
///   "exposure_repeats": true
/// }
/// ```
///
/// Every key is optional (a missing one keeps its default: the standard event types,
/// nothing ignored, ``ExposureOptions/standard``). Unknown keys, a `version` other than
/// 1, unknown event names, values of the wrong type and values out of range are typed
/// errors, so a typo never silently turns a setting off. `exposure_visible_ratio` is in
/// 0…1; `exposure_duration` is in seconds, 0…86 400 (a negative one, however small, is
/// refused); each ignore list holds at most 10 000 names or ids of 1…1024 UTF-8 bytes.
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

    /// Creates settings; the defaults record everything.
    public init(
        eventTypes: AutomaticEventTypes = .standard, ignoredScreenTypes: Set<String> = [], ignoredElementTypes: Set<String> = [],
        ignoredElementIDs: Set<String> = [], exposure: ExposureOptions = .standard
    ) {
        self.eventTypes = eventTypes
        self.ignoredScreenTypes = ignoredScreenTypes
        self.ignoredElementTypes = ignoredElementTypes
        self.ignoredElementIDs = ignoredElementIDs
        self.exposure = exposure
    }

    /// The standard event types recorded, nothing ignored: the default.
    public static let standard = AutoTrackSettings()

    /// Whether an interaction a hook reported is recorded under these settings.
    public func records(_ interaction: Interaction) -> Bool {
        records(interaction.point.isScreenView ? .appViewScreen : .appClick, element: interaction.element, screen: interaction.screen)
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

// MARK: - The JSON document

/// Why a settings document was refused. The tracker keeps the settings it had.
public enum AutoTrackSettingsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The document is not JSON.
    case syntax(JSONSyntaxError)
    /// The document is JSON but not an object.
    case notAnObject(found: String)
    /// A key this version does not know (a typo, or a newer document).
    case unknownKey(String)
    /// A key appears twice.
    case duplicateKey(String)
    /// `version` is not 1.
    case unsupportedVersion(String)
    /// A key's value has the wrong JSON type.
    case wrongType(key: String, expected: String, found: String)
    /// `event_types` names an event that is not an automatic one.
    case unknownEventType(String)
    /// The exposure keys give options ``ExposureOptions`` refuses.
    case invalidExposure(ExposureOptionsError)
    /// A value outside the range its key allows.
    case outOfRange(key: String, found: String, allowed: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .syntax(let error): "autotrack settings are not valid JSON: \(error)"
        case .notAnObject(let found): "autotrack settings must be a JSON object, found \(found)"
        case .unknownKey(let key): "autotrack settings: unknown key \"\(key)\""
        case .duplicateKey(let key): "autotrack settings: key \"\(key)\" appears twice"
        case .unsupportedVersion(let version): "autotrack settings: unsupported version \(version), expected 1"
        case .wrongType(let key, let expected, let found): "autotrack settings: \"\(key)\" must be \(expected), found \(found)"
        case .invalidExposure(let error): "autotrack settings: \(error)"
        case .outOfRange(let key, let found, let allowed): "autotrack settings: \"\(key)\" is \(found), allowed \(allowed)"
        case .unknownEventType(let name):
            "autotrack settings: \"\(name)\" is not an automatic event (expected one of \(AutomaticEventTypes.named.map(\.name.rawValue).joined(separator: ", ")))"
        }
    }
}

extension AutoTrackSettings {
    /// The document's keys.
    private enum Key {
        static let version = "version"
        static let eventTypes = "event_types"
        static let ignoredScreens = "ignored_screens"
        static let ignoredElementTypes = "ignored_element_types"
        static let ignoredElementIDs = "ignored_element_ids"
        static let exposureVisibleRatio = "exposure_visible_ratio"
        static let exposureDuration = "exposure_duration"
        static let exposureRepeats = "exposure_repeats"
        static let all: Set<String> = [
            version, eventTypes, ignoredScreens, ignoredElementTypes, ignoredElementIDs, exposureVisibleRatio, exposureDuration,
            exposureRepeats,
        ]
    }

    /// Reads a complete settings document (see ``AutoTrackSettings``): a key it
    /// leaves out takes its default.
    public init(json bytes: some Collection<UInt8>) throws(AutoTrackSettingsError) {
        self = try AutoTrackSettings().applying(json: bytes)
    }

    /// One setting a document may change.
    public enum Setting: String, Hashable, Sendable, CaseIterable {
        /// `event_types`.
        case eventTypes = "event_types"
        /// `ignored_screens`.
        case ignoredScreens = "ignored_screens"
        /// `ignored_element_types`.
        case ignoredElementTypes = "ignored_element_types"
        /// `ignored_element_ids`.
        case ignoredElementIDs = "ignored_element_ids"
        /// The exposure options (`exposure_visible_ratio`, `exposure_duration`,
        /// `exposure_repeats`).
        case exposure
    }

    /// The settings that differ between these and `other`.
    public func differences(from other: AutoTrackSettings) -> Set<Setting> {
        var changed = Set<Setting>()
        if eventTypes != other.eventTypes { changed.insert(.eventTypes) }
        if ignoredScreenTypes != other.ignoredScreenTypes { changed.insert(.ignoredScreens) }
        if ignoredElementTypes != other.ignoredElementTypes { changed.insert(.ignoredElementTypes) }
        if ignoredElementIDs != other.ignoredElementIDs { changed.insert(.ignoredElementIDs) }
        if exposure != other.exposure { changed.insert(.exposure) }
        return changed
    }

    /// These settings with the keys `bytes` holds applied, and no others: a document
    /// says what it changes, and `{}` changes nothing. An exposure key left out keeps
    /// its value here.
    public func applying(json bytes: some Collection<UInt8>) throws(AutoTrackSettingsError) -> AutoTrackSettings {
        var updated = self
        try updated.apply(json: bytes)
        return updated
    }

    private mutating func apply(json bytes: some Collection<UInt8>) throws(AutoTrackSettingsError) {
        let document: JSONValue
        do { document = try JSONParser(maximumDepth: 8).parse(bytes) } catch { throw .syntax(error) }
        guard case .object(let members) = document else { throw .notAnObject(found: document.typeName) }
        var seen = Set<String>()
        for member in members {
            guard Key.all.contains(member.key) else { throw .unknownKey(member.key) }
            guard seen.insert(member.key).inserted else { throw .duplicateKey(member.key) }
        }
        if let version = document[Key.version] {
            guard case .integer(let number) = version else { throw .wrongType(key: Key.version, expected: "an integer", found: version.typeName) }
            guard number == 1 else { throw .unsupportedVersion(String(number)) }
        }
        if let names = try Self.strings(document, Key.eventTypes) {
            var types: AutomaticEventTypes = []
            for name in names {
                guard let match = AutomaticEventTypes.named.first(where: { $0.name.rawValue == name }) else { throw .unknownEventType(name) }
                types.insert(match.type)
            }
            eventTypes = types
        }
        if let names = try Self.strings(document, Key.ignoredScreens) { ignoredScreenTypes = Set(names) }
        if let names = try Self.strings(document, Key.ignoredElementTypes) { ignoredElementTypes = Set(names) }
        if let ids = try Self.strings(document, Key.ignoredElementIDs) { ignoredElementIDs = Set(ids) }
        let ratio = try Self.number(document, Key.exposureVisibleRatio) ?? exposure.minimumVisibleRatio
        let seconds = try Self.number(document, Key.exposureDuration)
        if let seconds, !(seconds >= 0 && seconds <= Self.maximumExposureSeconds) {
            throw .outOfRange(key: Key.exposureDuration, found: "\(seconds)", allowed: "0…\(Int(Self.maximumExposureSeconds)) seconds")
        }
        var repeats = exposure.repeats
        if let value = document[Key.exposureRepeats] {
            guard case .bool(let flag) = value else { throw .wrongType(key: Key.exposureRepeats, expected: "true or false", found: value.typeName) }
            repeats = flag
        }
        // Whole microseconds: no rounding surprise for "1.5".
        let duration = seconds.map { Duration.microseconds(Int64(($0 * 1_000_000).rounded())) } ?? exposure.minimumDuration
        do {
            exposure = try ExposureOptions(minimumVisibleRatio: ratio, minimumDuration: duration, repeats: repeats)
        } catch {
            throw .invalidExposure(error)
        }
    }

    /// The longest `exposure_duration`, in seconds: a day.
    static let maximumExposureSeconds: Double = 86_400
    /// The most entries in one of the ignore lists.
    static let maximumListEntries = 10_000
    /// The longest name or id in an ignore list, in UTF-8 bytes.
    static let maximumNameBytes = 1024

    /// The number under `key` (an integer or not), `nil` when the key is absent.
    private static func number(_ document: JSONValue, _ key: String) throws(AutoTrackSettingsError) -> Double? {
        switch document[key] {
        case nil: nil
        case .integer(let value)?: Double(value)
        case .number(let value)?: value
        case let other?: throw .wrongType(key: key, expected: "a number", found: other.typeName)
        }
    }

    /// The array of strings under `key`, `nil` when the key is absent.
    private static func strings(_ document: JSONValue, _ key: String) throws(AutoTrackSettingsError) -> [String]? {
        guard let value = document[key] else { return nil }
        let expected = "an array of strings"
        guard case .array(let items) = value else { throw .wrongType(key: key, expected: expected, found: value.typeName) }
        guard items.count <= maximumListEntries else {
            throw .outOfRange(key: key, found: "\(items.count) entries", allowed: "at most \(maximumListEntries)")
        }
        var strings: [String] = []
        strings.reserveCapacity(items.count)
        for item in items {
            guard case .string(let string) = item else { throw .wrongType(key: key, expected: expected, found: "an array holding \(item.typeName)") }
            guard !string.isEmpty, string.utf8.count <= maximumNameBytes else {
                throw .outOfRange(key: key, found: "an entry of \(string.utf8.count) UTF-8 bytes", allowed: "1…\(maximumNameBytes) bytes")
            }
            strings.append(string)
        }
        return strings
    }

    /// The document for these settings, in the format ``init(json:)`` reads; lists
    /// sorted so equal settings give equal documents.
    public var jsonDocument: String {
        let names = AutomaticEventTypes.named.filter { eventTypes.contains($0.type) }.map(\.name.rawValue)
        let document: Properties = [
            Key.version: .integer(1),
            Key.eventTypes: .strings(names),
            Key.ignoredScreens: .strings(ignoredScreenTypes.sorted()),
            Key.ignoredElementTypes: .strings(ignoredElementTypes.sorted()),
            Key.ignoredElementIDs: .strings(ignoredElementIDs.sorted()),
            Key.exposureVisibleRatio: .number(exposure.minimumVisibleRatio),
            Key.exposureDuration: .number(Double(exposure.minimumDuration.components.seconds) + Double(exposure.minimumDuration.components.attoseconds) / 1e18),
            Key.exposureRepeats: .bool(exposure.repeats),
        ]
        return String(decoding: EventJSONEncoder(layout: .pretty).encode(document), as: UTF8.self)
    }
}
