/// The rules an event must satisfy before it is stored, and the two ways to apply them.
///
/// - **Names** (event names and property keys) match `^[a-zA-Z_$][a-zA-Z0-9_$]{0,99}$`
///   and are not reserved. Reserved, compared case-insensitively: `distinct_id`,
///   `original_id`, `time`, `properties`, `id`, `first_id`, `second_id`, `users`,
///   `events`, `event`, `user_id`, `date`, `datetime`, `event_id`, `device_id` (as
///   the official Sensors SDKs have them), and anything starting with `user_tag` or
///   `user_group`.
/// - **Strings** longer than ``maximumStringBytes`` (8191) UTF-8 bytes are cut on a
///   character (grapheme cluster) boundary and marked by appending
///   ``truncationMarker`` (`$`); the result, marker included, fits the limit. List
///   elements are cut the same way. Truncation is not an error in either mode.
/// - **Numbers** must be finite: NaN, +∞ and −∞ are refused.
/// - **Dates** must lie in years 1…9999 (see ``Timestamp/earliestPropertyDate``).
/// - **Identifiers** (`distinct_id`, `anonymous_id`, `login_id`) are non-empty and at
///   most ``maximumIdentifierBytes`` (255) UTF-8 bytes.
///
/// Input from the app's own code goes through the throwing
/// ``validated(_:report:)``: the first problem is reported as a ``ValidationError``.
/// Values the SDK generated itself go through `sanitized(_:report:)`, which never
/// fails: offending properties are dropped, long strings truncated, and each repair is
/// counted in a ``SanitizationReport``. Both modes share one decision per property, so
/// they cannot disagree about what is valid.
public struct PropertyRules: Hashable, Sendable {
    /// The longest name, in characters.
    public var maximumNameLength: Int
    /// The longest string value, in UTF-8 bytes, marker included.
    public var maximumStringBytes: Int
    /// Appended to a truncated string so that readers can tell it was cut.
    public var truncationMarker: String
    /// Reserved names, lowercased.
    public var reservedNames: Set<String> {
        didSet { reservedIndex = ReservedIndex(names: reservedNames, prefixes: reservedPrefixes) }
    }
    /// Reserved name prefixes, lowercased.
    public var reservedPrefixes: [String] {
        didSet { reservedIndex = ReservedIndex(names: reservedNames, prefixes: reservedPrefixes) }
    }
    /// The reserved names and prefixes by first byte: a lowercase ASCII name is
    /// compared with those sharing its first byte (and, for names, its length) only —
    /// no hashing, and nothing at all for a `$` name.
    private var reservedIndex: ReservedIndex

    /// Reserved names and prefixes, bucketed by their first byte.
    private struct ReservedIndex: Hashable, Sendable {
        private var names: [[String]] = Array(repeating: [], count: 256)
        private var prefixes: [[String]] = Array(repeating: [], count: 256)
        /// An empty prefix, which reserves every name.
        private var reservesEverything = false

        init(names reserved: Set<String>, prefixes reservedPrefixes: [String]) {
            for name in reserved.sorted() { if let byte = name.utf8.first { names[Int(byte)].append(name) } }
            for prefix in reservedPrefixes {
                if let byte = prefix.utf8.first { prefixes[Int(byte)].append(prefix) } else { reservesEverything = true }
            }
        }

        /// Whether `name` (of `length` bytes, starting with `first`) is reserved.
        func reserves(_ name: String, first: UInt8, length: Int) -> Bool {
            if reservesEverything { return true }
            for candidate in names[Int(first)] where candidate.utf8.count == length && candidate == name { return true }
            for prefix in prefixes[Int(first)] where name.hasPrefix(prefix) { return true }
            return false
        }
    }
    /// The longest identifier, in UTF-8 bytes.
    public var maximumIdentifierBytes: Int

    /// Creates a rule set; the defaults are the collector's limits.
    public init(
        maximumNameLength: Int = 100,
        maximumStringBytes: Int = 8191,
        truncationMarker: String = "$",
        reservedNames: Set<String> = PropertyRules.collectorReservedNames,
        reservedPrefixes: [String] = PropertyRules.collectorReservedPrefixes,
        maximumIdentifierBytes: Int = 255
    ) {
        self.maximumNameLength = maximumNameLength
        self.maximumStringBytes = max(maximumStringBytes, truncationMarker.utf8.count)
        self.truncationMarker = truncationMarker
        let names = Set(reservedNames.map { $0.lowercased() })
        let prefixes = reservedPrefixes.map { $0.lowercased() }
        self.reservedNames = names
        self.reservedPrefixes = prefixes
        reservedIndex = ReservedIndex(names: names, prefixes: prefixes)
        self.maximumIdentifierBytes = maximumIdentifierBytes
    }

