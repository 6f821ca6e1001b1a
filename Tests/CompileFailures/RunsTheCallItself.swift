// expect-error: 'body' is inaccessible
// A wrapper that binds the call, then runs it without the combinator.
import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
import AutoTrackRuntime

func wrapper(_ original: OriginalImplementation<Implementation>, interceptor: Interceptor) -> Implementation {
    Implementation("self-run") { message throws(RuntimeError) in
        let call = original.call(message)
        return try call.body(call.arguments)
    }
}
