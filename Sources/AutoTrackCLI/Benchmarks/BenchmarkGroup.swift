/// The benchmark groups `autotrack bench` knows.
enum BenchmarkGroup: String, CaseIterable {
    case serialize
    case properties
    case runtime

    var summary: String {
        switch self {
        case .serialize: "event JSON encoding vs JSONEncoder and JSONSerialization; Sensors body build"
        case .properties: "SHA-256 vs sha256sum and openssl; element ids; click property set on a deep tree"
        case .runtime: "message send costs: cached, exchanged, dynamic subclass, forwarding vs a direct call"
        }
    }

    func run() -> BenchmarkReport {
        switch self {
        case .serialize: SerializeBenchmark().run()
        case .properties: PropertiesBenchmark().run()
        case .runtime: RuntimeBenchmark().run()
        }
    }
}