    /// The collector's reserved names.
    public static let collectorReservedNames: Set<String> = [
        "distinct_id", "original_id", "time", "properties", "id", "first_id", "second_id",
        "users", "events", "event", "user_id", "date", "datetime", "event_id", "device_id",
    ]

    /// The collector's reserved name prefixes.
    public static let collectorReservedPrefixes = ["user_tag", "user_group"]

    /// The collector's rules.
    public static let standard = PropertyRules()

    // MARK: Names

    /// Checks an event name or property key.
    /// - Throws: the first ``NameViolation`` found, checked in this order: empty,
    ///   first character, later characters, length, reserved.
    public func checkName(_ name: String) throws(NameViolation) {
        if checkASCIIName(name) { return }
        var length = 0
        for scalar in name.unicodeScalars {
            let allowed: Bool
            switch scalar.value {
            case 0x41...0x5A, 0x61...0x7A, 0x5F, 0x24: allowed = true // A-Z a-z _ $
            case 0x30...0x39: allowed = length > 0 // digits, not first
            default: allowed = false
            }
            if !allowed {
                let character = Self.character(containing: scalar, in: name)
                if length == 0 { throw .invalidFirstCharacter(character) }
                throw .invalidCharacter(character, offset: length)
            }
            length += 1
        }
        if length == 0 { throw .empty }
        if length > maximumNameLength { throw .tooLong(length: length, limit: maximumNameLength) }
        // Only ASCII remains, so lowercasing is cheap and locale-free.
        let lowered = name.lowercased()
        if reservedNames.contains(lowered) { throw .reserved(matched: lowered) }
        if let prefix = reservedPrefixes.first(where: { lowered.hasPrefix($0) }) {
            throw .reserved(matched: prefix)
        }
    }

    /// The common case without allocating: `true` when `name` is a valid, unreserved
    /// ASCII name; `false` when it must be looked at closely (it may still be valid —
    /// with capitals, say, whose reserved check needs the lowercased text).
    private func checkASCIIName(_ name: String) -> Bool {
        // Read as one buffer where the string has one (native strings do): the UTF-8
        // view's iterator cost a `track` call more than the rest of this check.
        let first = name.utf8.withContiguousStorageIfAvailable(Self.lowercaseNameStart) ?? Self.lowercaseNameStart(name.utf8)
        guard let first, name.utf8.count <= maximumNameLength else { return false }
        // Already lowercase: the reserved lists compare as they are.
        return !reservedIndex.reserves(name, first: first, length: name.utf8.count)
    }

    /// The first byte of `bytes` when they are a non-empty run of `a-z`, `_`, `$` and,
    /// after the first, digits; `nil` otherwise.
    private static func lowercaseNameStart(_ bytes: some Collection<UInt8>) -> UInt8? {
        var isFirst = true
        for byte in bytes {
            switch byte {
            case 0x61...0x7A, 0x5F, 0x24: break // a-z _ $
            case 0x30...0x39 where !isFirst: break
            default: return nil
            }
            isFirst = false
        }
        return bytes.first
    }

    /// The whole character (grapheme cluster) of `name` that holds `scalar`, so that a
    /// diagnostic shows `é`, not a dangling combining mark.
    private static func character(containing scalar: Unicode.Scalar, in name: String) -> Character {
        for character in name where character.unicodeScalars.contains(scalar) {
            return character
        }
        return Character(scalar)
    }

    // MARK: Strings

