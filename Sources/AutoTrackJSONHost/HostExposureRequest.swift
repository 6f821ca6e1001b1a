/// AutoTrack: `ExposureOptions` appears in this file's public API.
public import AutoTrack
/// AutoTrackEvents: `Properties` appears in this file's public API.
public import AutoTrackEvents
import AutoTrackSerialization

/// What a host tree node's `exposure` member asks for: record `$AppElementExposure`
/// (or the named event) when enough of the node is on screen for long enough, as an
/// `ElementExposureMonitor` does for a native element.
///
/// The member is `true` (the tracker's exposure settings) or an object:
///
/// ```json
/// {"min_visible_ratio": 0.5, "min_duration_ms": 1000, "repeats": true,
///  "properties": {"campaign": "spring"}, "event": "BannerSeen"}
/// ```
///
/// Every key is optional; naming any of the first three sets all three (the others
/// taking `ExposureOptions`' defaults). The node needs a `tag`: it names the node
/// from one tree document to the next, so its appearance lasts while it is sent again.
public struct HostExposureRequest: Sendable {
    /// When it counts as seen; `nil` follows the tracker's settings at each update.
    public var options: ExposureOptions?
    /// Added to its exposure events.
    public var properties: Properties
    /// The event recorded instead of `$AppElementExposure`.
    public var eventName: String?

    static let keys: Set<String> = ["min_visible_ratio", "min_duration_ms", "repeats", "properties", "event"]

    /// Reads an `exposure` member; `nil` when absent or `false`.
    init?(_ value: JSONValue?, path: String) throws(HostTreeError) {
        switch value {
        case nil, .null?, .bool(false)?: return nil
        case .bool(true)?:
            options = nil
            properties = [:]
            eventName = nil
        case .object?:
            let value = value!
            try HostTreeReader.checkKeys(of: value, allowed: Self.keys, at: path)
            let ratio = try value["min_visible_ratio"].map { (ratio) throws(HostTreeError) in try HostTreeReader.number(ratio, "\(path).min_visible_ratio") }
            let milliseconds: Int64?
            switch value["min_duration_ms"] {
            case nil: milliseconds = nil
            case .integer(let number)?: milliseconds = number
            case let other?: throw .wrongType(path: "\(path).min_duration_ms", expected: "an integer", found: other.typeName)
            }
            let repeats = try HostTreeReader.bool(value, "repeats", path)
            if ratio != nil || milliseconds != nil || repeats != nil {
                do {
                    options = try ExposureOptions(
                        minimumVisibleRatio: ratio ?? 0, minimumDuration: .milliseconds(milliseconds ?? 0), repeats: repeats ?? true)
                } catch {
                    throw .invalid(path: path, reason: error.description)
                }
            } else {
                options = nil
            }
            properties = try value["properties"].map { (properties) throws(HostTreeError) in try HostTreeReader.properties(properties, "\(path).properties") } ?? [:]
            eventName = try HostTreeReader.string(value, "event", path)
        case let other?:
            throw .wrongType(path: path, expected: "true, false or an object", found: other.typeName)
        }
    }
}
