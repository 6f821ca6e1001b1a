import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackTesting
import Testing
import AutoTrackLocking

/// What a test saw, in order: the sink's `record` and the original's `original`.
final class Transcript: Sendable {
    private let lines = Locked<[String]>([])
    func record(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// A recording sink that writes `record` into `transcript` as it receives (or throws).
func loggingSink(_ transcript: Transcript, throwing: Bool = false) -> InMemoryInteractionSink {
    InMemoryInteractionSink(failingWith: throwing ? InMemoryInteractionSink.Failure() : nil) { _ in transcript.record("record") }
}

@Suite("The exactly-once combinator")
struct InterceptorTests {
    /// One path through the combinator and what it must count.
    enum Path: String, CaseIterable, CustomTestStringConvertible {
        case recorded, uninstalled, disabled, filteredByContext, skippedAsFiltered, skippedAsDuplicate
        case bookkeepingFails, sinkThrows, nothingToRecord, reentrant, secondDispatchOfTouch, programmaticSend

        var testDescription: String { rawValue }
        var records: Bool { self == .recorded }
    }

    struct CaptureFailure: Error {}

    static func click(action: String = "buy:") -> Interaction {
        Interaction(
            point: .sendAction,
            element: ElementSnapshot(typeName: "UIButton", typeHierarchy: ["UIButton"], role: .button, accessibilityIdentifier: nil, properties: [:]),
            screen: nil, details: InteractionDetails(actionName: action), capturedBy: "test")
    }

    @Test("the original runs exactly once, after recording, and its result comes back on every path", arguments: Path.allCases)
    func everyPath(_ path: Path) throws {
        let transcript = Transcript()
        let context = InteractionContext(sink: loggingSink(transcript, throwing: path == .sinkThrows))
        let hookSwitch = HookSwitch(isOn: path != .uninstalled)
        let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: "test")
        if path == .disabled { context.isEnabled = false }
        let event = Token(), element = Token()
        let dedupe: InterceptionDedupe = switch path {
        case .reentrant: .reentrancy(InteractionKey("k", objects: [element]))
        case .secondDispatchOfTouch: .touch(event: event, element: element)
        case .programmaticSend: .touch(event: nil, element: element)
        default: .none
        }
        if path == .secondDispatchOfTouch { _ = context.touches.isFirstDispatch(event: event, element: element) }

        func call() -> Int {
            interceptor.intercept(dedupe: dedupe) {
                switch path {
                case .filteredByContext: return Self.click(action: "_private")
                case .skippedAsFiltered: throw CaptureSkip.filtered
                case .skippedAsDuplicate: throw CaptureSkip.deduplicated
                case .bookkeepingFails: throw CaptureFailure()
                case .nothingToRecord: return nil
                default: return Self.click()
                }
            } original: {
                transcript.record("original")
                return 42
            }
        }
        let result = path == .reentrant
            ? context.reentrancy.withKey(InteractionKey("k", objects: [element])) { _ in call() }
            : call()

        #expect(result == 42)
        #expect(transcript.all == (path.records ? ["record", "original"] : ["original"]))
        let counts = context.diagnostics
        var expected = InterceptionDiagnostics()
        switch path {
        case .recorded: expected.delivered = 1
        case .disabled: expected.disabledSkips = 1
        case .filteredByContext, .skippedAsFiltered: expected.filtered = 1
        case .skippedAsDuplicate, .reentrant, .secondDispatchOfTouch, .programmaticSend: expected.deduplicated = 1
        case .bookkeepingFails: expected.bookkeepingFailures = 1
        case .sinkThrows: expected.sinkFailures = 1
        case .uninstalled, .nothingToRecord: break
        }
        #expect(counts == expected)
    }

    struct OriginalFailure: Error, Equatable {}

    @Test("an original that throws is run once and its error passes through unchanged")
    func originalThrows() {
        let transcript = Transcript()
        let interceptor = Interceptor(context: InteractionContext(sink: loggingSink(transcript)), hookSwitch: HookSwitch(), capturedBy: "test")
        let calls = Locked(0)
        #expect(throws: OriginalFailure()) {
            try interceptor.intercept { Self.click() } original: { () throws(OriginalFailure) -> Void in
                calls.withLock { $0 += 1 }
                throw OriginalFailure()
            }
        }
        #expect(calls.withLock { $0 } == 1)
        #expect(transcript.all == ["record"])
    }

    @Test("the dedupe key is not built while tracking is off")
    func lazyDedupe() {
        let context = InteractionContext(sink: InMemoryInteractionSink())
        context.isEnabled = false
        let interceptor = Interceptor(context: context, hookSwitch: HookSwitch(), capturedBy: "test")
        let built = Locked(0)
        func key() -> InterceptionDedupe {
            built.withLock { $0 += 1 }
            return .none
        }
        interceptor.intercept(dedupe: key()) { Self.click() } original: {}
        #expect(built.withLock { $0 } == 0)
    }

    @Test("prepare-then-forward: the prepared argument reaches the original once; a failing preparation hands the caller's")
    func forwardPrepared() {
        let context = InteractionContext(sink: InMemoryInteractionSink())
        let hookSwitch = HookSwitch()
        let interceptor = Interceptor(context: context, hookSwitch: hookSwitch, capturedBy: "test")
        var seen: [Int] = []
        interceptor.forward(1, preparedBy: { $0 + 10 }) { seen.append($0) }
        interceptor.forward(2, preparedBy: { _ in throw CaptureFailure() }) { seen.append($0) }
        hookSwitch.set(false)
        interceptor.forward(3, preparedBy: { $0 + 10 }) { seen.append($0) }
        #expect(seen == [11, 2, 3])
        #expect(context.diagnostics.bookkeepingFailures == 1)
    }

    @Test("forward-then-follow-up: the original runs once; a failing follow-up returns the original's result")
    func forwardThen() {
        let context = InteractionContext(sink: InMemoryInteractionSink())
        let interceptor = Interceptor(context: context, hookSwitch: HookSwitch(), capturedBy: "test")
        let calls = Locked(0)
        let adjusted = interceptor.forward { () -> Int in
            calls.withLock { $0 += 1 }
            return 1
        } then: { $0 + 1 }
        let kept = interceptor.forward { () -> Int in
            calls.withLock { $0 += 1 }
            return 5
        } then: { _ in throw CaptureFailure() }
        #expect(adjusted == 2 && kept == 5)
        #expect(calls.withLock { $0 } == 2)
        #expect(context.diagnostics.bookkeepingFailures == 1)
    }
}
