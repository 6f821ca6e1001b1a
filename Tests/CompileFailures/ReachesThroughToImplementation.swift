// expect-error: 'implementation' is inaccessible
// A wrapper that digs the implementation out of the value it was given.
import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
import AutoTrackRuntime

func wrapper(_ original: OriginalImplementation<Implementation>, interceptor: Interceptor) -> Implementation {
    Implementation("dig") { message throws(RuntimeError) in
        try original.implementation.body(message)
    }
}
