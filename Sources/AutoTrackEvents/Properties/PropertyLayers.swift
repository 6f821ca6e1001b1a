/// The sources an event's properties come from, lowest precedence first.
///
/// When the same key is set by more than one source, the higher layer wins:
/// preset < super properties < autotrack < the caller's own properties. This is the
/// order in which an SDK user expects overrides to work — anything they pass to
/// `track` beats anything the SDK filled in.
public enum PropertyLayer: Int, CaseIterable, Comparable, Sendable {
    /// Device and library properties the SDK fills in (`$os`, `$lib`, …).
    case preset
    /// Properties registered once and attached to every event.
    case superProperties
    /// Properties collected by automatic capture (`$screen_name`, `$element_*`, …).
    case autotrack
    /// Properties the caller passed with the event.
    case caller

    /// Orders layers by precedence: a later layer wins.
    public static func < (lhs: PropertyLayer, rhs: PropertyLayer) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

extension Properties {
    /// Merges the layers of an event's properties by precedence.
    ///
    /// The value of a key comes from the highest layer that sets it. Its position is
    /// where it first appears scanning from the lowest layer, so presets lead the
    /// property list and overriding a preset does not move it — the encoding stays
    /// stable when a caller overrides a value.
    public static func layered(
        preset: Properties = [:],
        superProperties: Properties = [:],
        autotrack: Properties = [:],
        caller: Properties = [:]
    ) -> Properties {
        var merged = preset
        merged.merge(superProperties)
        merged.merge(autotrack)
        merged.merge(caller)
        return merged
    }
}
