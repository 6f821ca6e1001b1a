/// When a watched element counts as seen: how much of it must be visible, for how
/// long, and whether it counts again each time it comes back.
///
/// ```swift
/// // Half the banner on screen for one second, once per appearance.
/// let options = try ExposureOptions(minimumVisibleRatio: 0.5, minimumDuration: .seconds(1))
/// ```
public struct ExposureOptions: Hashable, Sendable {
    /// The least fraction of the element's area that must be visible, 0…1; 0 means
    /// any visible part. Compared to two decimal places, so a ratio that rounds to the
    /// threshold meets it.
    public let minimumVisibleRatio: Double
    /// How long the element must stay that visible before the exposure counts; zero
    /// counts it as soon as it is visible.
    public let minimumDuration: Duration
    /// `true`: one exposure per appearance — the element counts again after it has
    /// left the screen (scrolled away, hidden, removed, the app in the background) and
    /// come back. `false`: the first exposure only, for as long as it is watched.
    public let repeats: Bool

    /// Creates options.
    /// - Throws: ``ExposureOptionsError`` for a ratio outside 0…1 (or not a number) and
    ///   for a negative duration.
    public init(minimumVisibleRatio: Double = 0, minimumDuration: Duration = .zero, repeats: Bool = true) throws(ExposureOptionsError) {
        guard minimumVisibleRatio >= 0, minimumVisibleRatio <= 1 else { throw .visibleRatioOutOfRange(minimumVisibleRatio) }
        guard minimumDuration >= .zero else { throw .negativeDuration(minimumDuration) }
        self.minimumVisibleRatio = minimumVisibleRatio
        self.minimumDuration = minimumDuration
        self.repeats = repeats
    }

    private init(checkedRatio ratio: Double, duration: Duration, repeats: Bool) {
        minimumVisibleRatio = ratio
        minimumDuration = duration
        self.repeats = repeats
    }

    /// Any visible part, at once, once per appearance — the defaults of Sensors' SDK.
    public static let standard = ExposureOptions(checkedRatio: 0, duration: .zero, repeats: true)

    /// ``minimumDuration`` in whole milliseconds, rounded up.
    var durationMilliseconds: Int64 {
        let (seconds, attoseconds) = minimumDuration.components
        let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
        let (whole, rest) = attoseconds.quotientAndRemainder(dividingBy: attosecondsPerMillisecond)
        return seconds.multipliedReportingOverflow(by: 1000).overflow ? .max : seconds * 1000 + whole + (rest > 0 ? 1 : 0)
    }

    /// Whether `ratio` is visible enough: above zero, and at least the minimum when
    /// both are rounded to two decimals.
    func isVisibleEnough(_ ratio: Double) -> Bool {
        guard ratio > 0 else { return false }
        return (ratio * 100).rounded() >= (minimumVisibleRatio * 100).rounded()
    }
}

/// Why exposure options were refused.
public enum ExposureOptionsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The visible ratio is not a number in 0…1.
    case visibleRatioOutOfRange(Double)
    /// The duration is negative.
    case negativeDuration(Duration)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .visibleRatioOutOfRange(let ratio): "exposure: the visible ratio must be between 0 and 1, found \(ratio)"
        case .negativeDuration(let duration): "exposure: the duration must not be negative, found \(duration)"
        }
    }
}
