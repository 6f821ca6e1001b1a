import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackRuntime
import AutoTrackSampleApp
import AutoTrackTesting

/// One run of a session: the sample app, launched, with what the session built, and —
/// when exploring a subject — the subject, its context and a sink that keeps what it
/// records. The same steps run in a world without the subject are the reference.
public final class ReferenceHostWorld {
    let app: SampleApp
    let subject: ConformanceSubject?
    let sink: InMemoryInteractionSink
    private(set) var context: InteractionContext
    /// Takes the specification's snapshots: the same paths and exclusions as the
    /// subject's context, reporting nowhere.
    private(set) var specification: InteractionContext
    /// The alert the last `prepareAlert` made, and whether the subject was installed
    /// when its actions were made.
    var preparedAlert: (alert: ViewControllerObject, wiredWhileInstalled: Bool)?
    var handles: [HookHandle] = []
    /// Whether an installation of the subject is in force.
    var isInstalled = false
    /// The framework methods the subject's first installation changed (`nil` until it
    /// installs, or when not asked for), to hold against its declaration.
    private(set) var firstInstallChanges: Set<HookedMethod>?
    private let recordsInstallChanges: Bool
    var buttons: [Button?] = []
    var gestureViews: [ViewObject] = []
    /// Per recognizer, whether it was made and attached while the subject was installed.
    var wiredWhileInstalled: [ObjectIdentifier: Bool] = [:]
    var tables: [Table] = []
    var definedClasses: [RuntimeClass] = []
    var definedScreens: [String] = []
    /// The screens pushed above the list screen, bottom first.
    var stack: [ViewControllerObject] = []
    /// The screen presented modally over the top one.
    var presented: ViewControllerObject?
    /// What a step can only say once it is under way (an alert's action is on screen
    /// only once the alert is presented).
    var lateExpectations: [ExpectedInteraction] = []
    var lateOriginals: [AppLogEntry] = []
    var otherLibraryStyles: Set<ReferenceHostStep.OtherLibraryStyle> = []
    /// What the host holds weakly (targets, delegates), kept alive as an app keeps them.
    var keptAlive: [AnyObject] = []
    /// Objects the app let go of, to see whether something still holds them.
    var released: [(name: String, object: WeakReference)] = []
    /// Screens covering the list screen, pushed or presented.
    var screensAbove: Int { stack.count + (presented == nil ? 0 : 1) }

    struct Button {
        let control: ControlObject
        /// Whether a touch runs an action (a target-action pair or a closure).
        let hasActions: Bool
        /// The original its touch runs first, for the order check.
        let original: AppLogEntry?
    }

    struct Table {
        let list: ListViewObject
        var delegate: RuntimeObject?
        var implementsSelection: Bool
        var original: (@Sendable (Int) -> AppLogEntry)?
        var wiredWhileInstalled: Bool
        /// What its rows are labelled with.
        let labels: RowLabels
    }

    /// The label of a table's rows, `<prefix> <row>`, read whenever a cell is configured.
    final class RowLabels {
        var prefix = "Row"
    }

    final class WeakReference {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    var host: ReferenceHost { app.host }
    var runtime: Runtime { app.host.runtime }
    var log: AppLog { app.log }
    var trackingIsActive: Bool { isInstalled && context.isEnabled }

    init(subject: ConformanceSubject?, backend: ScenarioBackend, recordsInstallChanges: Bool = false) throws {
        self.subject = subject
        self.recordsInstallChanges = recordsInstallChanges
        app = try SampleApp(host: try ReferenceHost(runtime: backend.makeRuntime()))
        app.log.keepsCalls = true
        let log = app.log
        sink = InMemoryInteractionSink { _ in log.record(.click) }
        context = InteractionContext(sink: sink)
        specification = InteractionContext(sink: InMemoryInteractionSink())
        try defineAppClasses()
        try app.launch()
        _ = shopView
        log.clear()
    }

    /// The app's own classes the session uses: a target whose action raises, one whose
    /// action sends another button's actions from code, a table delegate whose
    /// selection raises, and one that overrides two levels down.
    static let innerKey = AssociationKey("exploration.inner")

    // MARK: Performing

