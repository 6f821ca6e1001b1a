import Dispatch

extension Duration {
    /// The duration in seconds.
    package var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// The duration as a dispatch interval, to the nanosecond.
    var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(Int(components.seconds) * 1_000_000_000 + Int(components.attoseconds / 1_000_000_000))
    }
}
