import Foundation
import Testing

@Suite("autotrack conformance --explore: sessions in child processes")
struct ExploreCommandTests {
    @Test("the built-in hooks of a point pass, and the JSON report counts every session")
    func builtInHooks() throws {
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(UInt64.random(in: 0...UInt64.max)).json")
        defer { try? FileManager.default.removeItem(at: json) }
        let (status, output) = try run(autotrackExecutable.path, ["conformance", "--explore", "8", "--point", "alert-action", "--json", json.path])
        #expect(status == 0, "\(output)")
        #expect(output.contains("alert-action/handler-block: 8 sessions, 192 steps, 0 counterexamples"), "\(output)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let results = try #require(report["results"] as? [[String: Any]])
        #expect(results.map { $0["sessions"] as? Int } == [8])
    }

    @Test("with --mutants, each mutant whose defect fires is caught, and the failing sessions are counted")
    func mutants() throws {
        let (status, output) = try run(autotrackExecutable.path, ["conformance", "--explore", "30", "--point", "screen-view", "--mutants"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("exploration alone killed"), "\(output)")
        #expect(!output.contains("SURVIVED"), "\(output)")
        #expect(output.contains("mutant/screen-view/no-disappear-tracking: 30 sessions, 720 steps,"), "\(output)")
        #expect(!output.contains("mutant/screen-view/no-disappear-tracking: 30 sessions, 720 steps, 0 counterexamples"), "\(output)")
    }
}
