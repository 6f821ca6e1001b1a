/// AutoTrackRuntime: `Runtime` appears in this file's public API.
public import AutoTrackRuntime

/// Where scenarios run: the runtime each scenario's fresh sample app is built in.
///
/// ``model`` is the package's model of Objective-C dispatch. A runtime whose dispatch a
/// real Objective-C runtime decides (the package's `MirroredRuntime.make()`, when the
/// real runtime is built in) runs the same scenarios, the same reference host and the
/// same hooks, unchanged:
///
/// ```swift
/// let objc = ScenarioBackend(name: "objc") { MirroredRuntime.make() }
/// let report = Conformance.evaluate(subject, backend: objc)
/// ```
public struct ScenarioBackend: Sendable, CustomStringConvertible {
    /// The name reports carry, e.g. `model` or `objc`.
    public let name: String
    let makeRuntime: @Sendable () -> Runtime

    /// A backend named `name` whose runtimes `makeRuntime` makes (a new one per call).
    public init(name: String, makeRuntime: @escaping @Sendable () -> Runtime) {
        self.name = name
        self.makeRuntime = makeRuntime
    }

    /// The package's model of dispatch.
    public static let model = ScenarioBackend(name: "model") { Runtime() }

    /// The name.
    public var description: String { name }
}