    /// Performs `step`: what the app's originals did, what the app can observe after
    /// it, and what the subject recorded against what the specification requires.
    public func perform(_ step: ReferenceHostStep) -> StepRecord {
        let entriesBefore = log.all.count
        let callsBefore = log.calls.count
        let recordedBefore = sink.count
        let (expected, originals) = subject == nil ? ([], []) : expectations(for: step)
        lateExpectations = []
        lateOriginals = []
        var outcome = "ok"
        do {
            try run(step)
        } catch {
            outcome = "error: \(error)"
        }
        let entries = Array(log.all.dropFirst(entriesBefore))
        let transcript = entries.filter { $0 != .click }.map { "log \($0)" } + log.calls.dropFirst(callsBefore).map { "call \($0)" }
        var record = StepRecord(outcome: outcome, transcript: transcript, observations: observations())
        guard subject != nil else { return record }
        record.recorded = sink.interactions.dropFirst(recordedBefore).map(Self.summary)
        let (screenViews, screenOriginals) = screenViews(appearingIn: entries)
        record.expected = expected + lateExpectations + screenViews
        record.orderViolations = orderViolations(entries: entries, originals: originals + lateOriginals + screenOriginals)
        return record
    }

    private func run(_ step: ReferenceHostStep) throws {
        switch step {
        case .addButton(let title, let targets):
            let button = try makeButton(title)
            for _ in 0..<targets { try button.addTarget(app.listScreen, action: "buyTapped:", for: .touchUpInside) }
            buttons.append(Button(control: button, hasActions: targets > 0, original: targets > 0 ? .buy : nil))
        case .addClosureButton(let title):
            let button = try makeButton(title)
            let log = self.log
            let entry = AppLogEntry(.closureAction, detail: "\(buttons.count)")
            try button.addAction(title: title, for: .touchUpInside) { _ in log.record(entry) }
            buttons.append(Button(control: button, hasActions: true, original: entry))
        case .addThrowingButton(let title):
            let button = try makeButton(title)
            let target = try runtime.allocate(try host.lookUpClass("ThrowingTarget"))
            keptAlive.append(target)
            try button.addTarget(target, action: "failTapped:", for: .touchUpInside)
            buttons.append(Button(control: button, hasActions: true, original: .failTapped))
        case .addNestedButton(let title, let inner):
            let button = try makeButton(title)
            let target = try runtime.allocate(try host.lookUpClass("NestingTarget"))
            keptAlive.append(target)
            if let innerButton = self.button(inner) { runtime.setAssociatedObject(innerButton.control, for: Self.innerKey, on: target) }
            try button.addTarget(target, action: "nestTapped:", for: .touchUpInside)
            buttons.append(Button(control: button, hasActions: true, original: .nestTapped))
        case .addGesture(let kind):
            let view = try host.makeView("UIImageView", frame: Rect(x: 20 + Double(gestureViews.count) * 90, y: 560, width: 80, height: 80))
            app.listScreen.view.addSubview(view)
            let (className, action) = switch kind {
            case .tap: ("UITapGestureRecognizer", Selector("bannerTapped:"))
            case .longPress: ("UILongPressGestureRecognizer", Selector("bannerPressed:"))
            case .pan: ("UIPanGestureRecognizer", Selector("bannerTapped:"))
            }
            let recognizer = try host.makeGestureRecognizer(className, target: app.listScreen, action: action)
            view.addGestureRecognizer(recognizer)
            wiredWhileInstalled[ObjectIdentifier(recognizer)] = isInstalled
            gestureViews.append(view)
        case .addTable(let rows, let choice):
            let labels = RowLabels()
            let list = try host.makeList("UITableView", content: ListContent(rowsPerSection: [rows], cellClass: { _ in "MyTableViewCell" }) {
                cell, indexPath in
                let content: ViewObject = cell.contentView
                if content.subviews.isEmpty, let label = try? cell.host.makeLabel("") { content.addSubview(label) }
                content.subviews[0].text = "\(labels.prefix) \(indexPath.row)"
            })
            list.frame = Rect(x: 0, y: 650 + Double(tables.count) * 10, width: 390, height: 300)
            app.listScreen.view.addSubview(list)
            tables.append(Table(list: list, delegate: nil, implementsSelection: false, original: nil, wiredWhileInstalled: isInstalled, labels: labels))
            try setDelegate(of: tables.count - 1, to: choice)
            list.reloadData()
        case .defineDelegateSubclass(let callsSuper):
            try defineDelegateSubclass(callsSuper: callsSuper)
        case .defineScreen(let callsSuper):
            try defineScreen(callsSuper: callsSuper)
        case .otherLibraryHooks(let style):
            guard otherLibraryStyles.insert(style).inserted else { return }
            for (hooked, logs) in Self.otherLibraryMethods {
                switch style {
                case .exchange: OtherLibraryHooks.exchange(hooked, as: .otherLibrary, runtime: runtime, log: log, logging: logs)
                case .replace: OtherLibraryHooks.replace(hooked, as: .otherLibrary, runtime: runtime, log: log, logging: logs)
                }
            }
        case .tap(let index):
            guard let button = button(index) else { return }
            try host.driver.tap(button.control)
        case .tapGesture(let index):
            guard gestureViews.indices.contains(index) else { return }
            try host.driver.tap(gesturesOn: gestureViews[index])
        case .longPress(let index, let changes):
            guard gestureViews.indices.contains(index) else { return }
            try host.driver.longPress(gestureViews[index], changes: changes)
        case .longPressAround(let index, let changes, let interruption):
            guard gestureViews.indices.contains(index) else { return }
            var interrupted = false
            for recognizer in gestureViews[index].gestureRecognizers where recognizer.kind == .longPress {
                try runtime.call(recognizer, "_setState:", GestureState.began.rawValue)
                if !interrupted {
                    interrupted = true
                    try interrupt(interruption)
                }
                for _ in 0..<changes { try runtime.call(recognizer, "_setState:", GestureState.changed.rawValue) }
                try runtime.call(recognizer, "_setState:", GestureState.ended.rawValue)
                try runtime.call(recognizer, "_setState:", GestureState.possible.rawValue)
            }
            if !interrupted { try interrupt(interruption) }
        case .pan(let index):
            guard gestureViews.indices.contains(index) else { return }
            for recognizer in gestureViews[index].gestureRecognizers where recognizer.kind == .pan {
                for state in [GestureState.began, .changed, .ended] { try runtime.call(recognizer, "_setState:", state.rawValue) }
            }
        case .select(let table, let row):
            guard tables.indices.contains(table) else { return }
            try host.driver.select(IndexPath(row: row, section: 0), in: tables[table].list)
        case .answerAlert(let action):
            guard screensAbove == 0 else { return }
            try answer(try app.makeAlert(), action: action, wiredWhileInstalled: isInstalled)
        case .prepareAlert:
            preparedAlert = (try app.makeAlert(), isInstalled)
        case .answerPreparedAlert(let action):
            guard screensAbove == 0, let prepared = preparedAlert else { return }
            preparedAlert = nil
            try answer(prepared.alert, action: action, wiredWhileInstalled: prepared.wiredWhileInstalled)
        case .usePathStyle(let choice):
            guard handles.isEmpty else { return }
            let style: ViewPathStyle = choice == .hubble ? .hubble : .slash
            context = InteractionContext(sink: sink, pathStyle: style)
            specification = InteractionContext(sink: InMemoryInteractionSink(), pathStyle: style)
        case .pushSettings:
            guard presented == nil, !stack.contains(where: { $0 === app.settingsScreen }) else { return }
            try host.driver.push(app.settingsScreen, on: app.navigation)
            stack.append(app.settingsScreen)
        case .pushDefinedScreen(let index):
            guard presented == nil, definedScreens.indices.contains(index) else { return }
            let screen = try host.makeController(definedScreens[index], title: "Defined \(index)")
            try host.driver.push(screen, on: app.navigation)
            stack.append(screen)
        case .pop:
            guard presented == nil, !stack.isEmpty else { return }
            try host.driver.pop(app.navigation)
            let popped = stack.removeLast()
            if popped !== app.settingsScreen { released.append(("pushed \(popped.typeName)", WeakReference(popped))) }
        case .presentDefinedScreen(let index):
            guard presented == nil, definedScreens.indices.contains(index) else { return }
            let screen = try host.makeController(definedScreens[index], title: "Modal \(index)")
            try host.driver.present(screen, from: stack.last ?? app.listScreen)
            presented = screen
        case .dismissModal:
            guard let screen = presented else { return }
            try host.driver.dismiss(screen)
            presented = nil
            released.append(("presented \(screen.typeName)", WeakReference(screen)))
        case .background:
            host.driver.background()
        case .foreground:
            host.driver.foreground()
        case .openLink(let index):
            try host.driver.open(link: ReferenceHostStep.links[index % ReferenceHostStep.links.count])
        case .openNotification(let dismissed):
            try host.driver.openNotification(
                title: ReferenceHostStep.notificationTitle, body: "Everything 20% off", userInfo: ["service": "jpush"],
                action: dismissed ? NotificationResponseObject.dismissActionIdentifier : NotificationResponseObject.defaultActionIdentifier)
        case .sendActions(let index):
            guard let button = button(index) else { return }
            try runtime.call(button.control, "sendActionsForControlEvents:", ControlEvents.touchUpInside.rawValue)
        case .callAction(let index):
            guard let button = button(index) else { return }
            for pair in button.control.targetActions(for: .touchUpInside) {
                _ = try runtime.send(pair.target, pair.action, MessageArguments(.object(button.control)))
            }
        case .rename(let index, let title):
            button(index)?.control.title = title
        case .remove(let index):
            guard let button = button(index) else { return }
            button.control.removeFromSuperview()
            buttons[index] = nil
            released.append(("button \(index)", WeakReference(button.control)))
        case .moveGestures(let from, let to):
            guard gestureViews.indices.contains(from), gestureViews.indices.contains(to) else { return }
            for recognizer in gestureViews[from].gestureRecognizers {
                gestureViews[to].addGestureRecognizer(recognizer)
                wiredWhileInstalled[ObjectIdentifier(recognizer)] = (wiredWhileInstalled[ObjectIdentifier(recognizer)] ?? false) && isInstalled
            }
        case .setDelegate(let table, let choice):
            guard tables.indices.contains(table) else { return }
            try setDelegate(of: table, to: choice)
        case .reload(let table):
            guard tables.indices.contains(table) else { return }
            tables[table].list.reloadData()
        case .markIgnored(let index):
            button(index)?.control.isIgnoredByAutoTrack = true
        case .unmarkIgnored(let index):
            button(index)?.control.isIgnoredByAutoTrack = false
        case .relabelRows(let table, let prefix):
            guard tables.indices.contains(table) else { return }
            tables[table].labels.prefix = prefix
            tables[table].list.reloadData()
        case .tapInShop, .reorderShop, .toggleShopPromotion:
            try runInShop(step)
        case .install:
            guard let subject else { return }
            let before = recordsInstallChanges && firstInstallChanges == nil ? FrameworkMethods(host) : nil
            handles.append(try subject.install(on: host, context: context))
            if let before { firstInstallChanges = before.changes(to: FrameworkMethods(host)) }
            isInstalled = true
        case .uninstall:
            guard subject != nil else { return }
            for handle in handles.reversed() { try handle.uninstall() }
            isInstalled = false
        case .setTracking(let on):
            guard subject != nil else { return }
            context.isEnabled = on
        }
    }

