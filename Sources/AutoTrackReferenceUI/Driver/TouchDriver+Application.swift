/// AutoTrackProperties: `Point` appears in this file's public API.
public import AutoTrackProperties
/// AutoTrackRuntime: `RuntimeError` appears in this file's public API.
public import AutoTrackRuntime

// MARK: Touches through the application, links and notifications

extension TouchDriver {
    /// A finger's tap on `view`, delivered as UIKit delivers it: a `UIEvent` in the
    /// began phase, then the same event in the ended phase, each through
    /// `-[UIApplication sendEvent:]`, which hands it on — to the nearest control at or
    /// above `view` (touch-down; then touch-up-inside), else, as the finger lifts, to
    /// the tap recognizers of the nearest view at or above it that has any. A view
    /// with neither does nothing: a dead tap.
    public func touch(_ view: ViewObject) throws(RuntimeError) {
        try touch(view, at: nil)
    }

    /// A finger's tap at `location` in `view`'s coordinates, delivered as
    /// ``touch(_:)`` delivers it: on a hosting view, SwiftUI activates what is there.
    public func touch(_ view: ViewObject, at location: Point?) throws(RuntimeError) {
        let confinement = host.enterUIThread("touch")
        defer { host.leaveUIThread(confinement) }
        let event = try makeEvent()
        event.touchedView = view
        event.touchLocation = location
        for phase in [TouchPhase.began, .ended] {
            event.touchPhase = phase
            try runtime.send(host.application, "sendEvent:", MessageArguments(.object(event)))
        }
    }

    /// What `-[UIApplication sendEvent:]` does with `event`: the touched view's
    /// control or recognizers react to its phase.
    func deliver(_ event: EventObject) throws(RuntimeError) {
        guard let view = event.touchedView else { return }
        if let hosting = view as? HostingViewObject {
            // SwiftUI's gesture system answers touches on its hosting view.
            if event.touchPhase == .ended, let location = event.touchLocation { hosting.performTap(at: location) }
            return
        }
        if let control = Self.nearest(from: view, where: { $0 is ControlObject }) as? ControlObject {
            switch event.touchPhase {
            case .began: try touchBegan(on: control, event: event)
            case .ended: try touchEnded(on: control, event: event, segment: nil)
            case .moved, .cancelled: break
            }
            return
        }
        guard event.touchPhase == .ended,
              let recognizing = Self.nearest(from: view, where: { $0.gestureRecognizers.contains { $0.kind == .tap } }) else { return }
        try recognizeTaps(on: recognizing)
    }

    /// `view` or the nearest view above it matching `test`.
    static func nearest(from view: ViewObject, where test: (ViewObject) -> Bool) -> ViewObject? {
        var current: ViewObject? = view
        var steps = 0
        while let candidate = current, steps < 256 {
            if test(candidate) { return candidate }
            current = candidate.superview
            steps += 1
        }
        return nil
    }

    /// The system opens the app with `link`: UIKit asks the app delegate
    /// `application:openURL:options:` — when it implements it — and returns its answer
    /// (`false` when there is no delegate or it does not).
    @discardableResult
    public func open(link: String) throws(RuntimeError) -> Bool {
        let confinement = host.enterUIThread("open")
        defer { host.leaveUIThread(confinement) }
        guard let delegate = host.application.delegate,
              (try? runtime.responds(delegate, to: "application:openURL:options:")) == true else { return false }
        let url = host.frameworkObject("NSURL", as: URLObject.self)
        url.absoluteString = link
        let answer = try runtime.send(
            delegate, "application:openURL:options:", MessageArguments(.object(host.application), .object(url), .object(nil)))
        if case .bool(let opened) = answer { return opened }
        return false
    }

    /// The user responds to a notification — opens it (`action`, by default) or
    /// dismisses it: UIKit gives the notification center's delegate
    /// `userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:`
    /// — when it implements it — with a completion handler it must call once.
    /// Returns how many times the handler was called (`nil`: no delegate took the
    /// response).
    @discardableResult
    public func openNotification(
        title: String?, body: String?, userInfo: [String: String] = [:],
        action: String = NotificationResponseObject.defaultActionIdentifier
    ) throws(RuntimeError) -> Int? {
        let confinement = host.enterUIThread("openNotification")
        defer { host.leaveUIThread(confinement) }
        let selector: Selector = "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:"
        guard let delegate = host.notificationCenter.delegate, (try? runtime.responds(delegate, to: selector)) == true else { return nil }
        let response = host.frameworkObject("UNNotificationResponse", as: NotificationResponseObject.self)
        response.title = title
        response.body = body
        response.userInfo = userInfo
        response.actionIdentifier = action
        let completions = CompletionCount()
        let completion = RuntimeBlock { _ throws(RuntimeError) in
            completions.value += 1
            return .void
        }
        _ = try runtime.send(delegate, selector, MessageArguments(.object(host.notificationCenter), .object(response), .block(completion)))
        return completions.value
    }

    /// How many times a completion handler ran.
    final class CompletionCount: @unchecked Sendable {
        // Safe by confinement to the UI thread, where UIKit calls completion handlers.
        var value = 0
    }
}
