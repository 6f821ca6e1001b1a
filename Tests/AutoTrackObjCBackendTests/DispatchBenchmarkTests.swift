import AutoTrackObjCBackend
import Testing

/// The message loops `autotrack bench` times on the real runtime reach their method in
/// every situation — a loop that sent nothing would time nothing.
@Suite("Real-runtime dispatch benchmarks")
struct DispatchBenchmarkTests {
    @Test("every situation sends the benchmark message each time and gets its answer", arguments: ObjCDispatchBenchmark.allCases)
    func everySituationSends(situation: ObjCDispatchBenchmark) {
        #expect(situation.send(count: 1000) == 1000)
    }
}
