import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackRuntime

extension Mutants {
    /// Broken SwiftUI tap hooks, each the way a UIKit-minded hook goes wrong on SwiftUI.
    static let swiftUI: [Mutant] = [
        swiftUIMutant("every-touch", caughtBy: ["SU-05"]) { hostingView, location, context, original, message throws(RuntimeError) in
            // Every touch on a hosting view is a click, on whatever is under it.
            let element: any ElementNode = hostingView.element(at: location) ?? hostingView
            context.emit(interaction(element, in: hostingView, context: context, name: "every-touch"))
            return try original.body(message)
        },
        swiftUIMutant("hosting-view-snapshot", caughtBy: ["SU-01", "SU-06"]) { hostingView, location, context, original, message throws(RuntimeError) in
            // The touched UIView — the hosting view — is recorded, as for a UIKit touch.
            if hostingView.tapTarget(at: location) != nil {
                context.emit(interaction(hostingView, in: hostingView, context: context, name: "hosting-view-snapshot"))
            }
            return try original.body(message)
        },
        swiftUIMutant("read-after-action", caughtBy: ["SU-07", "GEN-02"]) { hostingView, location, context, original, message throws(RuntimeError) in
            // The element is looked up again once the action ran: the label it has now.
            let tapped = hostingView.tapTarget(at: location) != nil
            let result = try original.body(message)
            if tapped, let element = hostingView.tapTarget(at: location) {
                context.emit(interaction(element, in: hostingView, context: context, name: "read-after-action"))
            }
            return result
        },
        swiftUIMutant("under-the-finger-only", caughtBy: ["SU-13"]) { hostingView, location, context, original, message throws(RuntimeError) in
            // Only the view under the finger is asked whether it answers taps.
            if let element = hostingView.element(at: location), element.tapResponse != nil {
                context.emit(interaction(element, in: hostingView, context: context, name: "under-the-finger-only"))
            }
            return try original.body(message)
        },
        swiftUIMutant("bypasses-filters", caughtBy: ["SU-10"]) { hostingView, location, context, original, message throws(RuntimeError) in
            // Straight to the sink: ignored views and disabled tracking recorded anyway.
            if let element = hostingView.tapTarget(at: location) {
                try? context.sink.receive(interaction(element, in: hostingView, context: context, name: "bypasses-filters"))
            }
            return try original.body(message)
        },
    ]

    /// A SwiftUI tap mutant: a naive wrap of `-[UIApplication sendEvent:]` that hands
    /// `body` the hosting view and location of every touch that ends on one.
    static func swiftUIMutant(
        _ name: String, caughtBy: [String],
        body: @escaping @Sendable (HostingViewObject, Point, InteractionContext, Implementation, Message) throws(RuntimeError) -> RuntimeValue
    ) -> Mutant {
        Mutant(subject: ConformanceSubject(
            name: "mutant/swiftui-tap/\(name)", point: .swiftUITap, hookedMethods: [.init("UIApplication", "sendEvent:")]
        ) { host, context throws(HookError) in
            try naiveWrap(host, "UIApplication", "sendEvent:", name: name) { original in
                { message throws(RuntimeError) in
                    guard let event = message.arguments.first?.object as? EventObject, event.touchPhase == .ended,
                          let hostingView = event.touchedView as? HostingViewObject, let location = event.touchLocation
                    else { return try original.body(message) }
                    return try body(hostingView, location, context, original, message)
                }
            }
        }, caughtBy: caughtBy)
    }

    /// A SwiftUI click on `element`.
    private static func interaction(_ element: any ElementNode, in hostingView: HostingViewObject, context: InteractionContext, name: String) -> Interaction {
        Interaction(
            point: .swiftUITap, element: context.snapshot(of: element),
            screen: (hostingView.owningScreen ?? hostingView.host.visibleController).map(context.snapshot(of:)),
            details: InteractionDetails(listPosition: element.listPosition), capturedBy: name)
    }
}
