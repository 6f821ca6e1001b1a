import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackRuntime

/// Deliberately broken hooks — at least one per contract rule, and the tutorials'
/// naive versions — each with the scenarios that must catch it. The kit's own tests
/// run them to prove every scenario catches what it names.
public enum Mutants {
    /// A mutant and the scenario ids that must report it.
    public struct Mutant: Sendable {
        /// The broken hook.
        public let subject: ConformanceSubject
        /// The scenarios that must fail for it.
        public let caughtBy: [String]

        /// The scenarios of ``caughtBy`` that `report` — this mutant's — shows passing:
        /// where the mutant got through. Empty when it was caught.
        public func missed(in report: ConformanceReport) -> [String] {
            Set(caughtBy).subtracting(report.failedScenarioIDs).sorted()
        }
    }

    /// Every mutant.
    public static let all: [Mutant] = sendAction + gestures + delegates + screenViews + alerts + swiftUI

    // MARK: Building blocks

    /// The naive `method_setImplementation` wrap every mutant starts from: no registry,
    /// no pass-through, and an uninstall that restores the saved implementation blindly.
    static func naiveWrap(
        _ host: ReferenceHost, _ className: String, _ selector: Selector, classMethod: Bool = false, name: String,
        _ make: @escaping @Sendable (Implementation) -> Implementation.Body
    ) throws(HookError) -> HookHandle {
        guard var cls = host.runtime.lookUpClass(className) else { throw .classNotFound(className: className) }
        if classMethod { cls = cls.metaclass }
        guard let found = host.runtime.method(selector, in: cls) else {
            throw .methodNotFound(className: className, selector: selector.name, isClassMethod: classMethod)
        }
        if found.owner !== cls { host.runtime.addMethod(to: cls, selector, found.implementation, types: found.typeEncoding) }
        guard let method = host.runtime.method(selector, in: cls) else { throw .methodNotAdded(className: className, selector: selector.name) }
        let original = method.implementation
        host.runtime.setImplementation(of: method, to: Implementation(name, make(original)))
        let runtime = host.runtime
        return HookHandle(name: name) {
            runtime.setImplementation(of: method, to: original)
            return .uninstalled
        }
    }

    /// Records a send-action click for `sender` without any of the safeguards.
    static func recordClick(_ sender: RuntimeObject, action: RuntimeValue?, context: InteractionContext, name: String) {
        guard let control = sender as? ViewObject else { return }
        var actionName: String?
        if case .selector(let selector)? = action { actionName = selector.name }
        context.emit(Interaction(
            point: .sendAction, element: context.snapshot(of: control),
            screen: (control.owningScreen ?? control.host.visibleController).map(context.snapshot(of:)),
            details: InteractionDetails(actionName: actionName), capturedBy: name))
    }

    static func sendActionMutant(
        _ name: String, caughtBy: [String],
        body: @escaping @Sendable (
            _ original: Implementation, _ message: Message, _ context: InteractionContext, _ touches: TouchDeduplicator
        ) throws(RuntimeError) -> RuntimeValue
    ) -> Mutant {
        let fullName = "mutant/send-action/\(name)"
        return Mutant(subject: ConformanceSubject(
            name: fullName, point: .sendAction, hookedMethods: [.init("UIControl", "sendAction:to:forEvent:")]
        ) { host, context throws(HookError) in
            let touches = TouchDeduplicator()
            return try naiveWrap(host, "UIControl", "sendAction:to:forEvent:", name: fullName) { original in
                { message throws(RuntimeError) in try body(original, message, context, touches) }
            }
        }, caughtBy: caughtBy)
    }

    /// Records once per touch, with the given per-installation deduplicator.
    static func dedupedRecord(_ message: Message, _ context: InteractionContext, _ touches: TouchDeduplicator, _ name: String) {
        let event = message.arguments.count > 2 ? message.arguments[2].object : nil
        if context.isEnabled, touches.isFirstDispatch(event: event, element: message.receiver) {
            recordClick(message.receiver, action: message.arguments.first, context: context, name: name)
        }
    }

    // MARK: Send-action

