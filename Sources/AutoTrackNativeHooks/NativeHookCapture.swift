import AutoTrackHooks
import AutoTrackInterception
import AutoTrackReferenceUI
import AutoTrackRuntime

/// What a native hook's intercepted call is, decided by the code the built-in hooks
/// use (`ReferenceHostCapture`): the same clicks and screen views, the same
/// deduplication, the same filters.
enum NativeHookCapture {
    /// Runs `original` once through `interceptor`, recording what `message` — at a hook
    /// of `point` — is.
    static func run(point: InterceptionPoint, message: Message, interceptor: Interceptor, original: () -> Void) {
        switch point {
        case .sendAction:
            let call: ReferenceHostCapture.SendActionCall = switch message.selector.name {
            case "sendAction:to:from:forEvent:": .application(message)
            case "sendAction:": .closure(message)
            default: .control(message)
            }
            interceptor.intercept(dedupe: call.dedupe(receiver: message.receiver)) {
                try call.click(interceptor: interceptor)
            } original: { original() }
        case .delegateSelection:
            interceptor.intercept(dedupe: .reentrancy(ReferenceHostCapture.selectionKey(for: message))) {
                try ReferenceHostCapture.selectionClick(message, interceptor: interceptor)
            } original: { original() }
        case .screenView where message.selector.name == "viewDidDisappear:":
            interceptor.forward(original: { original() }, then: { _ in
                ReferenceHostCapture.noteDisappeared(message.receiver)
                if interceptor.isRecording, let controller = message.receiver as? ViewControllerObject {
                    interceptor.context.screenDisappeared(controller)
                }
            })
        case .screenView:
            interceptor.intercept(dedupe: .reentrancy(ReferenceHostCapture.appearanceKey(message.receiver))) {
                guard let controller = message.receiver as? ViewControllerObject else { throw ReferenceHostCapture.Failure.unexpectedReceiver }
                let animated = message.arguments.first.flatMap { if case .bool(let value) = $0 { value } else { nil } }
                return try ReferenceHostCapture.appearance(of: controller, animated: animated, interceptor: interceptor)
            } original: { original() }
        default:
            // A point whose calls the kit cannot read from native code yet: the original
            // runs, the call is counted as a bookkeeping failure.
            interceptor.intercept {
                throw ReferenceHostCapture.Failure.unexpectedReceiver
            } original: { original() }
        }
    }
}
