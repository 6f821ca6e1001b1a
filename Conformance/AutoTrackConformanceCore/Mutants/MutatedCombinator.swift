import AutoTrackInterception
import Synchronization

/// A deliberate defect the kit makes a hook's combinator commit, for one context.
///
/// An operator is *equivalent* for a hook — no scenario can tell the mutant apart —
/// exactly when the hook never takes the path the operator changes (it fires 0 times):
/// `skipPreparation` for a hook that prepares no argument, `skipFollowUp` for one that
/// follows up on no result, `ignoreDedupe` for one whose calls are never duplicates.
enum InterceptionMutation: CaseIterable, Sendable, CustomStringConvertible {
    /// Runs the original twice.
    case callOriginalTwice
    /// Records after the original instead of before.
    case recordAfterOriginal
    /// Records while tracking is disabled.
    case recordWhileDisabled
    /// Records after uninstall (forgets the installation's state).
    case recordAfterUninstall
    /// Treats every call as new (a dedupe key too narrow).
    case ignoreDedupe
    /// Treats every call as a duplicate (a dedupe key too wide).
    case dedupeEverything
    /// Records every user action twice.
    case recordTwice
    /// Records nothing.
    case neverRecord
    /// Forwards the caller's argument instead of the prepared one (a handler not
    /// wrapped, a proxy not handed over).
    case skipPreparation
    /// Returns the original's result without the follow-up (a tracking target not
    /// attached, a proxy leaking out of a getter).
    case skipFollowUp

    /// The operator's name, e.g. `call-original-twice`.
    var description: String {
        switch self {
        case .callOriginalTwice: "call-original-twice"
        case .recordAfterOriginal: "record-after-original"
        case .recordWhileDisabled: "record-while-disabled"
        case .recordAfterUninstall: "record-after-uninstall"
        case .ignoreDedupe: "dedupe-key-too-narrow"
        case .dedupeEverything: "dedupe-key-too-wide"
        case .recordTwice: "record-twice"
        case .neverRecord: "never-record"
        case .skipPreparation: "skip-preparation"
        case .skipFollowUp: "skip-follow-up"
        }
    }
}

/// The combinator with one deliberate defect, put in place of a context's own from
/// outside (the kit's side of the combinator seam): the shipping combinator carries no
/// defect, and the hook's code is untouched. Counts how often the defect changed a call.
final class MutatedCombinator: CombinatorSubstitute {
    let mutation: InterceptionMutation
    private let fireCount = Atomic<Int>(0)

    init(_ mutation: InterceptionMutation) { self.mutation = mutation }

    /// How often the defect changed a call.
    var fires: Int { fireCount.load(ordering: .relaxed) }

    private func fired() { fireCount.wrappingAdd(1, ordering: .relaxed) }

    func intercept<Result, Failure: Error>(
        _ interceptor: Interceptor, dedupe: InterceptionDedupe?, capture: () throws -> Interaction?,
        original: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let context = interceptor.context
        guard let dedupe else {
            // Not recording: only the operators that ignore the state record anyway.
            let switchOn = interceptor.hookSwitch.isOn
            if (mutation == .recordWhileDisabled && switchOn && !context.isEnabled) || (mutation == .recordAfterUninstall && !switchOn) {
                // The defect bypasses every guard: straight to the sink.
                fired()
                if let interaction = try? capture() { try? context.sink.receive(interaction) }
            } else {
                interceptor.countSkip()
            }
            return try original()
        }
        switch dedupe {
        case .none:
            return try call(interceptor, isNew: true, capture: capture, original: original)
        case .touch(let event, let element):
            return try call(interceptor, isNew: context.touches.isFirstDispatch(event: event, element: element), capture: capture, original: original)
        case .reentrancy(let key):
            return try context.reentrancy.withKey(key) { (isOutermost: Bool) throws(Failure) -> Result in
                try call(interceptor, isNew: isOutermost, capture: capture, original: original)
            }
        }
    }

    private func call<Result, Failure: Error>(
        _ interceptor: Interceptor, isNew: Bool, capture: () throws -> Interaction?, original: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var isNew = isNew
        if mutation == .ignoreDedupe, !isNew {
            fired()
            isNew = true
        }
        guard isNew else {
            interceptor.context.count(.deduplicated)
            return try original()
        }
        // A call with no original: the operators on the original have nothing to change.
        if Result.self == Interceptor.NoOriginal.self, mutation == .callOriginalTwice || mutation == .recordAfterOriginal {
            interceptor.emitCaptured(capture)
            return try original()
        }
        switch mutation {
        case .callOriginalTwice:
            fired()
            interceptor.emitCaptured(capture)
            _ = try original()
            return try original()
        case .recordAfterOriginal:
            fired()
            let result = try original()
            interceptor.emitCaptured(capture)
            return result
        case .dedupeEverything:
            fired()
            interceptor.context.count(.deduplicated)
            return try original()
        case .recordTwice:
            fired()
            interceptor.emitCaptured(capture)
            interceptor.emitCaptured(capture)
            return try original()
        case .neverRecord:
            fired()
            return try original()
        default:
            interceptor.emitCaptured(capture)
            return try original()
        }
    }

    func forward<Value, Result, Failure: Error>(
        _ interceptor: Interceptor, argument: Value, preparedBy prepare: (Value) throws -> Value,
        original: (Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if mutation == .skipPreparation {
            fired()
            return try original(argument)
        }
        return try original(interceptor.prepared(argument, by: prepare))
    }

    func followUp<Result>(_ interceptor: Interceptor, result: Result, followUp: (Result) throws -> Result) -> Result {
        if mutation == .skipFollowUp {
            fired()
            return result
        }
        return interceptor.followedUp(result, by: followUp)
    }
}
