/// The benchmark groups `autotrack bench` knows.
enum BenchmarkGroup: String, CaseIterable {
    case serialize

    var summary: String {
        switch self {
        case .serialize: "event JSON encoding vs JSONEncoder and JSONSerialization; Sensors body build"
        }
    }

    func run() -> BenchmarkReport {
        switch self {
        case .serialize: SerializeBenchmark().run()
        }
    }
}