    static let sendAction: [Mutant] = [
        sendActionMutant("skips-original", caughtBy: ["GEN-01"]) { _, message, context, touches throws(RuntimeError) in
            dedupedRecord(message, context, touches, "skips-original")
            return .void
        },
        sendActionMutant("calls-original-twice", caughtBy: ["GEN-01"]) { original, message, context, touches throws(RuntimeError) in
            dedupedRecord(message, context, touches, "calls-original-twice")
            _ = try original.body(message)
            return try original.body(message)
        },
        sendActionMutant("emits-per-target", caughtBy: ["SA-01"]) { original, message, context, touches throws(RuntimeError) in
            let event = message.arguments.count > 2 ? message.arguments[2].object : nil
            if context.isEnabled, event != nil { recordClick(message.receiver, action: message.arguments.first, context: context, name: "emits-per-target") }
            return try original.body(message)
        },
        sendActionMutant("tracks-after-original", caughtBy: ["GEN-02"]) { original, message, context, touches throws(RuntimeError) in
            let result = try original.body(message)
            dedupedRecord(message, context, touches, "tracks-after-original")
            return result
        },
        sendActionMutant("not-fail-open", caughtBy: ["GEN-13"]) { original, message, context, touches throws(RuntimeError) in
            let event = message.arguments.count > 2 ? message.arguments[2].object : nil
            if touches.isFirstDispatch(event: event, element: message.receiver), let control = message.receiver as? ViewObject {
                do {
                    try context.sink.receive(Interaction(
                        point: .sendAction, element: context.snapshot(of: control), screen: nil,
                        details: InteractionDetails(), capturedBy: "not-fail-open"))
                } catch {
                    throw .exception(name: "TrackingFailure", reason: "\(error)")
                }
            }
            return try original.body(message)
        },
        sendActionMutant("ignores-disabled", caughtBy: ["GEN-14"]) { original, message, context, touches throws(RuntimeError) in
            let event = message.arguments.count > 2 ? message.arguments[2].object : nil
            if touches.isFirstDispatch(event: event, element: message.receiver), let control = message.receiver as? ViewObject {
                try? context.sink.receive(Interaction(
                    point: .sendAction, element: context.snapshot(of: control), screen: nil, details: InteractionDetails(), capturedBy: "ignores-disabled"))
            }
            return try original.body(message)
        },
        // Caught for certain by GEN-03 (installed twice in turn). GEN-04's eight racing
        // installs catch it only when two wrappers survive the race — how the threads
        // interleave decides, so it is not named.
        sendActionMutant("not-idempotent", caughtBy: ["GEN-03"]) { original, message, context, touches throws(RuntimeError) in
            // Each installation wraps again, and each wrapper records with its own memory.
            let event = message.arguments.count > 2 ? message.arguments[2].object : nil
            if context.isEnabled, event != nil, message.receiver is ControlObject {
                let key = AssociationKey("mutant.lastEvent.\(ObjectIdentifier(original).hashValue)")
                let last = message.runtime.associatedObject(for: key, on: message.receiver) as AnyObject?
                if last !== event {
                    message.runtime.setAssociatedObject(event, for: key, on: message.receiver, policy: .assign)
                    recordClick(message.receiver, action: message.arguments.first, context: context, name: "not-idempotent")
                }
            }
            return try original.body(message)
        },
        Mutant(subject: ConformanceSubject(
            name: "mutant/send-action/renames-selector", point: .sendAction, hookedMethods: [.init("UIControl", "sendAction:to:forEvent:")]
        ) { host, context throws(HookError) in
            let touches = TouchDeduplicator()
            // The tutorials' exchange: the original runs as `mutant_sendAction:to:forEvent:`.
            guard let cls = host.runtime.lookUpClass("UIControl"), let own = host.runtime.method("sendAction:to:forEvent:", in: cls) else {
                throw .classNotFound(className: "UIControl")
            }
            let swizzled = Selector("mutant_sendAction:to:forEvent:")
            if host.runtime.method(swizzled, in: cls) == nil {
                host.runtime.addMethod(to: cls, swizzled, Implementation("renames-selector") { message throws(RuntimeError) in
                    dedupedRecord(message, context, touches, "renames-selector")
                    return try message.runtime.send(message.receiver, swizzled, message.arguments)
                }, types: own.typeEncoding)
                host.runtime.exchangeImplementations(own, host.runtime.method(swizzled, in: cls)!)
            }
            return HookHandle(name: "renames-selector") { .uninstalled }
        }, caughtBy: ["GEN-16"]),
        Mutant(subject: ConformanceSubject(
            name: "mutant/send-action/clobbering-uninstall", point: .sendAction, hookedMethods: [.init("UIControl", "sendAction:to:forEvent:")]
        ) { host, context throws(HookError) in
            let touches = TouchDeduplicator()
            return try naiveWrap(host, "UIControl", "sendAction:to:forEvent:", name: "clobbering-uninstall") { original in
                { message throws(RuntimeError) in
                    dedupedRecord(message, context, touches, "clobbering-uninstall")
                    return try original.body(message)
                }
            }
        }, caughtBy: ["GEN-11"]),
    ]

