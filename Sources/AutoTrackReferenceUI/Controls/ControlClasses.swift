import AutoTrackProperties
import AutoTrackRuntime

/// `UIControl` and its subclasses, `UIAction`, `UIEvent` and `UIApplication`'s
/// `sendAction:to:from:forEvent:`.
enum ControlClasses {
    static func define(in host: ReferenceHost) throws(RuntimeError) {
        let runtime = host.runtime
        let view = runtime.lookUpClass("UIView")!
        host.register(try runtime.defineClass("UIAction"), storage: nil)
        host.register(try runtime.defineClass("UIEvent"), storage: .event)

        let control = try runtime.defineClass("UIControl", superclass: view, methods: [
            ("addTarget:action:forControlEvents:", "v@:@:Q", .procedure("-[UIControl addTarget:action:forControlEvents:]") {
                (message: Message, target: RuntimeObject?, action: Selector, events: Int) in
                guard let control = message.receiver as? ControlObject else { return }
                let mask = ControlEvents(rawValue: events)
                // UIKit keeps one entry per (target, action) and merges the events.
                if let index = control.targetActions.firstIndex(where: { $0.target === target && $0.action == action }) {
                    let existing = control.targetActions[index]
                    control.targetActions[index] = TargetAction(target: target, action: action, events: existing.events.union(mask))
                } else {
                    control.targetActions.append(TargetAction(target: target, action: action, events: mask))
                }
            }),
            ("removeTarget:action:forControlEvents:", "v@:@:Q", .procedure("-[UIControl removeTarget:action:forControlEvents:]") {
                (message: Message, target: RuntimeObject?, action: Selector, events: Int) in
                guard let control = message.receiver as? ControlObject else { return }
                control.targetActions.removeAll { ($0.target === target || target == nil) && $0.action == action }
                _ = events
            }),
            ("addAction:forControlEvents:", "v@:@Q", .procedure("-[UIControl addAction:forControlEvents:]") {
                (message: Message, action: ActionObject, events: Int) in
                (message.receiver as? ControlObject)?.closureActions.append((action, ControlEvents(rawValue: events)))
            }),
            // UIKit: each target-action pair goes through here, then to the application.
            ("sendAction:to:forEvent:", "v@::@@", .procedure("-[UIControl sendAction:to:forEvent:]") {
                (message: Message, action: Selector, target: RuntimeObject?, event: RuntimeObject?) throws(RuntimeError) in
                guard let control = message.receiver as? ControlObject else { return }
                try message.runtime.send(
                    control.host.application, "sendAction:to:from:forEvent:",
                    MessageArguments([.selector(action), .object(target), .object(control), .object(event)]))
            }),
            // A closure action runs through this (iOS 14's `sendAction:`), not the above.
            ("sendAction:", "v@:@", .procedure("-[UIControl sendAction:]") { (message: Message, action: ActionObject) throws(RuntimeError) in
                try action.handler.invoke([.object(message.receiver)])
            }),
            ("sendActionsForControlEvents:", "v@:Q", .procedure("-[UIControl sendActionsForControlEvents:]") {
                (message: Message, events: Int) throws(RuntimeError) in
                try message.runtime.send(message.receiver, "_sendActionsForEvents:withEvent:", MessageArguments(.int(events), .object(nil)))
            }),
            // Private: what touch handling calls, with the same event for every pair.
            ("_sendActionsForEvents:withEvent:", "v@:Q@", .procedure("-[UIControl _sendActionsForEvents:withEvent:]") {
                (message: Message, events: Int, event: RuntimeObject?) throws(RuntimeError) in
                guard let control = message.receiver as? ControlObject else { return }
                let host = control.host
                let previous = host.currentTouchEvent
                host.currentTouchEvent = event
                defer { host.currentTouchEvent = previous }
                let mask = ControlEvents(rawValue: events)
                for pair in control.targetActions(for: mask) {
                    if pair.hasTarget && pair.target == nil { continue } // the target was released
                    try message.runtime.send(
                        control, "sendAction:to:forEvent:",
                        MessageArguments(.selector(pair.action), .object(pair.target), .object(event)))
                }
                for (action, actionEvents) in control.closureActions where !actionEvents.isDisjoint(with: mask) {
                    try message.runtime.send(control, "sendAction:", MessageArguments(.object(action)))
                }
            }),
        ])
        host.register(control, storage: .control(.control))
        host.register(try runtime.defineClass("UIButton", superclass: control), storage: .control(.button))
        host.register(try runtime.defineClass("UISwitch", superclass: control), storage: .control(.toggle))
        host.register(try runtime.defineClass("UISegmentedControl", superclass: control), storage: .control(.segmentedControl))
        host.register(try runtime.defineClass("UISlider", superclass: control), storage: .control(.slider))
        host.register(try runtime.defineClass("UIStepper", superclass: control), storage: .control(.stepper))
        host.register(try runtime.defineClass("UITabBarButton", superclass: control), storage: .control(.tabBarItem))
        let textField = try runtime.defineClass("UITextField", superclass: control)
        host.register(textField, storage: .control(.textField))
        host.register(try runtime.defineClass("UISearchBarTextField", superclass: textField), storage: .control(.searchField))
        host.register(try runtime.defineClass("UISearchBar", superclass: view, methods: [
            ("_searchFieldBeginEditing", "v@:", .procedure("-[UISearchBar _searchFieldBeginEditing]") { _ in }),
            ("_searchFieldEndEditing", "v@:", .procedure("-[UISearchBar _searchFieldEndEditing]") { _ in }),
        ]), storage: .view(.view))
    }

    /// `UIApplication sendAction:to:from:forEvent:`: delivers an action to its target, or
    /// with a nil target to the first responder along the sender's chain that
    /// implements it. The action gets 0, 1 (sender) or 2 (sender, event) arguments by
    /// its name's colons. Returns whether someone handled it.
    static let applicationSendAction = Implementation("-[UIApplication sendAction:to:from:forEvent:]") {
        message throws(RuntimeError) in
        let runtime = message.runtime
        let action = try message.selector(at: 0)
        var target = try message.object(at: 1)
        let sender = try message.object(at: 2)
        let event = try message.object(at: 3)
        if target == nil {
            var responder = (sender as? ResponderObject)
            var steps = 0
            while let current = responder, steps < 256 {
                if try runtime.responds(current, to: action) {
                    target = current
                    break
                }
                responder = current.nextResponder
                steps += 1
            }
        }
        guard let target else { return .bool(false) }
        switch action.argumentCount {
        case 0: try runtime.send(target, action)
        case 1: try runtime.send(target, action, MessageArguments(.object(sender)))
        default: try runtime.send(target, action, MessageArguments(.object(sender), .object(event)))
        }
        return .bool(true)
    }
}
