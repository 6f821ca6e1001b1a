import AutoTrackEvents

/// Finds bursts of clicks on one element (``RageClickRule``) in the order clicks are
/// stored. Worker thread only.
struct RageClickDetector {
    private var element: String?
    private var first: MonotonicInstant?
    private var count = 0
    private var reported = false

    /// Takes a click on `element` (its screen and `$element_id`) at `time`; returns the
    /// burst's size when this click completes a rage click — once per burst.
    mutating func click(on element: String, at time: MonotonicInstant, rule: RageClickRule) -> Int? {
        if element == self.element, let first, time - first <= rule.window {
            count += 1
        } else {
            self.element = element
            first = time
            count = 1
            reported = false
        }
        guard count >= rule.clicks, !reported else { return nil }
        reported = true
        return count
    }

    /// Ends the burst in progress: a click on an element that allows rapid taps, or a
    /// screen change, comes between.
    mutating func reset() {
        element = nil
        first = nil
        count = 0
        reported = false
    }
}