    // MARK: Gestures

    static let gestures: [Mutant] = [
        Mutant(subject: ConformanceSubject(
            name: "mutant/gesture/emits-per-state", point: .gesture, hookedMethods: [.init("UIView", "addGestureRecognizer:")]
        ) { host, context throws(HookError) in
            try naiveWrap(host, "UIView", "addGestureRecognizer:", name: "emits-per-state") { original in
                { message throws(RuntimeError) in
                    let result = try original.body(message)
                    if let recognizer = message.arguments.first?.object as? GestureRecognizerObject {
                        let tracker = try MutantTracker.make(host: host) { recognizer in
                            guard context.isEnabled, let view = recognizer.view else { return }
                            context.emit(Interaction(point: .gesture, element: context.snapshot(of: view), screen: nil,
                                                     details: InteractionDetails(gestureKind: InteractionDetails.GestureKind(recognizer.kind.rawValue)), capturedBy: "emits-per-state"))
                        }
                        message.runtime.setAssociatedObject(tracker, for: AssociationKey("mutant.tracker"), on: recognizer)
                        recognizer.insertTargetFirst(tracker, action: "mutantFired:")
                    }
                    return result
                }
            }
        }, caughtBy: ["GR-02"]),
        Mutant(subject: ConformanceSubject(
            name: "mutant/gesture/target-class-swizzle", point: .gesture, hookedMethods: [.init("UIGestureRecognizer", "initWithTarget:action:")]
        ) { host, context throws(HookError) in
            // The naive gesture hook: exchange the target class's action method with a tracking one.
            try naiveWrap(host, "UIGestureRecognizer", "initWithTarget:action:", name: "target-class-swizzle") { original in
                { message throws(RuntimeError) in
                    let result = try original.body(message)
                    guard message.arguments.count == 2, let target = message.arguments[0].object,
                          case .selector(let action) = message.arguments[1] else { return result }
                    let runtime = message.runtime
                    let cls = target.realClass
                    let swizzled = Selector("wm_\(cls.name)_\(action)")
                    if runtime.method(swizzled, in: cls)?.owner !== cls, let found = runtime.method(action, in: cls) {
                        runtime.addMethod(to: cls, swizzled, Implementation("target-class-swizzle \(action)") { message throws(RuntimeError) in
                            if context.isEnabled, let recognizer = message.arguments.first?.object as? GestureRecognizerObject, let view = recognizer.view {
                                context.emit(Interaction(point: .gesture, element: context.snapshot(of: view), screen: nil,
                                                         details: InteractionDetails(gestureKind: .tap), capturedBy: "target-class-swizzle"))
                            } else if context.isEnabled, message.arguments.first?.object is GestureRecognizerObject {
                                context.emit(Interaction(point: .gesture, element: nil, screen: nil, details: InteractionDetails(), capturedBy: "target-class-swizzle"))
                            }
                            return try message.runtime.send(message.receiver, swizzled, message.arguments)
                        }, types: found.typeEncoding)
                        if found.owner !== cls { runtime.addMethod(to: cls, action, found.implementation, types: found.typeEncoding) }
                        runtime.exchangeImplementations(runtime.method(action, in: cls)!, runtime.method(swizzled, in: cls)!)
                    }
                    return result
                }
            }
        }, caughtBy: ["GR-06"]),
    ]

