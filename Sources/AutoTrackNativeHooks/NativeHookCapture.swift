import AutoTrackHooks
import AutoTrackInterception
import AutoTrackReferenceUI
import AutoTrackRuntime

/// What a native hook's intercepted call is, decided by the code the built-in hooks
/// use (`ReferenceHostCapture`): the same clicks and screen views, the same
/// deduplication, the same filters.
enum NativeHookCapture {
    /// The selector of a screen-view call that reports a return to the foreground.
    static let foregroundSelector = Selector("applicationWillEnterForeground:")

    /// Runs `original` once through `interceptor`, recording what `message` — at a hook
    /// of `point`, on `host` — is.
    static func run(point: InterceptionPoint, message: Message, host: ReferenceHost, interceptor: Interceptor, original: () -> Void) {
        switch point {
        case .sendAction:
            let call: ReferenceHostCapture.SendActionCall = switch message.selector.name {
            case "sendAction:to:from:forEvent:": .application(message)
            case "sendAction:": .closure(message)
            case "sendAction:to:forEvent:": .control(message)
            // Another library that exchanged the method on top of the hook sends its
            // own selector, and a hook reporting `_cmd` reports that one: the form is
            // then told by the arguments, which every layer passes on unchanged.
            default: switch message.arguments.count {
                case 4: .application(message)
                case 1: .closure(message)
                default: .control(message)
                }
            }
            interceptor.intercept(dedupe: call.dedupe(receiver: message.receiver)) {
                try call.click(interceptor: interceptor)
            } original: { original() }
        case .delegateSelection:
            interceptor.intercept(dedupe: .reentrancy(ReferenceHostCapture.selectionKey(for: message))) {
                try ReferenceHostCapture.selectionClick(message, interceptor: interceptor)
            } original: { original() }
        case .screenView where message.selector == foregroundSelector:
            // The app returned to the foreground (an observer of
            // UIApplicationWillEnterForegroundNotification, or the app delegate's method):
            // UIKit sends no viewDidAppear:, so the visible screen is recorded here.
            interceptor.intercept {
                ScreenViewTracking.foregroundScreenView(on: host, interceptor: interceptor)
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
        case .alertAction:
            // The call a wrapped handler block hands over: its receiver is the action.
            interceptor.intercept {
                guard let action = message.receiver as? AlertActionObject else { throw ReferenceHostCapture.Failure.unexpectedReceiver }
                return ReferenceHostCapture.alertClick(action, note: AlertNotes.note(for: action), interceptor: interceptor)
            } original: { original() }
        case .gesture:
            // A tracking target's action as the recognizer sends it: the receiver is the
            // hook's target, the argument the recognizer. It has no original of its own.
            interceptor.intercept {
                guard let recognizer = message.arguments.first?.object as? GestureRecognizerObject else {
                    throw ReferenceHostCapture.Failure.unexpectedReceiver
                }
                return try GestureTracking.click(recognizedBy: recognizer, reportedTo: message.receiver, interceptor: interceptor)
            } original: { original() }
        case .touchEnd, .swiftUITap:
            // -[UIApplication sendEvent:]: a touch that ended, recorded once per touch.
            let capture = point == .touchEnd ? ApplicationSendEventHook.capture(ended:interceptor:) : SwiftUITapHook.capture(ended:interceptor:)
            guard let event = EndedTouchWrapping.endedTouch(in: message), let recording = capture(event, interceptor) else {
                return interceptor.intercept { nil } original: { original() }
            }
            interceptor.intercept(dedupe: EndedTouchWrapping.dedupe(event, hook: interceptor.capturedBy), capture: { try recording() }) { original() }
        case .openURL, .notificationResponse:
            // The app delegate's (or the notification center delegate's) own method.
            interceptor.intercept(dedupe: AppOpenDelegation.dedupe(message, hook: interceptor.capturedBy)) {
                point == .openURL
                    ? try OpenURLDelegateHook.capture(opening: message, interceptor: interceptor)
                    : try NotificationResponseDelegateHook.capture(responding: message, interceptor: interceptor)
            } original: { original() }
        default:
            // A point whose calls the kit cannot read from native code: the original
            // runs, the call is counted as a bookkeeping failure.
            interceptor.intercept {
                throw ReferenceHostCapture.Failure.unexpectedReceiver
            } original: { original() }
        }
    }
}

/// The alert an action's click names, for native hooks: the note a hook of the package
/// left on the action, else one read from the alert the action belongs to when its
/// handler runs (a native hook cannot leave the package's note itself).
enum AlertNotes {
    static func note(for action: AlertActionObject) -> ReferenceHostCapture.AlertNote? {
        let runtime = action.realClass.runtime
        if let noted = runtime.associatedObject(for: ReferenceHostCapture.AlertNote.key, on: action) as? ReferenceHostCapture.AlertNote {
            return noted
        }
        return action.alertController.map(ReferenceHostCapture.AlertNote.init(alert:))
    }

    /// Notes, at every turn of `host`'s run loop, the alert on screen and where each of
    /// its actions is as a person sees it: a handler runs after its alert is dismissed,
    /// when the action's view has left the window, and a native hook has no presentation
    /// wrapper of the package's to note it. Changes no method of the app's.
    static func watchAlerts(on host: ReferenceHost, context: InteractionContext) -> ObserverToken {
        host.addRunLoopObserver { [weak host] in
            guard let alert = host?.visibleController, alert.kind == .alert else { return }
            let runtime = alert.host.runtime
            for view in alert.view.descendants(where: { $0 is AlertActionViewObject }) {
                guard let action = (view as? AlertActionViewObject)?.action,
                      runtime.associatedObject(for: ReferenceHostCapture.AlertNote.key, on: action) == nil else { continue }
                runtime.setAssociatedObject(ReferenceHostCapture.AlertNote(alert: alert), for: ReferenceHostCapture.AlertNote.key, on: action)
            }
            ReferenceHostCapture.AlertNote.noteOnScreen(alert, context: context)
        }
    }
}