    func button(_ index: Int) -> Button? { buttons.indices.contains(index) ? buttons[index] : nil }

    /// Changes the SDK in the middle of a user action.
    private func interrupt(_ interruption: ReferenceHostStep.Interruption) throws {
        switch interruption {
        case .install: try run(.install)
        case .uninstall: try run(.uninstall)
        case .trackingOff: try run(.setTracking(false))
        case .trackingOn: try run(.setTracking(true))
        }
    }

    /// Presents `alert` on the list screen and taps its action `action` (0 Cancel, 1 OK).
    private func answer(_ alert: ViewControllerObject, action: Int, wiredWhileInstalled: Bool) throws {
        try host.driver.present(alert, from: app.listScreen)
        let title = action == 0 ? "Cancel" : "OK"
        expectAlertAction(titled: title, in: alert, before: action == 0 ? .alertCancel : .alertOK, exact: wiredWhileInstalled)
        try host.driver.tapAlertAction(titled: title)
    }

    /// The framework methods another analytics library hooks: the ones the interception
    /// points' hooks wrap, in both worlds alike. Its `setDelegate:` hooks log nothing: a
    /// forwarding-proxy hook must hand a list its proxy, and take it back, through
    /// `setDelegate:` — calls of the SDK's own, which a library there may see — while
    /// what the app sees of its lists' delegates is compared all the same.
    static let otherLibraryMethods: [(method: HookedMethod, logs: Bool)] = [
        (HookedMethod("UIControl", "sendAction:to:forEvent:"), true), (HookedMethod("UIApplication", "sendAction:to:from:forEvent:"), true),
        (HookedMethod("UIViewController", "viewDidAppear:"), true), (HookedMethod("UIView", "addGestureRecognizer:"), true),
        (HookedMethod("UIAlertAction", "actionWithTitle:style:handler:", isClassMethod: true), true),
        (HookedMethod("UITableView", "setDelegate:"), false),
    ]
}

extension AppLogEntry.Kind {
    /// A button's closure action ran (its detail is the button).
    static let closureAction = Self("closure action")
    /// A delegate class a session defined ran its selection (its detail: the class and
    /// the row).
    static let definedSelect = Self("defined select")
    /// `RaisingTableDelegate` ran its selection, then raised (its detail: the row).
    static let raisingSelect = Self("raising select")
    /// `DeepTableDelegate` ran its override, before calling super (its detail: the row).
    static let deepSelect = Self("deep select")
}

extension AppLogEntry {
    /// The throwing target's action ran (and raised).
    static let failTapped = AppLogEntry("fail tapped")
    /// The nesting target's action ran (and sent another button's actions).
    static let nestTapped = AppLogEntry("nest tapped")
}
