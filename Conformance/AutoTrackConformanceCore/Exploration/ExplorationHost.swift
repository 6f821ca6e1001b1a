/// AutoTrackEvents: `SplitMix64` appears in this file's public API.
public import AutoTrackEvents

/// What the explorer needs of a host, whatever its runtime and UI: fresh worlds, a
/// vocabulary of steps with a generator over it, and a way to perform a step and say
/// what the app and the hook did.
///
/// The explorer (``Explorer``) is generic over this protocol: the reference host on the
/// model, on a mirrored real runtime, or another host plug in by conforming, and
/// hand-written scenarios and generated sessions run on the same worlds.
public protocol ExplorationHost: Sendable {
    /// One step of a session: building UI, a user action, a programmatic call, a
    /// mutation, an SDK operation. Printed as one line of a readable program.
    associatedtype Step: Hashable & Sendable & Codable & CustomStringConvertible
    /// An app under exploration, with or without the subject.
    associatedtype World
    /// What is installed: the hook under test.
    associatedtype Subject: Sendable

    /// The host's name in reports, e.g. `reference host (model)`.
    var name: String { get }

    /// A fresh app; the subject, when given, is installed by the session's own
    /// install steps, never before.
    func makeWorld(subject: Subject?) throws -> World

    /// A random session of about `length` steps, valid for the host (a step refers only
    /// to what earlier steps built).
    func generate(length: Int, using random: inout SplitMix64) -> [Step]

    /// Performs `step` in `world` and reports what happened. Never throws: an error of
    /// the app's own code, or of the subject, is part of the record.
    func perform(_ step: Step, in world: World) -> StepRecord

    /// The name of `subject` in reports.
    func name(of subject: Subject) -> String
}

/// What one step did in one world: what the app's originals received and answered, what
/// the app can observe afterwards, and — with a subject — what it recorded and what the
/// specification says it must have recorded.
public struct StepRecord: Hashable, Sendable, Codable {
    /// How the step ended: `ok`, or the error the app saw.
    public var outcome: String
    /// The originals' side, in order: each entry of the app's log and each call an
    /// original received (receiver, selector, arguments).
    public var transcript: [String]
    /// What the app can observe after the step: getters, `respondsToSelector:`,
    /// reported classes, whether released objects are gone.
    public var observations: [String]
    /// The interactions the subject recorded during the step, in order.
    public var recorded: [InteractionSummary]
    /// What the specification requires of the step.
    public var expected: [ExpectedInteraction]
    /// Broken orderings: an interaction recorded after the original it is about ran.
    public var orderViolations: [String]

    /// Creates a record.
    public init(
        outcome: String, transcript: [String], observations: [String], recorded: [InteractionSummary] = [],
        expected: [ExpectedInteraction] = [], orderViolations: [String] = []
    ) {
        self.outcome = outcome
        self.transcript = transcript
        self.observations = observations
        self.recorded = recorded
        self.expected = expected
        self.orderViolations = orderViolations
    }
}

/// An interaction as the explorer compares it: its point and the properties that
/// identify the element and its state at the moment of the action.
public struct InteractionSummary: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The interception point's name.
    public var point: String
    /// `name value` pairs: `$screen_name`, `$element_content`, `$element_path`,
    /// `$element_position`, the alert's title, in a fixed order; absent ones left out.
    public var properties: [String]

    /// Creates a summary.
    public init(point: String, properties: [String]) {
        self.point = point
        self.properties = properties
    }

    /// `point {name value, …}`.
    public var description: String { "\(point) {\(properties.joined(separator: ", "))}" }
}

/// What the specification requires of one user action: an interaction at a point,
/// about an element in the state it had when the action happened.
public struct ExpectedInteraction: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The interaction the action must produce.
    public var interaction: InteractionSummary
    /// Whether it must be recorded (`exactlyOnce`) or may be (`atMostOnce`: its element
    /// was wired — a recognizer attached, a delegate set — while the subject was not
    /// installed, which a hook may or may not see).
    public var count: Count

    /// How many times an interaction must be recorded.
    public enum Count: String, Hashable, Sendable, Codable {
        /// Once, no more, no less.
        case exactlyOnce = "exactly once"
        /// Once or not at all, never twice.
        case atMostOnce = "at most once"
    }

    /// Creates an expectation.
    public init(_ interaction: InteractionSummary, count: Count = .exactlyOnce) {
        self.interaction = interaction
        self.count = count
    }

    /// `<interaction> (<count>)`.
    public var description: String { "\(interaction) (\(count.rawValue))" }
}
