import AutoTrackReferenceUI
import AutoTrackRuntime

// MARK: The app delegate

extension SampleApp {
    /// `AppDelegate`: opens every link it is given (recording it, answering `true`)
    /// and, as the notification center's delegate, records each notification the user
    /// opens, then calls the completion handler once, as UIKit requires.
    func defineAppDelegate() throws(RuntimeError) {
        let log = self.log
        try define("AppDelegate", superclass: "UIResponder") { _ in
            [
                (Selector("application:openURL:options:"), "c@:@@@", Implementation("-[AppDelegate application:openURL:options:]") { message in
                    let url = message.arguments.count > 1 ? message.arguments[1].object as? URLObject : nil
                    log.record(.openLink(url?.absoluteString ?? ""), selector: "application:openURL:options:",
                               receiver: message.receiver, arguments: Array(message.arguments))
                    return .bool(true)
                }),
                (Selector("userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:"), "v@:@@@?",
                 Implementation("-[AppDelegate userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:]") {
                     message throws(RuntimeError) in
                     let response = message.arguments.count > 1 ? message.arguments[1].object as? NotificationResponseObject : nil
                     log.record(.openNotification(response?.title ?? ""),
                                selector: "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:",
                                receiver: message.receiver, arguments: Array(message.arguments))
                     if message.arguments.count > 2, case .block(let completion?) = message.arguments[2] { _ = try completion.invoke([]) }
                     return .void
                 }),
            ]
        }
    }

    /// Makes an `AppDelegate` the application's delegate and the notification
    /// center's, as `UIApplicationMain` and `application:didFinishLaunching…` do.
    func connectAppDelegate() throws(RuntimeError) {
        appDelegate = try host.runtime.allocate(try host.lookUpClass("AppDelegate"))
        try host.runtime.send(host.application, "setDelegate:", MessageArguments(.object(appDelegate)))
        try host.runtime.send(host.notificationCenter, "setDelegate:", MessageArguments(.object(appDelegate)))
    }
}
