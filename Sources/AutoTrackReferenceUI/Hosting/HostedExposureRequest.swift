/// AutoTrackEvents: `Properties` appears in this file's public API.
public import AutoTrackEvents

/// What a SwiftUI view asks for when it is seen (`.autoTrackExposure(…)`): how much of
/// it, how long, how often, and what to add to its exposure events. Out-of-range
/// values are brought into range when the request is made: a ratio into 0…1, a
/// negative duration to zero.
public struct HostedExposureRequest: Sendable, Hashable {
    /// The part of the element that must be visible, 0…1.
    public let minimumVisibleRatio: Double
    /// How long it must stay visible.
    public let minimumDuration: Duration
    /// Whether every appearance counts, or only the first.
    public let repeats: Bool
    /// Added to the element's exposure events.
    public let properties: Properties

    /// A request; `minimumVisibleRatio` is clamped into 0…1 (`NaN` becomes 0) and a
    /// negative `minimumDuration` becomes zero.
    public init(minimumVisibleRatio: Double = 0, minimumDuration: Duration = .zero, repeats: Bool = true, properties: Properties = [:]) {
        self.minimumVisibleRatio = minimumVisibleRatio.isNaN ? 0 : min(max(minimumVisibleRatio, 0), 1)
        self.minimumDuration = max(minimumDuration, .zero)
        self.repeats = repeats
        self.properties = properties
    }
}
