import AutoTrackEvents
import Foundation

/// What an app would write to encode an ``Event`` with `JSONEncoder`: a Codable
/// mirror with the same fields, dates formatted by a `DateFormatter` strategy.
struct CodableEventMirror: Encodable {
    let event: Event

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(event.name.rawValue, forKey: Key("event"))
        try container.encode(event.time.millisecondsSince1970, forKey: Key("time"))
        var properties = container.nestedContainer(keyedBy: Key.self, forKey: Key("properties"))
        for (name, value) in event.properties {
            let key = Key(name)
            switch value {
            case .string(let text): try properties.encode(text, forKey: key)
            case .integer(let number): try properties.encode(number, forKey: key)
            case .number(let number): try properties.encode(number, forKey: key)
            case .bool(let flag): try properties.encode(flag, forKey: key)
            case .date(let time): try properties.encode(time.date, forKey: key)
            case .strings(let list): try properties.encode(list, forKey: key)
            }
        }
        try container.encode(event.type.rawValue, forKey: Key("type"))
        try container.encode(event.identity.distinctID, forKey: Key("distinct_id"))
        try container.encodeIfPresent(event.identity.anonymousID, forKey: Key("anonymous_id"))
        try container.encodeIfPresent(event.identity.loginID, forKey: Key("login_id"))
        var library = container.nestedContainer(keyedBy: Key.self, forKey: Key("lib"))
        try library.encode(event.library.name, forKey: Key("$lib"))
        try library.encode(event.library.version, forKey: Key("$lib_version"))
        try library.encode(event.library.method.rawValue, forKey: Key("$lib_method"))
        try library.encodeIfPresent(event.library.appVersion, forKey: Key("$app_version"))
        try container.encode(event.id.rawValue, forKey: Key("_track_id"))
    }
}

/// The date format collectors expect, through Foundation.
func makeCollectorDateFormatter() -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
    return formatter
}

/// What an app would write to encode an ``Event`` with `JSONSerialization`: build the
/// dictionary, then serialise it.
func foundationObject(of event: Event, dateFormatter: DateFormatter) -> [String: Any] {
    var properties: [String: Any] = [:]
    for (name, value) in event.properties {
        switch value {
        case .string(let text): properties[name] = text
        case .integer(let number): properties[name] = NSNumber(value: number)
        case .number(let number): properties[name] = NSNumber(value: number)
        case .bool(let flag): properties[name] = NSNumber(value: flag)
        case .date(let time): properties[name] = dateFormatter.string(from: time.date)
        case .strings(let list): properties[name] = list
        }
    }
    var library: [String: Any] = [
        "$lib": event.library.name, "$lib_version": event.library.version, "$lib_method": event.library.method.rawValue,
    ]
    if let appVersion = event.library.appVersion { library["$app_version"] = appVersion }
    var object: [String: Any] = [
        "event": event.name.rawValue, "time": NSNumber(value: event.time.millisecondsSince1970),
        "properties": properties, "type": event.type.rawValue, "distinct_id": event.identity.distinctID,
        "lib": library, "_track_id": NSNumber(value: event.id.rawValue),
    ]
    if let anonymous = event.identity.anonymousID { object["anonymous_id"] = anonymous }
    if let login = event.identity.loginID { object["login_id"] = login }
    return object
}
