/// AutoTrackSerialization: `JSONSyntaxError` appears in this file's public API.
public import AutoTrackSerialization
import AutoTrackEvents
import AutoTrackProperties

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
        static let elementText = "element_text"
        static let maskDigitRuns = "mask_digit_runs"
        static let rageClickCount = "rage_click_count"
        static let rageClickWindow = "rage_click_window"
        static let deadClickTimeout = "dead_click_timeout"
        static let all: Set<String> = [
            version, eventTypes, ignoredScreens, ignoredElementTypes, ignoredElementIDs, exposureVisibleRatio, exposureDuration,
            exposureRepeats, elementText, maskDigitRuns, rageClickCount, rageClickWindow, deadClickTimeout,
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
        /// The element text policy (`element_text`, `mask_digit_runs`).
        case elementText = "element_text"
        /// The rage-click rule (`rage_click_count`, `rage_click_window`).
        case rageClicks = "rage_clicks"
        /// `dead_click_timeout`.
        case deadClickTimeout = "dead_click_timeout"
    }

    /// The settings that differ between these and `other`.
    public func differences(from other: AutoTrackSettings) -> Set<Setting> {
        var changed = Set<Setting>()
        if eventTypes != other.eventTypes { changed.insert(.eventTypes) }
        if ignoredScreenTypes != other.ignoredScreenTypes { changed.insert(.ignoredScreens) }
        if ignoredElementTypes != other.ignoredElementTypes { changed.insert(.ignoredElementTypes) }
        if ignoredElementIDs != other.ignoredElementIDs { changed.insert(.ignoredElementIDs) }
        if exposure != other.exposure { changed.insert(.exposure) }
        if elementText != other.elementText { changed.insert(.elementText) }
        if rageClicks != other.rageClicks { changed.insert(.rageClicks) }
        if deadClickTimeout != other.deadClickTimeout { changed.insert(.deadClickTimeout) }
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

    /// These settings with the keys of a parsed settings document applied (a
    /// document inside another, as the C API's configuration holds one).
    public func applying(document: JSONValue) throws(AutoTrackSettingsError) -> AutoTrackSettings {
        var updated = self
        try updated.apply(document: document)
        return updated
    }

    private mutating func apply(json bytes: some Collection<UInt8>) throws(AutoTrackSettingsError) {
        let document: JSONValue
        do { document = try JSONParser(maximumDepth: 8).parse(bytes) } catch { throw .syntax(error) }
        try apply(document: document)
    }

    private mutating func apply(document: JSONValue) throws(AutoTrackSettingsError) {
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
        if let value = document[Key.elementText] {
            guard case .string(let name) = value else { throw .wrongType(key: Key.elementText, expected: "a string", found: value.typeName) }
            guard let capture = ElementTextCapture(rawValue: name) else {
                throw .outOfRange(key: Key.elementText, found: "\"\(name)\"", allowed: "\"full\", \"masked\" or \"none\"")
            }
            elementText.capture = capture
        }
        if let value = document[Key.maskDigitRuns] {
            guard case .integer(let length) = value else { throw .wrongType(key: Key.maskDigitRuns, expected: "an integer", found: value.typeName) }
            guard length == 0 || (2...64).contains(length) else {
                throw .outOfRange(key: Key.maskDigitRuns, found: "\(length)", allowed: "0 (off) or 2…64 digits")
            }
            elementText.digitRunMask = length == 0 ? nil : Int(length)
        }
        try applyRageClicks(document)
    }

    /// `rage_click_count` (2…50) and `rage_click_window` (seconds, up to 10); a key
    /// left out keeps its value.
    private mutating func applyRageClicks(_ document: JSONValue) throws(AutoTrackSettingsError) {
        var clicks = rageClicks.clicks
        if let value = document[Key.rageClickCount] {
            guard case .integer(let count) = value else { throw .wrongType(key: Key.rageClickCount, expected: "an integer", found: value.typeName) }
            guard (2...50).contains(count) else { throw .outOfRange(key: Key.rageClickCount, found: "\(count)", allowed: "2…50 clicks") }
            clicks = Int(count)
        }
        let window = try Self.shortDuration(document, Key.rageClickWindow) ?? rageClicks.window
        rageClicks = RageClickRule(clicks: clicks, window: window) ?? rageClicks
        deadClickTimeout = try Self.shortDuration(document, Key.deadClickTimeout) ?? deadClickTimeout
    }

    /// The number of seconds under `key` — more than 0, at most 10 — as a duration to
    /// the microsecond; `nil` when the key is absent.
    private static func shortDuration(_ document: JSONValue, _ key: String) throws(AutoTrackSettingsError) -> Duration? {
        guard let seconds = try number(document, key) else { return nil }
        guard seconds > 0, seconds <= 10 else { throw .outOfRange(key: key, found: "\(seconds)", allowed: "more than 0, at most 10 seconds") }
        return .microseconds(Int64((seconds * 1_000_000).rounded()))
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
            Key.exposureDuration: .number(exposure.minimumDuration.inSeconds),
            Key.exposureRepeats: .bool(exposure.repeats),
            Key.elementText: .string(elementText.capture.rawValue),
            Key.maskDigitRuns: .integer(Int64(elementText.digitRunMask ?? 0)),
            Key.rageClickCount: .integer(Int64(rageClicks.clicks)),
            Key.rageClickWindow: .number(rageClicks.window.inSeconds),
            Key.deadClickTimeout: .number(deadClickTimeout.inSeconds),
        ]
        return String(decoding: EventJSONEncoder(layout: .pretty).encode(document), as: UTF8.self)
    }
}
