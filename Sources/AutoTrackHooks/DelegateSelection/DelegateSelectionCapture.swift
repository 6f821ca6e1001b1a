import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackRuntime

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
                screen: (list.owningScreen ?? list.host.visibleController).map(context.snapshot(of:)),
                details: InteractionDetails(listPosition: ListPosition(section: indexPath.section, index: indexPath.item)),
                capturedBy: capturedBy)
        }
        if let interaction { context.emit(interaction) }
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
