/// Foundation: `Date` appears in this file's public API.
public import struct Foundation.Date

/// A point in time as whole milliseconds since the Unix epoch (1970-01-01T00:00:00Z).
///
/// Analytics collectors store event times and date-typed properties at millisecond
/// precision, so AutoTrack keeps them as an exact integer rather than a floating-point
/// `Date`: a value survives encoding and decoding bit for bit.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z; negative values are before the epoch.
    public var millisecondsSince1970: Int64

    /// Creates a timestamp from milliseconds since the Unix epoch.
    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// Creates a timestamp from a `Date`, rounding toward negative infinity to whole
    /// milliseconds. Dates beyond the `Int64` millisecond range are clamped.
    public init(_ date: Date) {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        if milliseconds.isNaN {
            self.millisecondsSince1970 = 0
        } else if milliseconds >= 9.2e18 {
            self.millisecondsSince1970 = Int64.max
        } else if milliseconds <= -9.2e18 {
            self.millisecondsSince1970 = Int64.min
        } else {
            self.millisecondsSince1970 = Int64(milliseconds)
        }
    }

    /// The same instant as a Foundation `Date`.
    public var date: Date {
        Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000)
    }

    /// The earliest instant a date-typed property may hold: 0001-01-02 00:00:00.000 UTC.
    ///
    /// Date properties are written as `yyyy-MM-dd HH:mm:ss.SSS`, which has room for
    /// four-digit years only; one day of margin on each side keeps every UTC offset
    /// (±14 h) inside years 1…9999.
    public static let earliestPropertyDate = Timestamp(millisecondsSince1970: -62_135_510_400_000)

    /// The latest instant a date-typed property may hold: 9999-12-30 23:59:59.999 UTC.
    public static let latestPropertyDate = Timestamp(millisecondsSince1970: 253_402_214_399_999)

    /// Whether this instant can be written as a date-typed property value.
    public var isRepresentableAsPropertyDate: Bool {
        self >= Timestamp.earliestPropertyDate && self <= Timestamp.latestPropertyDate
    }

    /// Earlier times come first.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// The millisecond count, as it appears in the `time` field of an event.
    public var description: String { String(millisecondsSince1970) }
}
