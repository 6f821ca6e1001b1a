/// The benchmark groups `autotrack bench` knows.
enum BenchmarkGroup: String, CaseIterable {
    case serialize
    case runtime

    var summary: String {
        switch self {
        case .serialize: "event JSON encoding vs JSONEncoder and JSONSerialization; Sensors body build"
        case .runtime: "message send costs: cached, exchanged, dynamic subclass, forwarding vs a direct call"
        }
    }

    func run() -> BenchmarkReport {
        switch self {
        case .serialize: SerializeBenchmark().run()
        case .runtime: RuntimeBenchmark().run()
        }
    }
}
