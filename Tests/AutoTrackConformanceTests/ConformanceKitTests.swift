import AutoTrackConformance
import AutoTrackConformanceCore
import AutoTrackHooks
import AutoTrackInterception
import Foundation
import Testing

/// Every built-in hook as a subject, with the methods it declares.
let builtInSubjects = BuiltInHooks.all().map { ConformanceSubject(any: $0) }

@Suite("The conformance kit: catalog, built-in hooks, mutants, reports")
struct ConformanceKitTests {
    @Test("the catalog has at least 50 scenarios with unique, well-formed ids")
    func catalog() {
        let all = ScenarioCatalog.all
        #expect(all.count >= 150)
        #expect(Set(all.map(\.id)).count == all.count)
        let prefixes: [InterceptionPoint?: String] = [
            nil: "GEN-", .sendAction: "SA-", .gesture: "GR-", .alertAction: "AA-", .delegateSelection: "DS-", .screenView: "SV-",
            .touchEnd: "TE-", .openURL: "OU-", .notificationResponse: "NR-", .swiftUITap: "SU-",
        ]
        for scenario in all {
            // Kept counterexamples of exploration are EXP- at whatever point they were found.
            let expectedPrefix = scenario.id.hasPrefix("EXP-") ? "EXP-" : prefixes[scenario.point]!
            #expect(scenario.id.hasPrefix(expectedPrefix), "\(scenario.id)")
            #expect(!scenario.title.isEmpty && !scenario.failure.isEmpty && !scenario.rules.isEmpty)
        }
        for rule in ContractRule.allCases {
            #expect(all.contains { $0.rules.contains(rule) }, "\(rule) is checked by some scenario")
        }
    }

    @Test("every cell of the matrix — point × object lifetime, point × call path — has its scenario")
    func matrixCoverage() {
        let prefixes: [InterceptionPoint: String] = [
            .sendAction: "SA", .gesture: "GR", .alertAction: "AA", .delegateSelection: "DS", .screenView: "SV", .swiftUITap: "SU",
        ]
        for point in InterceptionPoint.uiKit {
            for lifetime in 1...7 {
                let scenario = ScenarioCatalog.scenario("\(prefixes[point]!)-L\(lifetime)")
                #expect(scenario?.point == point, "\(point) lifetime \(lifetime)")
            }
            for path in 1...7 {
                let scenario = ScenarioCatalog.scenario("\(prefixes[point]!)-T\(path)")
                #expect(scenario?.rules.contains(.transparency) == true, "\(point) path \(path)")
            }
            #expect(ScenarioCatalog.scenarios(for: point).contains { $0.id.contains("-V") || $0.id.contains("-R") }, "\(point) has variety or return-value scenarios")
        }
    }

    @Test("expectConformance records a Swift Testing issue per violation, naming the scenario and the rule")
    func failurePathOfTheTestingLayer() throws {
        let mutant = try #require(Mutants.all.first { $0.caughtBy.contains("GEN-01") })
        let gen01 = try #require(ScenarioCatalog.scenario("GEN-01"))
        withKnownIssue {
            expectConformance(mutant.subject, scenario: gen01)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("GEN-01") && $0.rawValue.contains("rule") }
        }
    }

    @Test("every built-in hook passes every applicable scenario", arguments: builtInSubjects)
    func builtInHookConforms(subject: ConformanceSubject) {
        let report = Conformance.evaluate(subject)
        #expect(report.outcomes.count == ScenarioCatalog.scenarios(for: subject.point).count)
        let failures = report.table.split(separator: "\n").filter { !$0.hasPrefix("  pass") }.joined(separator: "\n")
        #expect(report.passed, "\(failures)")
    }

    @Test("every mutant is caught by the scenarios that name it", arguments: Mutants.all.map(\.subject.name))
    func mutantIsCaught(name: String) throws {
        let mutant = try #require(Mutants.all.first { $0.subject.name == name })
        let report = Conformance.evaluate(mutant.subject)
        let failed = Set(report.failedScenarioIDs)
        for id in mutant.caughtBy {
            #expect(failed.contains(id), "\(name) must fail \(id); failed: \(failed.sorted())")
        }
    }

    @Test("every mutation operator applied to a built-in hook is killed, or equivalent with its reason", arguments: builtInSubjects)
    func operatorMutants(subject: ConformanceSubject) {
        let results = OperatorMutants.evaluate(subject)
        #expect(results.count == OperatorMutants.MutationOperator.all.count)
        for result in results {
            #expect(result.isKilled || result.isEquivalent, "\(result.mutant) survived")
            if result.isEquivalent { #expect(result.equivalence != nil, "\(result.mutant): equivalent without a reason") }
        }
        #expect(results.filter(\.isKilled).count >= 5, "most operators change something for \(subject.name)")
    }

    @Test("there is a mutant for every contract rule, and every mutant dies")
    func mutantCoverage() {
        var rulesKilled = Set<ContractRule>()
        for mutant in Mutants.all {
            for id in mutant.caughtBy {
                ScenarioCatalog.scenario(id)?.rules.forEach { rulesKilled.insert($0) }
            }
        }
        #expect(rulesKilled == Set(ContractRule.allCases), "rules without a mutant: \(Set(ContractRule.allCases).subtracting(rulesKilled))")
        #expect(Mutants.all.count >= 12)
    }

    @Test("reports encode to JSON that decodes back, to JUnit XML and to a table")
    func reports() throws {
        let mutant = Mutants.all[0]
        let report = Conformance.evaluate(mutant.subject, scenarios: [try #require(ScenarioCatalog.scenario("GEN-01"))])
        #expect(!report.passed)
        let decoded = try JSONDecoder().decode(ConformanceReport.self, from: try report.jsonData())
        #expect(decoded == report)
        let xml = JUnitReport.xml([report])
        #expect(xml.contains(#"<testsuite name="mutant/send-action/skips-original [model]" tests="1" failures="1">"#), "the suite names the backend")
        #expect(report.backend == "model")
        #expect(String(decoding: try report.jsonData(), as: UTF8.self).contains(#""backend" : "model""#))
        #expect(xml.contains("<failure message="))
        #expect(report.table.contains("FAIL  GEN-01"))
        let matrix = ConformanceMatrix.text([report], scenarios: [try #require(ScenarioCatalog.scenario("GEN-01"))])
        #expect(matrix.contains("GEN-01") && matrix.contains("FAIL"))
    }

    @Test("XML escaping covers markup and control characters")
    func xmlEscaping() {
        let report = ConformanceReport(subject: "a<b>&\"c'", point: "gesture", outcomes: [])
        #expect(JUnitReport.xml([report]).contains("a&lt;b&gt;&amp;&quot;c&apos;"))
    }

    @Test("requireConformance throws for a broken hook and not for a correct one")
    func requireForXCTest() throws {
        let gen01 = [try #require(ScenarioCatalog.scenario("GEN-01"))]
        #expect(throws: ConformanceFailure.self) { try requireConformance(Mutants.all[0].subject, scenarios: gen01) }
        try requireConformance(builtInSubjects[0], scenarios: gen01)
    }
}

/// What an SDK author writes: the kit's Testing layer on their hook.
@Suite("Proving a hook with expectConformance")
struct ProvingAHook {
    static let subject = builtInSubjects.first { $0.name == "delegate-selection/proxy" }!

    @Test(arguments: ScenarioCatalog.scenarios(for: .delegateSelection))
    func proxyDelegateHookConforms(scenario: Scenario) {
        expectConformance(Self.subject, scenario: scenario)
    }
}
