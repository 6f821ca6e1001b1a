/// What sanitising did to SDK-generated values. Nothing is dropped silently: every
/// repair is counted here so that a tracker can report it.
public struct SanitizationReport: Hashable, Sendable, CustomStringConvertible {
    /// Strings (including list elements) cut to the length limit and marked.
    public var truncatedStrings = 0
    /// Properties dropped because the key breaks the naming rule.
    public var droppedInvalidKeys = 0
    /// Properties dropped because the key is reserved.
    public var droppedReservedKeys = 0
    /// Properties dropped because the number is NaN or infinite.
    public var droppedNonFiniteNumbers = 0
    /// Properties dropped because the date lies outside years 1…9999.
    public var droppedOutOfRangeDates = 0

    /// Creates an empty report.
    public init() {}

    /// Every repair counted, truncations and drops together.
    public var total: Int {
        truncatedStrings + droppedProperties
    }

    /// Properties removed for any reason.
    public var droppedProperties: Int {
        droppedInvalidKeys + droppedReservedKeys + droppedNonFiniteNumbers + droppedOutOfRangeDates
    }

    /// Whether nothing had to be repaired.
    public var isClean: Bool { total == 0 }

    /// Adds the counts of `other` to this report.
    public mutating func add(_ other: SanitizationReport) {
        truncatedStrings += other.truncatedStrings
        droppedInvalidKeys += other.droppedInvalidKeys
        droppedReservedKeys += other.droppedReservedKeys
        droppedNonFiniteNumbers += other.droppedNonFiniteNumbers
        droppedOutOfRangeDates += other.droppedOutOfRangeDates
    }

    /// A one-line summary of the counts.
    public var description: String {
        "truncated \(truncatedStrings) strings; dropped \(droppedInvalidKeys) invalid keys, "
            + "\(droppedReservedKeys) reserved keys, \(droppedNonFiniteNumbers) non-finite numbers, "
            + "\(droppedOutOfRangeDates) out-of-range dates"
    }
}