    /// A target object that calls back on every recognizer state.
    final class MutantTracker: RuntimeObject, @unchecked Sendable {
        // Safe: immutable after creation.
        let callback: @Sendable (GestureRecognizerObject) -> Void
        init(class cls: RuntimeClass, callback: @escaping @Sendable (GestureRecognizerObject) -> Void) {
            self.callback = callback
            super.init(instanceOf: cls)
        }

        static func make(host: ReferenceHost, callback: @escaping @Sendable (GestureRecognizerObject) -> Void) throws(RuntimeError) -> MutantTracker {
            if let existing = host.runtime.lookUpClass("MutantTracker") { return MutantTracker(class: existing, callback: callback) }
            let cls = try host.runtime.defineClass("MutantTracker", methods: [
                ("mutantFired:", "v@:@", Implementation("mutantFired:") { message in
                    if let tracker = message.receiver as? MutantTracker, let recognizer = message.arguments.first?.object as? GestureRecognizerObject {
                        tracker.callback(recognizer)
                    }
                    return .void
                }),
            ])
            return MutantTracker(class: cls, callback: callback)
        }
    }

    // MARK: Delegates

    static func recordSelection(_ message: Message, _ context: InteractionContext, _ name: String) {
        guard context.isEnabled, message.arguments.count == 2, let list = message.arguments[0].object as? ListViewObject,
              case .value(let value) = message.arguments[1], let indexPath = value as? IndexPath else { return }
        let element: any ElementNode = list.cell(at: indexPath) ?? list
        context.emit(Interaction(
            point: .delegateSelection, element: context.snapshot(of: element), screen: nil,
            details: InteractionDetails(listPosition: ListPosition(section: indexPath.section, index: indexPath.item)), capturedBy: name))
    }

    static func setDelegateMutant(
        _ name: String, caughtBy: [String],
        prepare: @escaping @Sendable (_ host: ReferenceHost, _ list: ListViewObject, _ delegate: RuntimeObject?, _ context: InteractionContext) throws(RuntimeError) -> RuntimeObject?
    ) -> Mutant {
        let fullName = "mutant/delegate/\(name)"
        return Mutant(subject: ConformanceSubject(
            name: fullName, point: .delegateSelection, hookedMethods: [.init("UITableView", "setDelegate:")]
        ) { host, context throws(HookError) in
            try naiveWrap(host, "UITableView", "setDelegate:", name: fullName) { original in
                { message throws(RuntimeError) in
                    guard let list = message.receiver as? ListViewObject else { return try original.body(message) }
                    let handed = try prepare(host, list, message.arguments.first?.object, context)
                    return try original.body(message.replacingArguments([.object(handed)]))
                }
            }
        }, caughtBy: caughtBy)
    }

    /// Method exchange on the delegate class, with switches for the tutorials' mistakes.
    static func exchangeOnDelegateClass(_ delegate: RuntimeObject?, context: InteractionContext, addFirst: Bool, name: String) {
        guard let delegate else { return }
        let runtime = delegate.realClass.runtime
        let cls = delegate.realClass
        let selector = ListSelectors.tableDidSelect
        let swizzled = Selector("mutant_\(cls.name)_tableView:didSelectRowAtIndexPath:")
        guard runtime.method(swizzled, in: cls) == nil, let found = runtime.method(selector, in: cls) else { return }
        if addFirst, found.owner !== cls { runtime.addMethod(to: cls, selector, found.implementation, types: found.typeEncoding) }
        runtime.addMethod(to: cls, swizzled, Implementation(name) { message throws(RuntimeError) in
            recordSelection(message, context, name)
            return try message.runtime.send(message.receiver, swizzled, message.arguments)
        }, types: found.typeEncoding)
        guard let target = addFirst ? runtime.method(selector, in: cls) : found, let added = runtime.method(swizzled, in: cls) else { return }
        runtime.exchangeImplementations(target, added)
    }

