import Foundation
import Testing

/// The real-runtime hooks (delegate selection, screen views) through `autotrack
/// conformance --backend objc --objc compiled` (the catalog on mirrored runtimes has its
/// own tests): every scenario runs in a process of its own (hooks are
/// process-wide, and a broken one crashes), so each outcome is that hook's alone.
@Suite struct RealRuntimeConformanceTests {
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("autotrack")

    struct Report: Decodable {
        struct Outcome: Decodable {
            struct Violation: Decodable {
                let measure: String
                let observed: String
                let transcript: [String]
            }
            let scenarioID: String
            let violations: [Violation]
        }
        let subject: String
        let point: String
        let backend: String
        let outcomes: [Outcome]
    }

    static func conformance(_ arguments: [String]) throws -> (Int32, [Report]) {
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("objc-conformance-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: json) }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["conformance", "--backend", "objc", "--objc", "compiled", "--json", json.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try JSONDecoder().decode([Report].self, from: Data(contentsOf: json)))
    }

    @Test("every real-runtime hook passes every scenario of its point: delegates, subclasses calling super, KVO, overrides without super, late classes, uninstall, disabled")
    func builtInHooksPass() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the autotrack product first (swift build)")
        let (status, reports) = try Self.conformance([])
        #expect(reports.map(\.subject)
            == ["objc-send-action", "objc-gesture", "objc-alert-action", "objc-delegate-selection-method-wrapping",
                "objc-delegate-selection-dynamic-subclass", "objc-delegate-selection-forwarding-proxy", "objc-screen-view"],
                "a hook at every interception point, every delegate technique")
        let scenarios = [
            "send-action": ["OSA-1", "OSA-2", "OSA-3", "OSA-4", "OSA-5", "OSA-6", "OSA-7", "OSA-8"], "gesture": ["OGR-1", "OGR-2", "OGR-3", "OGR-4", "OGR-5", "OGR-6"],
            "alert-action": ["OAA-1", "OAA-2", "OAA-3", "OAA-4", "OAA-5", "OAA-6"],
            "screen-view": ["OSV-1", "OSV-2", "OSV-3", "OSV-4", "OSV-5", "OSV-6"],
            "delegate-selection": ["ODS-1", "ODS-2", "ODS-3", "ODS-4", "ODS-5", "ODS-6", "ODS-7", "ODS-8"],
        ]
        for report in reports {
            #expect(report.backend == "objc")
            #expect(report.outcomes.map(\.scenarioID) == scenarios[report.point])
            for outcome in report.outcomes {
                #expect(outcome.violations.isEmpty, "\(report.subject) \(outcome.scenarioID): \(outcome.violations.map { "\($0.measure) \($0.observed)" })")
            }
        }
        #expect(status == 0)
    }

    @Test("a dynamic subclass placed over GNUstep's KVO class crashes the app: reported with its signal and transcript, the run going on")
    func brokenHookCrashIsReported() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the autotrack product first (swift build)")
        let (status, reports) = try Self.conformance(["--mutants"])
        let report = try #require(reports.first { $0.subject == "objc-delegate-selection-dynamic-subclass-kvo-unaware" })
        #expect(report.outcomes.count == 8, "every scenario ran, the crashed one too")
        let crashed = try #require(report.outcomes.first { $0.scenarioID == "ODS-3" }?.violations.first)
        #expect(crashed.observed.contains("SIGSEGV"))
        #expect(crashed.transcript.contains { $0.contains("-class GSKVOATAppDelegate") }, "the transcript so far: the wrong -class")
        #expect(report.outcomes.first { $0.scenarioID == "ODS-1" }?.violations.isEmpty == true)
        let baseOnly = try #require(reports.first { $0.subject == "objc-screen-view-base-only" })
        #expect(Set(["OSV-2", "OSV-3"]).isSubset(of: Set(baseOnly.outcomes.filter { !$0.violations.isEmpty }.map(\.scenarioID))),
                "a hook on the base class alone misses overrides without super")
        // Then the combinator's operators on the seven real-runtime hooks: every one
        // that changes a path the hook takes is caught.
        let perDispatch = try #require(reports.first { $0.subject == "objc-send-action-per-dispatch" })
        #expect(perDispatch.outcomes.first { $0.scenarioID == "OSA-1" }?.violations.isEmpty == false, "two clicks for one touch")
        let targetless = try #require(reports.first { $0.subject == "objc-gesture-targetless" })
        #expect(targetless.outcomes.first { $0.scenarioID == "OGR-3" }?.violations.isEmpty == false, "a click for a recognizer with no target")
        let handlersOnly = try #require(reports.first { $0.subject == "objc-alert-action-handlers-only" })
        #expect(handlersOnly.outcomes.first { $0.scenarioID == "OAA-2" }?.violations.isEmpty == false, "a Cancel without a handler lost")
        let operators = reports.dropFirst(5)
        #expect(operators.count == 70)
        #expect(operators.first { $0.subject.hasSuffix("× call-original-twice") }?.outcomes.contains { !$0.violations.isEmpty } == true)
        #expect(operators.first { $0.subject == "objc-delegate-selection-method-wrapping × record-after-original" }?.outcomes.first { $0.scenarioID == "ODS-1" }?.violations.isEmpty == false)
        #expect(status == 0, "the broken hook and every non-equivalent operator mutant were caught")
    }
}
