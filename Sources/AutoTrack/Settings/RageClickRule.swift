/// What makes clicks a rage click: at least ``clicks`` clicks on one element (the same
/// `$element_id` on the same screen), each within ``window`` of the burst's first, on
/// the monotonic clock. A burst gives one `$AppRageClick`, right after the click that
/// completes it; an element that allows rapid taps (a stepper, a keypad —
/// `ElementNode.allowsRapidTaps`) never gives one.
public struct RageClickRule: Hashable, Sendable {
    /// The clicks that make a burst: 2…50.
    public let clicks: Int
    /// How long a burst may last, from its first click: up to 10 s.
    public let window: Duration

    /// Three clicks within one second, as PostHog and Datadog count them.
    public static let standard = RageClickRule(checkedClicks: 3, window: .seconds(1))

    /// Creates a rule; `nil` for a count outside 2…50 or a window outside (0, 10 s].
    public init?(clicks: Int, window: Duration) {
        guard (2...50).contains(clicks), window > .zero, window <= .seconds(10) else { return nil }
        self.init(checkedClicks: clicks, window: window)
    }

    private init(checkedClicks clicks: Int, window: Duration) {
        self.clicks = clicks
        self.window = window
    }
}
