import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackRuntime
import Synchronization

/// What the three delegate techniques share: which selectors they intercept, how they
/// record a selection once, and the `setDelegate:` wrapping.
enum DelegateSelectionCapture {
    static let selectors: [Selector] = [ListSelectors.tableDidSelect, ListSelectors.collectionDidSelect]

    /// Records one selection — unless this thread is already inside the same logical
    /// selection (a subclass calling its hooked superclass, stacked hooks), which the
    /// re-entrancy guard answers. Runs `forward` exactly once either way and returns
    /// its result.
    static func selection(
        message: Message, context: InteractionContext, enabled: Bool, capturedBy: String,
        forward: () throws(RuntimeError) -> RuntimeValue
    ) throws(RuntimeError) -> RuntimeValue {
        guard message.arguments.count == 2, let list = message.arguments[0].object as? ListViewObject,
              case .value(let value) = message.arguments[1], let indexPath = value as? IndexPath
        else {
            context.count(\.bookkeepingFailures)
            return try forward()
        }
        let key = InteractionKey("delegate-selection", objects: [message.receiver, list], numbers: [indexPath.section, indexPath.item])
        return try context.reentrancy.withKey(key) { (isOutermost: Bool) throws(RuntimeError) -> RuntimeValue in
            if isOutermost && enabled {
                record(list: list, indexPath: indexPath, context: context, capturedBy: capturedBy)
            } else if !isOutermost {
                context.count(\.deduplicated)
            }
            return try forward()
        }
    }

    /// Snapshots the selected cell (before the original runs — it may reload the list)
    /// and emits one interaction.
    static func record(list: ListViewObject, indexPath: IndexPath, context: InteractionContext, capturedBy: String) {
        let interaction: Interaction? = context.failOpen { () throws -> Interaction? in
            let element: any ElementNode = list.cell(at: indexPath) ?? list
            return Interaction(
                point: .delegateSelection,
                element: context.snapshot(of: element),
                screen: HookScreens.screen(for: list, context: context).map(context.snapshot(of:)),
                details: InteractionDetails(listPosition: ListPosition(section: indexPath.section, index: indexPath.item)),
                capturedBy: capturedBy)
        }
        if let interaction { context.emit(interaction) }
    }

    /// The object that actually implements `selector` for `delegate`: the delegate
    /// itself, or — for a forwarding proxy such as RxCocoa's, which answers
    /// `respondsToSelector:` but implements nothing — the object its
    /// `forwardingTargetForSelector:` hands the message to (followed a few steps).
    static func implementor(of selector: Selector, for delegate: RuntimeObject, runtime: Runtime) -> RuntimeObject? {
        var current = delegate
        for _ in 0..<4 {
            if runtime.instancesRespond(of: current.realClass, to: selector) { return current }
            guard (try? runtime.responds(current, to: selector)) == true,
                  let next = (try? runtime.send(current, Selectors.forwardingTarget, [.selector(selector)]))?.object,
                  next !== current
            else { return nil }
            current = next
        }
        return nil
    }

    /// Lists that were given a delegate while a delegate hook was installed, so that a
    /// reinstall can hook their current delegates again.
    final class SeenLists: Sendable {
        struct Entry: @unchecked Sendable {
            // Safe: only touched inside the mutex.
            weak var list: ListViewObject?
        }
        let entries = Mutex<[Entry]>([])
        private static let key = AssociationKey("AutoTrackHooks.seenLists")
        private static let creation = Mutex<Void>(())

        static func of(_ runtime: Runtime) -> SeenLists {
            creation.withLock { _ in
                if let existing = runtime.associatedObject(for: key, on: runtime.rootClass) as? SeenLists { return existing }
                let created = SeenLists()
                runtime.setAssociatedObject(created, for: key, on: runtime.rootClass)
                return created
            }
        }

        func note(_ list: ListViewObject) {
            entries.withLock { entries in
                entries.removeAll { $0.list == nil }
                if !entries.contains(where: { $0.list === list }) { entries.append(Entry(list: list)) }
            }
        }

        /// Sends `setDelegate:` again to every live list with its current delegate, so
        /// that a freshly installed hook sees them.
        func rehook(runtime: Runtime) {
            for entry in entries.withLock({ $0 }) {
                guard let list = entry.list, let delegate = list.delegate else { continue }
                _ = try? runtime.send(list, "setDelegate:", MessageArguments(.object(unwrapped(delegate, runtime: runtime))))
            }
        }

        /// A proxy of ours stands for its target.
        private func unwrapped(_ delegate: RuntimeObject, runtime: Runtime) -> RuntimeObject {
            (try? runtime.send(delegate, "autotrack_proxiedDelegate"))?.object ?? delegate
        }
    }

    /// Wraps `setDelegate:` of both list classes; `prepare` sees each new delegate and
    /// returns the object to hand to the original (the delegate itself, or a proxy).
    static func wrapSetDelegate(
        name: String, host: ReferenceHost,
        prepare: @escaping @Sendable (_ list: ListViewObject, _ delegate: RuntimeObject?, _ flag: MethodWrapper.EnabledFlag) throws -> RuntimeObject?
    ) throws(HookError) -> [HookHandle] {
        try ["UITableView", "UICollectionView"].map { (className: String) throws(HookError) -> HookHandle in
            guard let cls = host.runtime.lookUpClass(className) else { throw .missingTarget(className) }
            return try MethodWrapper.install(name: name, runtime: host.runtime, cls: cls, selector: "setDelegate:") { original, flag in
                Implementation("\(name) -[\(className) setDelegate:]") { message throws(RuntimeError) in
                    guard flag.isOn, let list = message.receiver as? ListViewObject, message.arguments.count == 1 else {
                        return try original.body(message)
                    }
                    let delegate = message.arguments[0].object
                    SeenLists.of(message.runtime).note(list)
                    // Fail-open: if preparing fails, the app's delegate is set unchanged.
                    let handed = (try? prepare(list, delegate, flag)) ?? delegate
                    return try original.body(Message(
                        receiver: message.receiver, selector: message.selector,
                        arguments: MessageArguments(.object(handed)), runtime: message.runtime))
                }
            }
        }
    }
}
