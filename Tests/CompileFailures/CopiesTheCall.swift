// expect-error: 'call' consumed more than once
// A wrapper that keeps a copy of the call to run later.
import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
import AutoTrackRuntime

func wrapper(_ original: OriginalImplementation<Implementation>, interceptor: Interceptor) -> Implementation {
    Implementation("copy") { message throws(RuntimeError) in
        let call = original.call(message)
        let kept = call
        _ = try interceptor.passThrough(kept)
        return try interceptor.intercept(capture: { nil }, original: call)
    }
}
