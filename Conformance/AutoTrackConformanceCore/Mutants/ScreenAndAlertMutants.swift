import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackRuntime

extension Mutants {
    // MARK: Screen views

    static let screenViews: [Mutant] = [
        Mutant(subject: ConformanceSubject(
            name: "mutant/screen-view/ignores-exclusions", point: .screenView, hookedMethods: [.init("UIViewController", "viewDidAppear:")]
        ) { host, context throws(HookError) in
            try naiveWrap(host, "UIViewController", "viewDidAppear:", name: "ignores-exclusions") { original in
                { message throws(RuntimeError) in
                    if context.isEnabled, let controller = message.receiver as? ViewControllerObject {
                        try? context.sink.receive(Interaction(point: .screenView, element: nil, screen: context.snapshot(of: controller),
                                                              details: InteractionDetails(), capturedBy: "ignores-exclusions"))
                    }
                    return try original.body(message)
                }
            }
        }, caughtBy: ["SV-01"]),
        Mutant(subject: ConformanceSubject(
            name: "mutant/screen-view/no-disappear-tracking", point: .screenView, hookedMethods: [.init("UIViewController", "viewDidAppear:")]
        ) { host, context throws(HookError) in
            try naiveWrap(host, "UIViewController", "viewDidAppear:", name: "no-disappear-tracking") { original in
                { message throws(RuntimeError) in
                    if let controller = message.receiver as? ViewControllerObject {
                        context.emit(Interaction(point: .screenView, element: nil, screen: context.snapshot(of: controller),
                                                 details: InteractionDetails(), capturedBy: "no-disappear-tracking"))
                    }
                    return try original.body(message)
                }
            }
        }, caughtBy: ["SV-03", "SV-08"]),
    ]

    // MARK: Alerts

    static let alerts: [Mutant] = [
        Mutant(subject: ConformanceSubject(
            name: "mutant/alert/wraps-only-non-nil-handlers", point: .alertAction,
            hookedMethods: [.init("UIAlertAction", "actionWithTitle:style:handler:", isClassMethod: true)]
        ) { host, context throws(HookError) in
            try naiveWrap(host, "UIAlertAction", "actionWithTitle:style:handler:", classMethod: true, name: "non-nil-only") { original in
                { message throws(RuntimeError) in
                    guard message.arguments.count == 3, case .block(let handler?) = message.arguments[2] else { return try original.body(message) }
                    let wrapped = RuntimeBlock { arguments throws(RuntimeError) in
                        if context.isEnabled, let action = arguments.first?.object as? AlertActionObject {
                            context.emit(Interaction(point: .alertAction, element: nil, screen: nil,
                                                     details: InteractionDetails(alert: AlertContext(
                                                        controllerType: "UIAlertController", title: action.alertController?.title,
                                                        message: action.alertController?.message, actionTitle: action.title, actionStyle: "\(action.style)")),
                                                     capturedBy: "non-nil-only"))
                        }
                        return try handler.invoke(arguments)
                    }
                    return try original.body(message.replacingArguments(MessageArguments(message.arguments[0], message.arguments[1], .block(wrapped))))
                }
            }
        }, caughtBy: ["AA-01"]),
    ]
}
