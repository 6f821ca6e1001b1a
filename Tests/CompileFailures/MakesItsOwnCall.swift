// expect-error: initializer is inaccessible
// A wrapper that builds an original-call value around an implementation it looked up.
import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
import AutoTrackRuntime

func wrapper(_ replaced: Implementation, interceptor: Interceptor) -> Implementation {
    Implementation("forged") { message throws(RuntimeError) in
        let call = OriginalCall(replaced.body, arguments: message)
        return try interceptor.passThrough(call)
    }
}
