import AutoTrackInterception
import AutoTrackLocking
import AutoTrackTesting
import Synchronization
import Testing

@Suite("Original-call values and the combinator seam")
struct OriginalCallTests {
    /// A call whose original writes what it ran with into `transcript`.
    static func call(_ transcript: Transcript, arguments: Int = 7) -> OriginalCall<Int, Int, Never> {
        OriginalCall({ (value: Int) in
            transcript.record("original(\(value))")
            return value * 2
        }, arguments: arguments)
    }

    @Test("the combinator runs a bound call once, after recording, with its arguments — recording or not", arguments: [true, false])
    func interceptRunsOnce(isEnabled: Bool) {
        let transcript = Transcript()
        let context = InteractionContext(sink: loggingSink(transcript))
        context.isEnabled = isEnabled
        let interceptor = Interceptor(context: context, hookSwitch: HookSwitch(), capturedBy: "test")
        let result = interceptor.intercept(capture: { InterceptorTests.click() }, original: Self.call(transcript))
        #expect(result == 14)
        #expect(transcript.all == (isEnabled ? ["record", "original(7)"] : ["original(7)"]))
    }

    @Test("a pass-through runs the call once and records or counts nothing")
    func passThrough() {
        let transcript = Transcript()
        let context = InteractionContext(sink: loggingSink(transcript))
        let interceptor = Interceptor(context: context, hookSwitch: HookSwitch(), capturedBy: "test")
        #expect(interceptor.passThrough(Self.call(transcript)) == 14)
        #expect(transcript.all == ["original(7)"])
        #expect(context.diagnostics == InterceptionDiagnostics())
    }

    @Test("forwarding a call runs it once with the prepared arguments; a failing preparation is counted and the caller's arguments go through")
    func forwardPreparing() {
        struct PrepareFailure: Error {}
        let transcript = Transcript()
        let context = InteractionContext(sink: loggingSink(transcript))
        let interceptor = Interceptor(context: context, hookSwitch: HookSwitch(), capturedBy: "test")
        #expect(interceptor.forward(Self.call(transcript), preparing: { $0 + 1 }) == 16)
        #expect(interceptor.forward(Self.call(transcript), preparing: { _ in throw PrepareFailure() }) == 14)
        #expect(transcript.all == ["original(8)", "original(7)"])
        #expect(context.diagnostics.bookkeepingFailures == 1)
    }

    @Test("forwarding a call then following up runs it once and returns the follow-up's result")
    func forwardThen() {
        let transcript = Transcript()
        let interceptor = Interceptor(context: InteractionContext(sink: loggingSink(transcript)), hookSwitch: HookSwitch(), capturedBy: "test")
        #expect(interceptor.forward(Self.call(transcript), then: { $0 + 100 }) == 114)
        #expect(transcript.all == ["original(7)"])
    }

    /// A substitute that counts what reaches it and then does what the combinator does.
    final class CountingSubstitute: CombinatorSubstitute {
        let calls = Atomic<Int>(0)

        func intercept<Result, Failure: Error>(
            _ interceptor: Interceptor, dedupe: InterceptionDedupe?, capture: () throws -> Interaction?, original: () throws(Failure) -> Result
        ) throws(Failure) -> Result {
            calls.add(1, ordering: .relaxed)
            if dedupe != nil { interceptor.emitCaptured(capture) } else { interceptor.countSkip() }
            return try original()
        }

        func forward<Value, Result, Failure: Error>(
            _ interceptor: Interceptor, argument: Value, preparedBy prepare: (Value) throws -> Value, original: (Value) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            calls.add(1, ordering: .relaxed)
            return try original(interceptor.prepared(argument, by: prepare))
        }

        func followUp<Result>(_ interceptor: Interceptor, result: Result, followUp: (Result) throws -> Result) -> Result {
            calls.add(1, ordering: .relaxed)
            return interceptor.followedUp(result, by: followUp)
        }
    }

    @Test("a substitute, set once per context, gets every call in place of the combinator")
    func substituteGetsEveryCall() {
        let transcript = Transcript()
        let context = InteractionContext(sink: loggingSink(transcript))
        let substitute = CountingSubstitute()
        #expect(context.substituteCombinator(substitute))
        #expect(!context.substituteCombinator(CountingSubstitute()))
        let interceptor = Interceptor(context: context, hookSwitch: HookSwitch(), capturedBy: "test")
        _ = interceptor.intercept(capture: { InterceptorTests.click() }, original: Self.call(transcript))
        _ = interceptor.forward(Self.call(transcript), preparing: { $0 })
        _ = interceptor.forward(Self.call(transcript), then: { $0 })
        context.isEnabled = false
        interceptor.record { InterceptorTests.click() }
        #expect(substitute.calls.load(ordering: .relaxed) == 4)
        #expect(transcript.all == ["record", "original(7)", "original(7)", "original(7)"])
        #expect(context.diagnostics.disabledSkips == 1)
    }
}
