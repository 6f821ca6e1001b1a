/// The benchmark groups `autotrack bench` knows.
enum BenchmarkGroup: String, CaseIterable {
    case serialize
    case hooks
    case properties
    case runtime
    case pipeline

    var summary: String {
        switch self {
        case .serialize: "event JSON encoding vs JSONEncoder and JSONSerialization; Sensors body build"
        case .hooks: "hooked vs unhooked calls per delegate technique and send-action; interaction capture cost"
        case .properties: "SHA-256 vs sha256sum and openssl; element ids; click property set on a deep tree"
        case .runtime: "message send costs: cached, exchanged, dynamic subclass, forwarding vs a direct call"
        case .pipeline: "track → durable queue with and without fsync; flush throughput; an autotracked click's cost to the caller"
        }
    }

    func run() -> BenchmarkReport {
        switch self {
        case .serialize: SerializeBenchmark().run()
        case .hooks: HooksBenchmark().run()
        case .properties: PropertiesBenchmark().run()
        case .runtime: RuntimeBenchmark().run()
        case .pipeline: PipelineBenchmark().run()
        }
    }
}
