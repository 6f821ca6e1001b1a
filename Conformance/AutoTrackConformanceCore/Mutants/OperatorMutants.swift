import AutoTrackInterception
import Foundation
import AutoTrackLocking

/// Mutation operators applied systematically to any hook that goes through the
/// contract's combinator: each ``MutationOperator`` puts a combinator with one defect
/// in place of the context's own (the shipping combinator carries none) — skip-style defects of real hooks (recording after
/// the original, the original twice, a dedupe key too narrow or too wide, forgetting
/// the disabled or uninstalled state, a handler not wrapped, a proxy leaking) — without
/// touching the hook's code.
///
/// A mutant is *killed* when at least one scenario fails for it. It is *equivalent*
/// when its defect never fired in any scenario: the hook never takes that path (a hook
/// that prepares no argument cannot skip its preparation) — the only way a mutant can
/// survive without being a gap in the catalog.
public enum OperatorMutants {
    /// One mutation operator.
    public struct MutationOperator: Hashable, Sendable, CustomStringConvertible {
        let mutation: InterceptionMutation

        /// The operator's name, e.g. `record-after-original`.
        public var description: String { mutation.description }

        /// Every operator.
        public static var all: [MutationOperator] { InterceptionMutation.allCases.map(MutationOperator.init) }
    }

    /// What one operator mutant of one hook came to.
    public struct Result: Hashable, Sendable, Codable {
        /// The mutant's name: `mutant/<operator>/<hook>`.
        public var mutant: String
        /// The operator.
        public var mutationOperator: String
        /// The hook it mutates.
        public var hook: String
        /// The hook's interception point.
        public var point: String
        /// The scenarios that caught it.
        public var killedBy: [String]
        /// How often its defect fired over the catalog (0: equivalent).
        public var fires: Int

        /// Why no scenario can tell it apart, when it is equivalent.
        public var equivalence: String?

        /// Caught by at least one scenario.
        public var isKilled: Bool { !killedBy.isEmpty }
        /// Equivalent: it never fired (the hook never takes the path the operator
        /// changes), or its defect is undone by another guard of the hook (argued in
        /// ``OperatorMutants/arguedEquivalences``).
        public var isEquivalent: Bool { killedBy.isEmpty && (fires == 0 || equivalence != nil) }

        /// `killed by SA-01 GEN-02 …`, `equivalent — why`, or `SURVIVED`.
        public var verdict: String {
            if isKilled { return "killed by \(killedBy.prefix(6).joined(separator: " "))\(killedBy.count > 6 ? " …" : "")" }
            return isEquivalent ? "equivalent — \(equivalence ?? "")" : "SURVIVED"
        }
    }

    /// Mutants that fire yet cannot change any outcome, with the argument why.
    public static let arguedEquivalences: [(operator: String, hookPrefix: String, reason: String)] = [
        ("dedupe-key-too-narrow", "screen-view/",
         "a screen view is recorded once per appearance by the controller's shown-state too (reset by viewDidDisappear:), so the re-entrancy key is a second guard: wrappers of the override and of UIViewController both capture, and the second capture is skipped as already shown"),
    ]

    /// `subject` with `mutationOperator` applied: its context makes the defect.
    public static func mutant(of subject: ConformanceSubject, _ mutationOperator: MutationOperator, fires: FireCounter) -> ConformanceSubject {
        ConformanceSubject(name: "mutant/\(mutationOperator)/\(subject.name)", point: subject.point, hookedMethods: subject.hookedMethods) {
            host, context throws(HookError) in
            let combinator = MutatedCombinator(mutationOperator.mutation)
            context.substituteCombinator(combinator)
            fires.watch(combinator)
            return try subject.install(on: host, context: context)
        }
    }

    /// Sums how often the defect fired over every context a mutant was installed in.
    public final class FireCounter: Sendable {
        private let combinators = Locked<[MutatedCombinator]>([])

        /// Creates a counter.
        public init() {}

        func watch(_ combinator: MutatedCombinator) { combinators.withLock { $0.append(combinator) } }

        /// The fires so far.
        public var total: Int { combinators.withLock { $0.reduce(0) { $0 + $1.fires } } }
    }

    /// Runs every operator against `subject` over `scenarios`.
    public static func evaluate(_ subject: ConformanceSubject, scenarios: [Scenario] = ScenarioCatalog.all, backend: ScenarioBackend = .model) -> [Result] {
        MutationOperator.all.map { evaluate(subject, $0, scenarios: scenarios, backend: backend) }
    }

    /// Runs one operator against `subject` over `scenarios`.
    public static func evaluate(
        _ subject: ConformanceSubject, _ mutationOperator: MutationOperator, scenarios: [Scenario] = ScenarioCatalog.all,
        backend: ScenarioBackend = .model
    ) -> Result {
        let fires = FireCounter()
        let report = Conformance.evaluate(mutant(of: subject, mutationOperator, fires: fires), scenarios: scenarios, backend: backend)
        return result(of: subject, mutationOperator, report: report, fires: fires.total)
    }

    /// What `report` — of `subject` with `mutationOperator` applied, run wherever (a
    /// child process, another backend) — and the defect's `fires` come to.
    public static func result(of subject: ConformanceSubject, _ mutationOperator: MutationOperator, report: ConformanceReport, fires: Int) -> Result {
        let argued = arguedEquivalences.first { $0.operator == mutationOperator.description && subject.name.hasPrefix($0.hookPrefix) }
        let killedBy = report.failedScenarioIDs
        return Result(
            mutant: "mutant/\(mutationOperator)/\(subject.name)", mutationOperator: mutationOperator.description, hook: subject.name,
            point: subject.point.name, killedBy: killedBy, fires: fires,
            equivalence: killedBy.isEmpty ? (fires == 0 ? "never fired: the hook never takes this path" : argued?.reason) : nil)
    }

    /// The operator named `name` (e.g. `record-after-original`), or `nil`.
    public static func mutationOperator(named name: String) -> MutationOperator? {
        MutationOperator.all.first { $0.description == name }
    }

    /// The mutation score per operator and per point, as text.
    public static func scoreTable(_ results: [Result]) -> String {
        func line(_ label: String, _ group: [Result]) -> String {
            let equivalent = group.filter(\.isEquivalent).count
            let killed = group.filter(\.isKilled).count
            let scored = group.count - equivalent
            let score = scored == 0 ? "—" : "\(killed * 100 / scored)%"
            return "  \(label.padding(toLength: 26, withPad: " ", startingAt: 0)) \(killed)/\(scored) killed  \(score)"
                + (equivalent > 0 ? "  (\(equivalent) equivalent)" : "")
        }
        var lines = ["Mutation score by operator"]
        for mutationOperator in MutationOperator.all.map(\.description) {
            lines.append(line(mutationOperator, results.filter { $0.mutationOperator == mutationOperator }))
        }
        lines.append("Mutation score by point")
        for point in InterceptionPoint.uiKit.map(\.name) {
            lines.append(line(point, results.filter { $0.point == point }))
        }
        lines.append(line("all", results))
        let survivors = results.filter { !$0.isKilled && !$0.isEquivalent }
        lines.append(survivors.isEmpty ? "every non-equivalent operator mutant is killed" : "survivors: " + survivors.map(\.mutant).joined(separator: ", "))
        return lines.joined(separator: "\n")
    }
}
