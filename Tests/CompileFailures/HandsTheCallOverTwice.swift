// expect-error: 'call' consumed more than once
// A wrapper that gives the same call to the combinator twice: the original would run twice.
import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
import AutoTrackRuntime

func wrapper(_ original: OriginalImplementation<Implementation>, interceptor: Interceptor) -> Implementation {
    Implementation("twice") { message throws(RuntimeError) in
        let call = original.call(message)
        _ = try interceptor.intercept(capture: { nil }, original: call)
        return try interceptor.passThrough(call)
    }
}