    static let delegates: [Mutant] = [
        setDelegateMutant("swizzles-inherited-on-superclass", caughtBy: ["DS-02"]) { _, _, delegate, context throws(RuntimeError) in
            exchangeOnDelegateClass(delegate, context: context, addFirst: false, name: "swizzles-inherited")
            return delegate
        },
        setDelegateMutant("no-reentrancy-guard", caughtBy: ["DS-01"]) { _, _, delegate, context throws(RuntimeError) in
            exchangeOnDelegateClass(delegate, context: context, addFirst: true, name: "no-guard")
            return delegate
        },
        setDelegateMutant("subclass-without-class-mask", caughtBy: ["DS-15"]) { host, _, delegate, context throws(RuntimeError) in
            guard let delegate, !delegate.realClass.name.hasPrefix("cn.SensorsData") else { return delegate }
            let runtime = host.runtime
            let base = delegate.realClass
            let name = "cn.SensorsData\(base.name)"
            let sub: RuntimeClass
            if let existing = runtime.lookUpClass(name) {
                sub = existing
            } else {
                sub = try runtime.allocateClassPair(superclass: base, name: name)
                runtime.addMethod(to: sub, ListSelectors.tableDidSelect, Implementation("subclass-without-class-mask") { message throws(RuntimeError) in
                    recordSelection(message, context, "subclass-without-class-mask")
                    return try message.runtime.sendSuper(message, from: sub)
                }, types: "v@:@@")
                try runtime.registerClassPair(sub)
            }
            runtime.setClass(of: delegate, to: sub)
            return delegate
        },
        proxyMutant("proxy-from-getter", caughtBy: ["DS-03"], respondsFromTarget: true, keepAlive: true),
        proxyMutant("forgets-responds-to-selector", caughtBy: ["DS-05", "DS-18"], respondsFromTarget: false, keepAlive: true),
        proxyMutant("proxy-not-kept-alive", caughtBy: ["GEN-01"], respondsFromTarget: true, keepAlive: false),
    ]

    /// A tutorial's forwarding proxy (ARCHITECTURE.md, “Forwarding proxy”), with its mistakes switchable. The getter is never
    /// unwrapped, so the proxy always leaks out of `delegate`.
    static func proxyMutant(_ name: String, caughtBy: [String], respondsFromTarget: Bool, keepAlive: Bool) -> Mutant {
        setDelegateMutant(name, caughtBy: caughtBy) { host, list, delegate, context throws(RuntimeError) in
            guard let delegate else { return nil }
            let runtime = host.runtime
            let className = "MutantProxy_\(name)"
            let methods: [(Selector, String, Implementation)] = [
                (Selectors.forwardingTarget, "@@::", Implementation("fwd") { message in
                    .object(message.runtime.associatedObject(for: AssociationKey("mutant.target"), on: message.receiver) as? RuntimeObject)
                }),
                (Selectors.respondsToSelector, "c@::", Implementation("responds") { message throws(RuntimeError) in
                    let selector = try message.selector(at: 0)
                    if respondsFromTarget {
                        let target = message.runtime.associatedObject(for: AssociationKey("mutant.target"), on: message.receiver) as? RuntimeObject
                        return .bool(try message.runtime.responds(target, to: selector))
                    }
                    return .bool(message.runtime.instancesRespond(of: message.receiver.realClass, to: selector))
                }),
                (ListSelectors.tableDidSelect, "v@:@@", Implementation("proxy select") { message throws(RuntimeError) in
                    let target = message.runtime.associatedObject(for: AssociationKey("mutant.target"), on: message.receiver) as? RuntimeObject
                    recordSelection(message, context, name)
                    return try message.runtime.send(target, message.selector, message.arguments)
                }),
            ]
            let cls: RuntimeClass
            if let existing = runtime.lookUpClass(className) {
                cls = existing
            } else {
                cls = try runtime.defineClass(className, superclass: runtime.proxyRootClass, methods: methods)
            }
            let proxy = try runtime.allocate(cls)
            runtime.setAssociatedObject(delegate, for: AssociationKey("mutant.target"), on: proxy, policy: .assign)
            if keepAlive { runtime.setAssociatedObject(proxy, for: AssociationKey("mutant.proxy"), on: list) }
            return proxy
        }
    }
}
