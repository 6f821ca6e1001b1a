import AutoTrackProperties
/// AutoTrackRuntime: `RuntimeObject`, `Selector` appear in this file's public API.
public import AutoTrackRuntime

/// Which gesture a recognizer recognises.
public enum GestureKind: String, Sendable {
    /// A tap: recognised once, at the end.
    case tap
    /// A long press: began, changed (0…n times), ended.
    case longPress
    /// A pan: began, changed, ended.
    case pan
}

/// The Swift-side storage of a gesture recognizer (`UIGestureRecognizer` subclasses).
public final class GestureRecognizerObject: RuntimeObject, @unchecked Sendable {
    // Safe by confinement to the UI thread.

    /// The host.
    public unowned let host: ReferenceHost
    /// The kind, fixed by the UIKit base class.
    public let kind: GestureKind
    /// Target-action pairs in registration order.
    public internal(set) var targets: [TargetAction] = [] {
        // The view's actions (a navigation-bar control's id reads them).
        didSet { host.hierarchyVersion.bump() }
    }
    /// The current state.
    public internal(set) var state: GestureState = .possible
    /// The view the recognizer is attached to (weak, as in UIKit).
    public internal(set) weak var view: ViewObject?

    init(host: ReferenceHost, class cls: RuntimeClass, kind: GestureKind) {
        self.host = host
        self.kind = kind
        super.init(instanceOf: cls)
    }

    /// Puts a pair first in the recognizer's target list without a message — what a
    /// framework reaching into UIKit's private `_targets` storage does, so that its
    /// target runs before the app's.
    public func insertTargetFirst(_ target: RuntimeObject, action: Selector) {
        targets.insert(TargetAction(target: target, action: action), at: 0)
    }

    /// Registers a pair through `addTarget:action:`.
    public func addTarget(_ target: RuntimeObject?, action: Selector) {
        _ = try? host.runtime.send(self, "addTarget:action:", MessageArguments(.object(target), .selector(action)))
    }

    /// Removes a pair through `removeTarget:action:`.
    public func removeTarget(_ target: RuntimeObject?, action: Selector) {
        _ = try? host.runtime.send(self, "removeTarget:action:", MessageArguments(.object(target), .selector(action)))
    }
}

/// `UIGestureRecognizer` and the tap, long-press and pan recognizers.
enum GestureClasses {
    static func define(in host: ReferenceHost) throws(RuntimeError) {
        let runtime = host.runtime
        let base = try runtime.defineClass("UIGestureRecognizer", methods: [
            ("initWithTarget:action:", "@@:@:", .returning("-[UIGestureRecognizer initWithTarget:action:]") {
                (message: Message, target: RuntimeObject?, action: Selector) -> RuntimeObject? in
                guard let recognizer = message.receiver as? GestureRecognizerObject else { return nil }
                if target != nil || action.name != "" {
                    recognizer.targets.append(TargetAction(target: target, action: action))
                }
                return recognizer
            }),
            ("init", "@@:", .returning("-[UIGestureRecognizer init]") { (message: Message) -> RuntimeObject? in message.receiver }),
            ("addTarget:action:", "v@:@:", .procedure("-[UIGestureRecognizer addTarget:action:]") {
                (message: Message, target: RuntimeObject?, action: Selector) in
                guard let recognizer = message.receiver as? GestureRecognizerObject else { return }
                if !recognizer.targets.contains(where: { $0.target === target && $0.action == action }) {
                    recognizer.targets.append(TargetAction(target: target, action: action))
                }
            }),
            ("removeTarget:action:", "v@:@:", .procedure("-[UIGestureRecognizer removeTarget:action:]") {
                (message: Message, target: RuntimeObject?, action: Selector) in
                (message.receiver as? GestureRecognizerObject)?.targets.removeAll { $0.target === target && $0.action == action }
            }),
            ("state", "q@:", .returning("-[UIGestureRecognizer state]") { (message: Message) -> Int in
                (message.receiver as? GestureRecognizerObject)?.state.rawValue ?? 0
            }),
            // Private: move to `state` and call every target-action pair, in order, with
            // the recognizer as the argument (or none, for a colon-free action).
            ("_setState:", "v@:q", .procedure("-[UIGestureRecognizer _setState:]") { (message: Message, raw: Int) throws(RuntimeError) in
                guard let recognizer = message.receiver as? GestureRecognizerObject else { return }
                recognizer.state = GestureState(rawValue: raw) ?? .possible
                guard [.began, .changed, .ended].contains(recognizer.state) else { return }
                for pair in recognizer.targets {
                    guard let target = pair.target else { continue }
                    if pair.action.argumentCount == 0 {
                        try message.runtime.send(target, pair.action)
                    } else {
                        try message.runtime.send(target, pair.action, MessageArguments(.object(recognizer)))
                    }
                }
            }),
        ])
        host.register(base, storage: .gesture(.tap))
        host.register(try runtime.defineClass("UITapGestureRecognizer", superclass: base), storage: .gesture(.tap))
        host.register(try runtime.defineClass("UILongPressGestureRecognizer", superclass: base), storage: .gesture(.longPress))
        host.register(try runtime.defineClass("UIPanGestureRecognizer", superclass: base), storage: .gesture(.pan))
    }
}
