import AutoTrackInterception
import AutoTrackRuntime

/// Runs scenarios against hooks.
public enum Conformance {
    /// Runs every scenario of `scenarios` that applies to `subject`'s point, each in a
    /// fresh sample app, and reports every outcome and violation. A scenario that throws
    /// is an error outcome, not a crash.
    ///
    /// On a `backend` whose dispatch a real runtime decides, a scenario during which
    /// the model's lookup would have chosen another implementation than the real
    /// runtime did is an error outcome naming the sends.
    public static func evaluate(
        _ subject: ConformanceSubject, scenarios: [Scenario] = ScenarioCatalog.all, backend: ScenarioBackend = .model
    ) -> ConformanceReport {
        var outcomes: [ScenarioOutcome] = []
        for scenario in scenarios where scenario.applies(to: subject.point) {
            outcomes.append(run(scenario, against: subject, backend: backend))
        }
        return ConformanceReport(subject: subject.name, point: subject.point.name, outcomes: outcomes, backend: backend.name)
    }

    /// Runs one scenario.
    public static func run(_ scenario: Scenario, against subject: ConformanceSubject, backend: ScenarioBackend = .model) -> ScenarioOutcome {
        var runtime: Runtime?
        do {
            let run = try ScenarioRun(scenario: scenario, subject: subject, backend: backend)
            runtime = run.runtime
            try scenario.body(run)
            return ScenarioOutcome(scenario: scenario, violations: run.violations, error: divergenceError(runtime))
        } catch {
            return ScenarioOutcome(scenario: scenario, violations: [], error: "\(error)" + (divergenceError(runtime).map { "; \($0)" } ?? ""))
        }
    }

    /// The error a run whose model and real runtime chose differently ends with.
    static func divergenceError(_ runtime: Runtime?) -> String? {
        guard let divergences = runtime?.dispatchDivergences, !divergences.isEmpty else { return nil }
        return "the model and the real runtime chose different implementations: "
            + divergences.prefix(3).map(\.description).joined(separator: "; ")
    }
}

/// The result of one scenario for one subject.
public struct ScenarioOutcome: Hashable, Sendable, Codable {
    /// The scenario id.
    public var scenarioID: String
    /// The scenario title.
    public var title: String
    /// The broken expectations.
    public var violations: [Violation]
    /// Set when the scenario could not run to the end (a thrown error).
    public var error: String?

    /// Creates an outcome of a scenario that ran elsewhere (another backend, a child
    /// process).
    public init(scenarioID: String, title: String, violations: [Violation], error: String?) {
        self.scenarioID = scenarioID
        self.title = title
        self.violations = violations
        self.error = error
    }

    init(scenario: Scenario, violations: [Violation], error: String?) {
        scenarioID = scenario.id
        title = scenario.title
        self.violations = violations
        self.error = error
    }

    /// Whether every expectation held.
    public var passed: Bool { violations.isEmpty && error == nil }
}
