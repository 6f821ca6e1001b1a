/// AutoTrackEvents: `PropertyValue` appears in this file's public API.
public import AutoTrackEvents
/// AutoTrackInterception: `HookHandle`, `Interaction`, `InteractionContext`, `InteractionSink` appear in this file's public API.
public import AutoTrackInterception
/// AutoTrackProperties: `TrackingExclusions` appears in this file's public API.
public import AutoTrackProperties
/// AutoTrackReferenceUI: `AppLog`, `ReferenceHost`, `SampleApp` appear in this file's public API.
public import AutoTrackReferenceUI
public import AutoTrackSampleApp
/// AutoTrackRuntime: `Runtime` appears in this file's public API.
public import AutoTrackRuntime
/// AutoTrackTesting: `InMemoryInteractionSink` appears in this file's public API.
public import AutoTrackTesting

/// One execution of one scenario against one subject: a fresh sample app, a recording
/// sink, the subject (installed on demand) and the checks made so far.
public final class ScenarioRun: @unchecked Sendable {
    // Safe by confinement: a run is driven by the one thread evaluating its scenario
    // (scenarios that start threads join them before checking).

    /// The scenario.
    public let scenario: Scenario
    /// The hook under test.
    public let subject: ConformanceSubject
    /// The app, fresh for this run.
    public let app: SampleApp
    /// The sink: records interactions, and logs `click` into the app's log so that the
    /// order of clicks and originals is visible in one place.
    public let sink: InMemoryInteractionSink
    /// The context the subject reports to.
    public let context: InteractionContext
    /// The handles of installations made through ``install()``.
    public private(set) var handles: [HookHandle] = []
    /// Objects kept alive for the run (targets and delegates are held weakly by the
    /// host, as by UIKit); never read back.
    private var retained: [AnyObject] = []
    /// The user action the point's fixture prepared, holding its objects (typed).
    var preparedAction: (@Sendable (ScenarioRun) throws -> Void)?
    private(set) var violations: [Violation] = []

    /// Where the run's app lives.
    public let backend: ScenarioBackend

    init(
        scenario: Scenario, subject: ConformanceSubject, backend: ScenarioBackend = .model, sink: (any InteractionSink)? = nil,
        exclusions: TrackingExclusions = .standard, pathStyle: ViewPathStyle = .slash
    ) throws {
        self.scenario = scenario
        self.subject = subject
        self.backend = backend
        app = try SampleApp(host: try ReferenceHost(runtime: backend.makeRuntime()))
        app.log.keepsCalls = true
        let log = app.log
        self.sink = InMemoryInteractionSink { _ in log.record(.click) }
        context = InteractionContext(sink: sink ?? self.sink, pathStyle: pathStyle, exclusions: exclusions)
    }

    /// A second run of the same scenario and subject in a fresh app, with its own sink,
    /// exclusions or path style — for scenarios about the context itself.
    public func variant(
        sink: (any InteractionSink)? = nil, exclusions: TrackingExclusions = .standard, pathStyle: ViewPathStyle = .slash
    ) throws -> ScenarioRun {
        try ScenarioRun(scenario: scenario, subject: subject, backend: backend, sink: sink, exclusions: exclusions, pathStyle: pathStyle)
    }

    /// Keeps `objects` alive until the run ends.
    public func keepAlive(_ objects: AnyObject...) { retained += objects }

    /// The text of a string property, or `none`.
    public func text(_ value: PropertyValue?) -> String {
        if case .string(let text)? = value { return text }
        return value.map { "\($0)" } ?? "none"
    }

    /// Moves `other`'s violations into this run.
    func adopt(_ other: ScenarioRun) { violations += other.violations }

    /// The host.
    public var host: ReferenceHost { app.host }
    /// The runtime.
    public var runtime: Runtime { app.host.runtime }
    /// The app's log of originals (and `click` entries).
    public var log: AppLog { app.log }
    /// Interactions recorded so far.
    public var clicks: Int { sink.count }

    /// Installs the subject and keeps its handle. The first installation of a run is
    /// also checked against the subject's declaration: every framework method it
    /// declares must be changed by installing, and every framework method installing
    /// changed must be declared (a violation of rule 6 otherwise).
    @discardableResult
    public func install() throws -> HookHandle {
        let before = handles.isEmpty ? FrameworkMethods(host) : nil
        let handle = try subject.install(on: host, context: context)
        handles.append(handle)
        if let before { checkDeclaration(changed: before.changes(to: FrameworkMethods(host))) }
        return handle
    }

    /// Records violations where `changed` and the subject's declaration differ.
    func checkDeclaration(changed: Set<HookedMethod>) {
        let declared = Set(subject.hookedMethods)
        expect(.lifecycle, "declared hooked methods that installing did not change",
               expected: [String](), observed: declared.subtracting(changed).sorted().map(\.description))
        expect(.lifecycle, "framework methods installing changed but the hook does not declare",
               expected: [String](), observed: changed.subtracting(declared).sorted().map(\.description))
    }

    /// Forgets every log entry and recorded interaction (after building a fixture).
    public func resetCounts() {
        log.clear()
        sink.clear()
    }

    /// Records a violation of `rule` when `observed` differs from `expected`.
    public func expect<T: Equatable>(_ rule: ContractRule, _ measure: String, expected: T, observed: T) {
        guard expected != observed else { return }
        let transcript = log.all.suffix(30).map { "log: \($0)" } + log.calls.suffix(20).map { "call: \($0)" }
        violations.append(Violation(
            scenarioID: scenario.id, rule: rule, measure: measure, expected: "\(expected)", observed: "\(observed)",
            failure: scenario.failure, transcript: transcript))
    }

    /// Records a violation of `rule` when `condition` is false.
    public func expectTrue(_ rule: ContractRule, _ measure: String, _ condition: Bool) {
        expect(rule, measure, expected: true, observed: condition)
    }

    /// The standard exactly-once check: `original` logged `originals` times, and
    /// `interactions` clicks recorded.
    public func expectCounts(original: AppLogEntry, originals: Int, interactions: Int) {
        expect(.originalOnce, "calls of \(original)", expected: originals, observed: log.count(original))
        expect(.oneInteraction, "interactions", expected: interactions, observed: clicks)
    }
}

/// The implementation of every method the host's framework classes have of their
/// own, instance and class methods: what a hook's installation may change.
struct FrameworkMethods {
    let implementations: [HookedMethod: ObjectIdentifier]

    init(_ host: ReferenceHost) {
        var implementations: [HookedMethod: ObjectIdentifier] = [:]
        let runtime = host.runtime
        for className in host.frameworkClassNames {
            guard let cls = runtime.lookUpClass(className) else { continue }
            for (owner, isClassMethod) in [(cls, false), (cls.metaclass, true)] {
                for method in runtime.ownMethods(of: owner) {
                    let key = HookedMethod(className, method.selector.name, isClassMethod: isClassMethod)
                    implementations[key] = ObjectIdentifier(method.implementation)
                }
            }
        }
        self.implementations = implementations
    }

    /// The methods whose implementation differs in `later`, or that `later` added.
    func changes(to later: FrameworkMethods) -> Set<HookedMethod> {
        Set(later.implementations.filter { implementations[$0.key] != $0.value }.keys)
    }
}
