/// AutoTrackEvents: `SplitMix64` appears in this file's public API.
public import AutoTrackEvents
import AutoTrackInterception
import AutoTrackRuntime

/// The reference host's sample app as an ``ExplorationHost``: sessions of
/// ``ReferenceHostStep``s against a ``ConformanceSubject``, on any runtime backend.
///
/// ```swift
/// let explorer = Explorer(host: ReferenceHostExploration())
/// let results = explorer.explore([ConformanceSubject(MyHook())], sessions: 1_000, seed: 1)
/// for counterexample in results[0].counterexamples { print(counterexample.report) }
/// ```
public struct ReferenceHostExploration: ExplorationHost {
    /// The runtime each world is built in.
    public let backend: ScenarioBackend

    /// Whether each world records what the subject's first install changed
    /// (``ReferenceHostWorld``'s `firstInstallChanges`), to check its declaration: two
    /// snapshots of the framework's methods, which generated sessions do without.
    var recordsInstallChanges = false

    /// Sessions on `backend` (the model of dispatch by default).
    public init(backend: ScenarioBackend = .model) { self.backend = backend }

    /// `reference host (<backend>)`.
    public var name: String { "reference host (\(backend.name))" }

    /// The sample app, launched, on a fresh runtime of ``backend``.
    public func makeWorld(subject: ConformanceSubject?) throws -> ReferenceHostWorld {
        try ReferenceHostWorld(subject: subject, backend: backend, recordsInstallChanges: recordsInstallChanges)
    }

    /// A session over the whole vocabulary (see ``ReferenceHostStep``).
    public func generate(length: Int, using random: inout SplitMix64) -> [ReferenceHostStep] {
        var generator = ReferenceHostGenerator()
        return generator.generate(length: length, using: &random)
    }

    /// Performs `step` (see ``ReferenceHostWorld/perform(_:)``).
    public func perform(_ step: ReferenceHostStep, in world: ReferenceHostWorld) -> StepRecord { world.perform(step) }

    /// The subject's name.
    public func name(of subject: ConformanceSubject) -> String { subject.name }
}
