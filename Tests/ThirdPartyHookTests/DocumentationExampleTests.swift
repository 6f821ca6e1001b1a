import AutoTrackConformance
import AutoTrackConformanceCore
import AutoTrackInterception
import Testing

/// The examples of "Implementing a hook" and of the kit's overview that are not in
/// `ThirdPartyConformanceTests` already, compiled and run as printed.
@Suite("Documentation examples: a third party's hooks explored")
struct DocumentationExampleTests {
    @Test("the application-level hook of the article keeps the contract over generated sessions")
    func applicationClicksExplored() {
        let explorer = Explorer(host: ReferenceHostExploration())
        let result = explorer.explore([ConformanceSubject(ApplicationClicks())], sessions: 200, seed: 1)[0]
        #expect(result.passed, "\(result.counterexamples.map(\.report).joined(separator: "\n\n"))")
    }

    @Test("every third-party hook keeps the contract over generated sessions", arguments: [
        ConformanceSubject(RecognizerClicks()), ConformanceSubject(AlertClicks()), ConformanceSubject(SelectionClicks()),
        ConformanceSubject(ScreenViews()),
    ])
    func thirdPartyHooksExplored(_ subject: ConformanceSubject) {
        let result = Explorer(host: ReferenceHostExploration()).explore([subject], sessions: 100, seed: 1)[0]
        #expect(result.passed, "\(result.counterexamples.map(\.report).joined(separator: "\n\n"))")
    }
}
