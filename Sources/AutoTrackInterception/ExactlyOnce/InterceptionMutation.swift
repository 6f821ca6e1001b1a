import Synchronization

/// A deliberate defect the combinator can be told to make, for one context: how the
/// conformance kit applies mutation operators to any hook that goes through the
/// combinator, without touching the hook's code. Never set outside mutation testing.
///
/// An operator is *equivalent* for a hook — no scenario can tell the mutant apart —
/// exactly when the hook never takes the path the operator changes (it fires 0 times,
/// counted in ``InteractionContext/mutationFires``): `skipPreparation` for a hook that
/// prepares no argument, `skipFollowUp` for one that follows up on no result,
/// `ignoreDedupe` for one whose calls are never duplicates in the catalog.
@usableFromInline
package enum InterceptionMutation: UInt8, CaseIterable, Sendable, CustomStringConvertible {
    /// Runs the original twice.
    case callOriginalTwice = 1
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
    @usableFromInline package var description: String {
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

extension InteractionContext {
    /// The defect the combinator makes for this context (`nil`: none).
    package var mutation: InterceptionMutation? {
        get { InterceptionMutation(rawValue: mutationStorage.load(ordering: .relaxed)) }
        set { mutationStorage.store(newValue?.rawValue ?? 0, ordering: .relaxed) }
    }

    /// How often the mutation changed a call.
    package var mutationFires: Int { mutationFireCount.load(ordering: .relaxed) }

    /// The mutation in force, read on the combinator's paths.
    @usableFromInline
    package var activeMutation: InterceptionMutation? {
        let raw = mutationStorage.load(ordering: .relaxed)
        return raw == 0 ? nil : InterceptionMutation(rawValue: raw)
    }

    /// Counts one call the mutation changed.
    @usableFromInline
    func mutationFired() { mutationFireCount.wrappingAdd(1, ordering: .relaxed) }
}
