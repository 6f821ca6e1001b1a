/// How an event was produced: by code the app developer wrote, or by automatic capture.
public struct LibraryMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The value of `$lib_method`.
    public let rawValue: String

    /// Wraps any method name; collectors know `code` and `autoTrack`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The event was tracked by an explicit call.
    public static let code = LibraryMethod(rawValue: "code")
    /// The event was captured automatically by a hook.
    public static let autoTrack = LibraryMethod(rawValue: "autoTrack")

    /// The raw method name.
    public var description: String { rawValue }
}

/// The `lib` block of an event: which SDK produced it and how.
public struct LibraryInfo: Hashable, Sendable {
    /// The SDK platform name (`$lib`), e.g. `Swift`.
    public var name: String
    /// The SDK version (`$lib_version`).
    public var version: String
    /// Whether the event came from code or automatic capture (`$lib_method`).
    public var method: LibraryMethod
    /// The host app's version (`$app_version`), if known.
    public var appVersion: String?

    /// Creates a `lib` block.
    public init(name: String, version: String, method: LibraryMethod, appVersion: String? = nil) {
        self.name = name
        self.version = version
        self.method = method
        self.appVersion = appVersion
    }

    /// This library's own name and version, for events the app tracks in code.
    public static let autoTrack = LibraryInfo(
        name: AutoTrackVersion.libraryName,
        version: AutoTrackVersion.current,
        method: .code
    )
}

/// The version of the AutoTrack library.
public enum AutoTrackVersion {
    /// The library's `$lib` name.
    public static let libraryName = "Swift"
    /// The library's semantic version (`$lib_version`).
    public static let current = "0.1.0"
}

/// The kind of record an event is on the wire (`type`). Analytics events are `track`.
public struct RecordType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: String

    /// Wraps any record type name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An analytics event.
    public static let track = RecordType(rawValue: "track")

    /// The raw type name.
    public var description: String { rawValue }
}
