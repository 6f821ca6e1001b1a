/// Synchronization: `Atomic`, the inlinable switch of every intercepted call.
public import Synchronization

/// The on/off switch of one installation, shared by everything the installation left
/// behind (wrappers, tracking targets, proxies, subclasses). Uninstalling turns it off,
/// so all of them pass calls straight through at once; a reinstall turns it on again.
public final class HookSwitch: Sendable {
    @usableFromInline let value: Atomic<Bool>

    /// Creates a switch, on by default.
    public init(isOn: Bool = true) { value = Atomic(isOn) }

    /// Whether the installation intercepts (`false`: pass straight through).
    @inlinable public var isOn: Bool { value.load(ordering: .acquiring) }

    /// Turns the installation on or off.
    public func set(_ isOn: Bool) { value.store(isOn, ordering: .releasing) }
}

/// How the combinator decides that a call is not a new user action.
public enum InterceptionDedupe {
    /// Every call is a user action of its own.
    case none
    /// A call made while this thread already handles the same logical interaction — a
    /// subclass's hooked method calling its hooked superclass, two stacked hooks of
    /// ours, a selection forwarded through a proxy — records nothing
    /// (``ReentrancyGuard``).
    case reentrancy(InteractionKey)
    /// Only the first dispatch of a touch event for an element records: a control with
    /// several target-action pairs is one click (``TouchDeduplicator``). A `nil` event
    /// is a programmatic send, never a touch.
    case touch(event: AnyObject?, element: AnyObject)
}

/// Thrown from a capture closure to say that the call is not a click, and why; the
/// combinator counts it and still runs the original once.
public enum CaptureSkip: Error, Hashable, Sendable {
    /// Deliberately not recorded: a text field, an ignored element, a contained child
    /// screen… (counted in ``InterceptionDiagnostics/filtered``).
    case filtered
    /// Not a new user action: another state of the same gesture, a screen that appeared
    /// again without disappearing… (counted in ``InterceptionDiagnostics/deduplicated``).
    case deduplicated
}

/// One installation's recording parameters — the context it reports to, its on/off
/// switch and its name — and **the exactly-once combinator** every hook calls its
/// originals through.
///
/// `Interceptor.intercept(dedupe:capture:original:)` is the contract (ARCHITECTURE.md, “The exactly-once contract”) written once:
/// snapshot and record first, then the original exactly once on every path —
/// uninstalled, disabled, deduplicated, filtered, bookkeeping failing, sink throwing —
/// with its result or error passed back unchanged.
///
/// ```swift
/// Implementation("my-hook -[UIControl sendAction:to:forEvent:]") { message throws(RuntimeError) in
///     try interceptor.intercept(dedupe: .touch(event: message.arguments[2].object, element: message.receiver)) {
///         try makeClick(message)            // snapshot now, before the original runs
///     } original: { () throws(RuntimeError) in
///         try original.body(message)        // exactly once, the caller's arguments
///     }
/// }
/// ```
public final class Interceptor: Sendable {
    /// Where interactions go, and the filters and counters they pass.
    public let context: InteractionContext
    /// The installation's switch.
    public let hookSwitch: HookSwitch
    /// The hook's name, stamped on every interaction as ``Interaction/capturedBy``.
    public let capturedBy: String

    /// Creates the recording parameters of one installation.
    public init(context: InteractionContext, hookSwitch: HookSwitch, capturedBy: String) {
        self.context = context
        self.hookSwitch = hookSwitch
        self.capturedBy = capturedBy
    }

    /// Whether calls are recorded right now: installed and tracking enabled.
    @inlinable public var isRecording: Bool { hookSwitch.isOn && context.isEnabled }

    /// Runs one intercepted call: decides whether it is a new user action, captures and
    /// records it *before* the original runs, then runs `original` exactly once and
    /// returns what it returns (or throws what it throws).
    ///
    /// - `capture` runs only when the call is to be recorded. It takes the snapshots
    ///   and returns the interaction (`nil`: nothing to record, nothing counted), or
    ///   throws ``CaptureSkip`` to have the call counted as filtered or deduplicated.
    ///   Any other error is a bookkeeping failure: counted, and the original still runs.
    /// - The interaction then passes the context's filters and goes to its sink; a sink
    ///   that throws is counted, never propagated.
    /// - `original` runs exactly once on every path, after recording.
    @inlinable
    public func intercept<Result, Failure: Error>(
        dedupe: @autoclosure () -> InterceptionDedupe = .none,
        capture: () throws -> Interaction?,
        original: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard isRecording else {
            if let substitute = context.combinatorSubstitute {
                return try substitute.intercept(self, dedupe: nil, capture: capture, original: original)
            }
            countSkip()
            return try original()
        }
        if let substitute = context.combinatorSubstitute {
            return try substitute.intercept(self, dedupe: dedupe(), capture: capture, original: original)
        }
        switch dedupe() {
        case .none:
            emitCaptured(capture)
            return try original()
        case .touch(let event, let element):
            if context.touches.isFirstDispatch(event: event, element: element) {
                emitCaptured(capture)
            } else {
                context.count(.deduplicated)
            }
            return try original()
        case .reentrancy(let key):
            return try context.reentrancy.withKey(key) { (isOutermost: Bool) throws(Failure) -> Result in
                if isOutermost {
                    emitCaptured(capture)
                } else {
                    context.count(.deduplicated)
                }
                return try original()
            }
        }
    }

