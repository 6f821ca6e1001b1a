// expect-error: has no member 'body'
// A wrapper that runs the implementation it replaced itself, around the combinator.
import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
import AutoTrackRuntime

func wrapper(_ original: OriginalImplementation<Implementation>, interceptor: Interceptor) -> Implementation {
    Implementation("direct") { message throws(RuntimeError) in
        interceptor.record(capture: { nil })
        return try original.body(message)
    }
}
