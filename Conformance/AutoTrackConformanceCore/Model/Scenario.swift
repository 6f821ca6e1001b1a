/// AutoTrackInterception: `InterceptionPoint` appears in this file's public API.
public import AutoTrackInterception

/// The rules of the exactly-once contract (ARCHITECTURE.md, “The exactly-once contract”) a scenario checks.
public enum ContractRule: Int, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// 1. The original runs exactly once, with the same receiver, arguments and result.
    case originalOnce = 1
    /// 2. Exactly one interaction per user action.
    case oneInteraction = 2
    /// 3. Record, then forward: the interaction comes before the original's effects.
    case recordThenForward = 3
    /// 4. Fail-open: failures in the hook never stop or repeat the original.
    case failOpen = 4
    /// 5. Transparency: the app sees its own objects and answers.
    case transparency = 5
    /// 6. Install, uninstall, reinstall and coexistence with other libraries' hooks.
    case lifecycle = 6
    /// 7. Filters: other trackers' and private actions, ignored elements and screens.
    case filters = 7

    /// `rule N: name`.
    public var description: String {
        switch self {
        case .originalOnce: "rule 1: original once"
        case .oneInteraction: "rule 2: one interaction"
        case .recordThenForward: "rule 3: record then forward"
        case .failOpen: "rule 4: fail-open"
        case .transparency: "rule 5: transparency"
        case .lifecycle: "rule 6: lifecycle"
        case .filters: "rule 7: filters"
        }
    }
}

/// One broken expectation: which scenario, which rule, what was expected and seen.
public struct Violation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The scenario's id, e.g. `DS-07`.
    public var scenarioID: String
    /// The rule broken.
    public var rule: ContractRule
    /// What was measured, e.g. `original calls`.
    public var measure: String
    /// The expected value.
    public var expected: String
    /// The observed value.
    public var observed: String
    /// The real-world failure the scenario reproduces.
    public var failure: String = ""
    /// What the app's originals did up to the check — log entries (`click` for each
    /// interaction) and the calls the originals received — the evidence to read.
    public var transcript: [String] = []

    /// Creates a violation (the runner makes them; so does a runner on another backend).
    public init(
        scenarioID: String, rule: ContractRule, measure: String, expected: String, observed: String, failure: String = "",
        transcript: [String] = []
    ) {
        self.scenarioID = scenarioID
        self.rule = rule
        self.measure = measure
        self.expected = expected
        self.observed = observed
        self.failure = failure
        self.transcript = transcript
    }

    /// `DS-07 rule 2: one interaction — interactions: expected 1, observed 2`.
    public var description: String {
        "\(scenarioID) \(rule) — \(measure): expected \(expected), observed \(observed)"
    }
}

/// A conformance scenario: a real-world failure reproduced on the reference host,
/// with the exact counts a correct hook must produce.
///
/// Scenarios are values: ``ScenarioCatalog`` lists them, ``Conformance/evaluate(_:scenarios:backend:)``
/// runs them against a ``ConformanceSubject``.
public struct Scenario: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// The stable id: `SA-`, `GR-`, `AA-`, `DS-`, `SV-`, `TE-`, `OU-`, `NR-` or `GEN-` and a
    /// number.
    public let id: String
    /// The interception point; `nil` for a general scenario that runs at every point.
    public let point: InterceptionPoint?
    /// What the scenario does, in a line.
    public let title: String
    /// The real-world failure it reproduces, in a line.
    public let failure: String
    /// The rules it checks.
    public let rules: [ContractRule]
    let body: @Sendable (ScenarioRun) throws -> Void

    /// Creates a scenario; `body` builds the fixture on the run's app, triggers the user
    /// action and checks counts through the run.
    public init(
        id: String, point: InterceptionPoint?, title: String, failure: String, rules: [ContractRule],
        body: @escaping @Sendable (ScenarioRun) throws -> Void
    ) {
        self.id = id
        self.point = point
        self.title = title
        self.failure = failure
        self.rules = rules
        self.body = body
    }

    /// Whether the scenario applies to hooks at `point`.
    public func applies(to point: InterceptionPoint) -> Bool { self.point == nil || self.point == point }

    /// `ID title`.
    public var description: String { "\(id) \(title)" }

    /// Scenarios are equal when their ids are.
    public static func == (lhs: Scenario, rhs: Scenario) -> Bool { lhs.id == rhs.id }
    /// Hashes the id.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
