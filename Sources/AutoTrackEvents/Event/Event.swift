/// One analytics event: what happened, when, to whom, with which properties.
///
/// The shape follows the collector record that autotrack SDKs send:
///
/// ```json
/// {
///   "event" : "$AppClick",
///   "time" : 1648801408348,
///   "properties" : { "$screen_name" : "ViewController", … },
///   "type" : "track",
///   "distinct_id" : "…",
///   "lib" : { "$lib" : "Swift", "$lib_version" : "0.1.0", "$lib_method" : "autoTrack" },
///   "_track_id" : 8211502318725914
/// }
/// ```
///
/// An `Event` value holds whatever it was given. Use ``PropertyRules`` to validate
/// caller input (``PropertyRules/makeEvent(name:properties:time:identity:library:id:report:)``)
/// or to sanitise SDK-generated values before an event is stored.
public struct Event: Hashable, Sendable {
    /// The event's unique identifier, for idempotent delivery (`_track_id`).
    public var id: EventID
    /// What happened (`event`).
    public var name: EventName
    /// When it happened (`time`).
    public var time: Timestamp
    /// Who it happened to (`distinct_id`, `anonymous_id`, `login_id`).
    public var identity: Identity
    /// Which SDK produced it and how (`lib`).
    public var library: LibraryInfo
    /// The event's properties, in order (`properties`).
    public var properties: Properties
    /// The record type (`type`); `track` for events.
    public var type: RecordType

    /// Creates an event from parts that are already valid.
    public init(
        id: EventID,
        name: EventName,
        time: Timestamp,
        identity: Identity,
        library: LibraryInfo = .autoTrack,
        properties: Properties = [:],
        type: RecordType = .track
    ) {
        self.id = id
        self.name = name
        self.time = time
        self.identity = identity
        self.library = library
        self.properties = properties
        self.type = type
    }
}