    /// Records one user action that has no original of its own to run — a tracking
    /// target running beside the app's targets, an observer of the app's lifecycle —
    /// under the same rules as `Interceptor.intercept(dedupe:capture:original:)`.
    @inlinable
    public func record(dedupe: @autoclosure () -> InterceptionDedupe = .none, capture: () throws -> Interaction?) {
        _ = intercept(dedupe: dedupe(), capture: capture, original: { NoOriginal() })
    }

    /// The result of a call that has no original (what ``record(dedupe:capture:)``
    /// passes the combinator): a substitute changing the original leaves it alone.
    @usableFromInline
    package struct NoOriginal {
        @usableFromInline init() {}
    }

    /// Counts a call not recorded because tracking is disabled (nothing when the
    /// installation is off: an uninstalled hook is not a skip).
    @inlinable
    public func countSkip() {
        if hookSwitch.isOn { context.count(.disabledSkips) }
    }

    /// Captures fail-open and emits; never throws.
    @usableFromInline
    package func emitCaptured(_ capture: () throws -> Interaction?) {
        let interaction: Interaction?
        do {
            interaction = try capture()
        } catch CaptureSkip.filtered {
            context.count(.filtered)
            return
        } catch CaptureSkip.deduplicated {
            context.count(.deduplicated)
            return
        } catch {
            context.count(.bookkeepingFailures)
            return
        }
        if let interaction { context.emit(interaction) }
    }

    /// Forwards a call that records nothing but whose argument the hook prepares — a
    /// handler block wrapped, a delegate replaced by a proxy, an alert noted on its
    /// action — exactly once.
    ///
    /// `prepare` runs while the installation is on (whether or not tracking is enabled:
    /// what it sets up must be in place when tracking is turned on), fail-open: if it
    /// throws, the failure is counted and `original` gets the caller's `argument`
    /// unchanged.
    @inlinable
    public func forward<Value, Result, Failure: Error>(
        _ argument: Value, preparedBy prepare: (Value) throws -> Value, original: (Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard hookSwitch.isOn else { return try original(argument) }
        if let substitute = context.combinatorSubstitute {
            return try substitute.forward(self, argument: argument, preparedBy: prepare, original: original)
        }
        return try original(prepared(argument, by: prepare))
    }

    /// Forwards a call exactly once, then lets the hook follow up on its result —
    /// attach a tracking target to what the original set up, or keep an object of the
    /// hook's out of what the app sees (a getter answering the app's delegate, never a
    /// proxy). `followUp` runs on every successful return, installed or not (a proxy
    /// left in place must never leak), fail-open: if it throws, the failure is counted
    /// and the original's result is returned unchanged.
    @inlinable
    public func forward<Result, Failure: Error>(
        original: () throws(Failure) -> Result, then followUp: (Result) throws -> Result
    ) throws(Failure) -> Result {
        let result = try original()
        if let substitute = context.combinatorSubstitute { return substitute.followUp(self, result: result, followUp: followUp) }
        return followedUp(result, by: followUp)
    }

    /// `prepare(argument)`, fail-open: a failure is counted and `argument` returned.
    @inlinable
    package func prepared<Value>(_ argument: Value, by prepare: (Value) throws -> Value) -> Value {
        do {
            return try prepare(argument)
        } catch {
            context.count(.bookkeepingFailures)
            return argument
        }
    }

    /// `followUp(result)`, fail-open: a failure is counted and `result` returned.
    @inlinable
    package func followedUp<Result>(_ result: Result, by followUp: (Result) throws -> Result) -> Result {
        do {
            return try followUp(result)
        } catch {
            context.count(.bookkeepingFailures)
            return result
        }
    }
}
