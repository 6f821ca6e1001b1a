// expect: compiles
// The control: a wrapper that hands its original to the combinator once compiles, so
// the failures below fail for what they do, not for how they are built.
import AutoTrackInterception
import AutoTrackMethodWrapping
import AutoTrackModelBackend
import AutoTrackRuntime

func wrapper(_ original: OriginalImplementation<Implementation>, interceptor: Interceptor) -> Implementation {
    Implementation("correct") { message throws(RuntimeError) in
        try interceptor.intercept(capture: { nil }, original: original.call(message))
    }
}