    /// `text` cut to ``maximumStringBytes`` and marked, or `nil` when it already fits.
    ///
    /// The cut falls on a character boundary: a multi-byte scalar or a grapheme cluster
    /// (an emoji with modifiers, a letter with combining marks) is kept whole or left
    /// out whole.
    public func truncated(_ text: String) -> String? {
        guard text.utf8.count > maximumStringBytes else { return nil }
        let budget = maximumStringBytes - truncationMarker.utf8.count
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let size = text[index].utf8.count
            if used + size > budget { break }
            used += size
            end = text.index(after: index)
        }
        return String(text[..<end]) + truncationMarker
    }

    // MARK: Identifiers

    /// Checks an identifier for `field` (`distinct_id`, `anonymous_id` or `login_id`).
    public func checkIdentifier(_ identifier: String, field: String) throws(ValidationError) {
        if identifier.isEmpty { throw .invalidIdentifier(field: field, .empty) }
        let bytes = identifier.utf8.count
        if bytes > maximumIdentifierBytes {
            throw .invalidIdentifier(field: field, .tooLong(bytes: bytes, limit: maximumIdentifierBytes))
        }
    }

    /// Checks every field of `identity`.
    public func checkIdentity(_ identity: Identity) throws(ValidationError) {
        try checkIdentifier(identity.distinctID, field: "distinct_id")
        if let anonymous = identity.anonymousID { try checkIdentifier(anonymous, field: "anonymous_id") }
        if let login = identity.loginID { try checkIdentifier(login, field: "login_id") }
    }

    // MARK: Properties

    /// The decision for one property, shared by both modes.
    private enum Verdict {
        case keep(PropertyValue, truncations: Int)
        case refuse(ValidationError)
    }

    private func verdict(key: String, value: PropertyValue) -> Verdict {
        do {
            try checkName(key)
        } catch {
            return .refuse(.invalidPropertyKey(key, error))
        }
        switch value {
        case .string(let text):
            if let cut = truncated(text) { return .keep(.string(cut), truncations: 1) }
        case .number(let number):
            if let kind = NonFiniteKind(number) { return .refuse(.nonFiniteNumber(key: key, kind)) }
        case .date(let time):
            if !time.isRepresentableAsPropertyDate { return .refuse(.dateOutOfRange(key: key, time)) }
        case .strings(let list):
            var truncations = 0
            let repaired = list.map { element -> String in
                guard let cut = truncated(element) else { return element }
                truncations += 1
                return cut
            }
            if truncations > 0 { return .keep(.strings(repaired), truncations: truncations) }
        case .integer, .bool:
            break
        }
        return .keep(value, truncations: 0)
    }

    /// Validates a caller's properties: long strings are truncated (and counted in
    /// `report`); anything else wrong is thrown.
    /// - Throws: the first ``ValidationError`` in property order.
    public func validated(
        _ properties: Properties, report: inout SanitizationReport
    ) throws(ValidationError) -> Properties {
        var result = properties
        for (key, value) in properties {
            switch verdict(key: key, value: value) {
            case .refuse(let error):
                throw error
            case .keep(let kept, let truncations):
                if truncations > 0 {
                    result[key] = kept
                    report.truncatedStrings += truncations
                }
            }
        }
        return result
    }

    /// Validates a caller's properties, discarding the truncation count.
    public func validated(_ properties: Properties) throws(ValidationError) -> Properties {
        var report = SanitizationReport()
        return try validated(properties, report: &report)
    }

    /// Sanitises SDK-generated properties: never fails; offending properties are
    /// dropped, long strings truncated, and every repair is counted in `report`.
    public func sanitized(_ properties: Properties, report: inout SanitizationReport) -> Properties {
        var result = properties
        for (key, value) in properties {
            switch verdict(key: key, value: value) {
            case .keep(let kept, let truncations):
                if truncations > 0 {
                    result[key] = kept
                    report.truncatedStrings += truncations
                }
            case .refuse(let error):
                result.removeValue(forKey: key)
                switch error {
                case .invalidPropertyKey(_, .reserved): report.droppedReservedKeys += 1
                case .invalidPropertyKey: report.droppedInvalidKeys += 1
                case .nonFiniteNumber: report.droppedNonFiniteNumbers += 1
                case .dateOutOfRange: report.droppedOutOfRangeDates += 1
                case .invalidEventName, .invalidIdentifier: break // not produced per property
                }
            }
        }
        return result
    }

    // MARK: Events

    /// Builds an event from a caller's input, validating name, identity and properties.
    /// - Throws: the first ``ValidationError`` found.
    public func makeEvent(
        name: String,
        properties: Properties,
        time: Timestamp,
        identity: Identity,
        library: LibraryInfo = .autoTrack,
        id: EventID,
        report: inout SanitizationReport
    ) throws(ValidationError) -> Event {
        let eventName = try EventName(validating: name, rules: self)
        try checkIdentity(identity)
        let checked = try validated(properties, report: &report)
        return Event(id: id, name: eventName, time: time, identity: identity, library: library, properties: checked)
    }

    /// Sanitises an SDK-generated event's properties; see `sanitized(_:report:)`.
    public func sanitized(_ event: Event, report: inout SanitizationReport) -> Event {
        var copy = event
        copy.properties = sanitized(event.properties, report: &report)
        return copy
    }
}
