import AutoTrackEvents
import AutoTrackSerialization
import Foundation

/// Shared builders for the serialization tests.
enum Fixtures {
    /// The preset properties the tutorials' demo app printed (iOS simulator).
    static let seedPreset: [(String, PropertyValue)] = [
        ("$model", "x86_64"), ("$manufacturer", "Apple"),
    ]

    static func event(
        name: EventName = .appClick,
        time: Int64 = 1_648_801_408_348,
        properties: Properties = [:],
        id: Int64 = 1,
        identity: Identity = .anonymous("device-1"),
        library: LibraryInfo = LibraryInfo(name: "iOS", version: "1.0.0", method: .autoTrack, appVersion: "1.0")
    ) -> Event {
        Event(
            id: EventID(rawValue: id)!, name: name, time: Timestamp(millisecondsSince1970: time),
            identity: identity, library: library, properties: properties)
    }

    /// `value` parsed by Foundation's JSONSerialization.
    static func foundationParse(_ bytes: [UInt8]) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// The Foundation value an event is expected to parse to.
    static func foundationValue(of event: Event, dateOffsetSeconds: Int = 0) -> NSDictionary {
        var library: [String: Any] = [
            "$lib": event.library.name, "$lib_version": event.library.version,
            "$lib_method": event.library.method.rawValue,
        ]
        if let appVersion = event.library.appVersion { library["$app_version"] = appVersion }
        var properties: [String: Any] = [:]
        for (key, value) in event.properties { properties[key] = foundationValue(of: value, dateOffsetSeconds: dateOffsetSeconds) }
        var record: [String: Any] = [
            "event": event.name.rawValue,
            "time": NSNumber(value: event.time.millisecondsSince1970),
            "properties": properties,
            "type": event.type.rawValue,
            "distinct_id": event.identity.distinctID,
            "lib": library,
            "_track_id": NSNumber(value: event.id.rawValue),
        ]
        if let anonymous = event.identity.anonymousID { record["anonymous_id"] = anonymous }
        if let login = event.identity.loginID { record["login_id"] = login }
        return record as NSDictionary
    }

    static func foundationValue(of value: PropertyValue, dateOffsetSeconds: Int) -> Any {
        switch value {
        case .string(let text): text
        case .integer(let number): NSNumber(value: number)
        case .number(let number): NSNumber(value: number)
        case .bool(let flag): NSNumber(value: flag)
        case .date(let time): formatDate(time, offsetSeconds: dateOffsetSeconds)
        case .strings(let list): list
        }
    }

    /// An independent date rendering through Foundation's calendar, to check ours.
    ///
    /// Foundation's calendar is Julian before 15 October 1582, ours proleptic
    /// Gregorian; the Gregorian calendar repeats every 400 years (146 097 days), so an
    /// earlier instant is moved forward by whole cycles and its year moved back.
    static func formatDate(_ time: Timestamp, offsetSeconds: Int) -> String {
        let cycle: Int64 = 146_097 * 86_400_000
        var shifted = time.millisecondsSince1970
        var cycles = 0
        while shifted < -12_212_553_600_000 + 86_400_000 { // before 1583-01-02
            shifted += cycle
            cycles += 1
        }
        let text = formatWithFoundation(Timestamp(millisecondsSince1970: shifted), offsetSeconds: offsetSeconds)
        guard cycles > 0 else { return text }
        let year = Int(text.prefix(4))! - 400 * cycles
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + text.dropFirst(4)
    }

    private static func formatWithFoundation(_ time: Timestamp, offsetSeconds: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offsetSeconds)!
        let seconds = time.millisecondsSince1970.quotientAndRemainder(dividingBy: 1000)
        let wholeSeconds = seconds.remainder < 0 ? seconds.quotient - 1 : seconds.quotient
        let milliseconds = seconds.remainder < 0 ? seconds.remainder + 1000 : seconds.remainder
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(wholeSeconds)))
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year!, 4))-\(pad(parts.month!, 2))-\(pad(parts.day!, 2)) "
            + "\(pad(parts.hour!, 2)):\(pad(parts.minute!, 2)):\(pad(parts.second!, 2)).\(pad(Int(milliseconds), 3))"
    }
}
