import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackRuntime
import AutoTrackSampleApp

/// The executable specification of a correct hook on the reference host, and what the
/// app can observe.
///
/// For each user action it says which interaction the subject must record — its point,
/// the element and screen as they are at the moment of the action — and which original
/// it must be recorded before. Only actions at the subject's own point count, and only
/// while an installation is in force and tracking is on. An element the action is about
/// that was wired (a recognizer made or attached, a delegate set, an alert's actions
/// made) while the subject was not installed may or may not be seen: at most once.
/// Taps on controls and screen appearances are always seen: a hook at those points
/// wraps the framework's methods.
extension ReferenceHostWorld {
    /// What `step` must record, and the original each interaction comes before.
    func expectations(for step: ReferenceHostStep) -> (expected: [ExpectedInteraction], originals: [AppLogEntry]) {
        if case .longPressAround(let index, _, let interruption) = step { return longPressExpectations(view: index, interruption: interruption) }
        guard let subject, trackingIsActive else { return ([], []) }
        var expected: [ExpectedInteraction] = []
        var originals: [AppLogEntry] = []
        func expect(_ point: InterceptionPoint, _ summary: InteractionSummary, exact: Bool, before original: AppLogEntry?) {
            guard subject.point == point else { return }
            expected.append(ExpectedInteraction(summary, count: exact ? .exactlyOnce : .atMostOnce))
            if exact, let original { originals.append(original) }
        }
        switch step {
        case .tap(let index):
            guard let button = button(index), button.hasActions, !button.control.isIgnoredByAutoTrack, screensAbove == 0 else { break }
            expect(.sendAction, snapshot(of: button.control, at: .sendAction), exact: true, before: button.original)
        case .tapGesture(let index), .longPress(let index, _):
            guard gestureViews.indices.contains(index), screensAbove == 0 else { break }
            let view = gestureViews[index]
            let kind: GestureKind = if case .tapGesture = step { .tap } else { .longPress }
            for recognizer in view.gestureRecognizers where recognizer.kind == kind && !recognizer.targets.isEmpty {
                let exact = wiredWhileInstalled[ObjectIdentifier(recognizer)] ?? false
                expect(.gesture, snapshot(of: view, at: .gesture), exact: exact, before: kind == .tap ? .bannerTap : .bannerPress(.began))
            }
        case .select(let index, let row):
            guard tables.indices.contains(index), screensAbove == 0 else { break }
            let table = tables[index]
            guard table.implementsSelection, table.delegate != nil, let cell = table.list.cell(at: IndexPath(row: row, section: 0)) else { break }
            expect(.delegateSelection, snapshot(of: cell, at: .delegateSelection), exact: table.wiredWhileInstalled, before: table.original?(row))
        case .foreground:
            guard let visible = host.visibleController, !specification.excludes(screen: visible) else { break }
            expect(.screenView, Self.screenViewSummary(visible.typeName), exact: true, before: nil)
        case .openLink(let index):
            // The app delegate opens links; a hook wraps it whenever it was set.
            let link = ReferenceHostStep.links[index % ReferenceHostStep.links.count]
            expect(.openURL, InteractionSummary(point: InterceptionPoint.openURL.name, properties: ["url \(link)"]), exact: true, before: .openLink(link))
        case .openNotification(let dismissed):
            // A dismissed notification does not open the app: no interaction.
            guard !dismissed else { break }
            let title = ReferenceHostStep.notificationTitle
            expect(.notificationResponse, InteractionSummary(point: InterceptionPoint.notificationResponse.name, properties: ["notification \(title)"]),
                   exact: true, before: .openNotification(title))
        default:
            break
        }
        return (expected, originals)
    }

    /// A long press during which the SDK changes: one click when the subject records
    /// before and after the change, none when it records at neither, and at most one
    /// when the change turns recording on or off mid-press (a hook may record a press
    /// when it begins or when it ends).
    func longPressExpectations(view index: Int, interruption: ReferenceHostStep.Interruption) -> ([ExpectedInteraction], [AppLogEntry]) {
        guard let subject, subject.point == .gesture, gestureViews.indices.contains(index), screensAbove == 0 else { return ([], []) }
        let installedAfter = switch interruption {
        case .install: true
        case .uninstall: false
        case .trackingOff, .trackingOn: isInstalled
        }
        let enabledAfter = switch interruption {
        case .trackingOff: false
        case .trackingOn: true
        case .install, .uninstall: context.isEnabled
        }
        let before = trackingIsActive
        let after = installedAfter && enabledAfter
        guard before || after else { return ([], []) }
        let view = gestureViews[index]
        var expected: [ExpectedInteraction] = []
        var originals: [AppLogEntry] = []
        for recognizer in view.gestureRecognizers where recognizer.kind == .longPress && !recognizer.targets.isEmpty {
            let exact = before && after && (wiredWhileInstalled[ObjectIdentifier(recognizer)] ?? false)
            expected.append(ExpectedInteraction(snapshot(of: view, at: .gesture), count: exact ? .exactlyOnce : .atMostOnce))
            if exact { originals.append(.bannerPress(.began)) }
        }
        return (expected, originals)
    }

    /// An alert action, now on screen, tapped next: the click it must produce, with the
    /// path it has on screen.
    func expectAlertAction(titled title: String, in alert: ViewControllerObject, before original: AppLogEntry, exact: Bool) {
        guard subject?.point == .alertAction, trackingIsActive else { return }
        let view = alert.view.descendants { ($0 as? AlertActionViewObject)?.action?.title == title }.first
        var element = view.map { specification.snapshot(of: $0) }
        // The action's title is its content whatever the collector makes of the view.
        element?.properties["$element_content"] = .string(title)
        let summary = Self.summary(point: .alertAction, element: element, screen: nil, alert: view?.alertContext)
        lateExpectations.append(ExpectedInteraction(summary, count: exact ? .exactlyOnce : .atMostOnce))
        if exact { lateOriginals.append(original) }
    }

    /// One screen view for each app screen whose `viewDidAppear:` ran in the step (the
    /// transcript says which, the same in both worlds or the step already differs),
    /// each recorded before that `viewDidAppear:`.
    func screenViews(appearingIn entries: [AppLogEntry]) -> ([ExpectedInteraction], [AppLogEntry]) {
        guard subject?.point == .screenView, trackingIsActive else { return ([], []) }
        let appeared = entries.filter { $0.detail == nil && $0.kind.name.hasSuffix(" viewDidAppear") }
        let expected = appeared.map { ExpectedInteraction(Self.screenViewSummary(String($0.kind.name.dropLast(" viewDidAppear".count)))) }
        return (expected, appeared)
    }

    /// Interactions recorded after the original they are about had run.
    func orderViolations(entries: [AppLogEntry], originals: [AppLogEntry]) -> [String] {
        originals.compactMap { original in
            guard let ran = entries.firstIndex(of: original) else { return nil }
            return entries[..<ran].contains(.click) ? nil : "the interaction came after \(original) ran, or never came before it"
        }
    }

    /// The summary the specification requires for an action on `element` now.
    func snapshot(of element: ViewObject, at point: InterceptionPoint) -> InteractionSummary {
        let screen = element.owningScreen.map { specification.snapshot(of: $0) }
        return Self.summary(point: point, element: specification.snapshot(of: element), screen: screen, alert: nil)
    }

    /// How an interaction is compared: by point, the properties that tell which element
    /// it is and what it showed, and the screen.
    static func summary(_ interaction: Interaction) -> InteractionSummary {
        var summary = summary(point: interaction.point, element: interaction.element, screen: interaction.screen, alert: interaction.details.alert)
        // What an app open is about: the link, the notification.
        if let url = interaction.details.openedURL { summary.properties.append("url \(url)") }
        if let notification = interaction.details.notification { summary.properties.append("notification \(notification.title ?? "")") }
        return summary
    }

    static func summary(point: InterceptionPoint, element: ElementSnapshot?, screen: ScreenSnapshot?, alert: AlertContext?) -> InteractionSummary {
        func value(_ key: String, _ properties: Properties?) -> String? {
            guard let value = properties?[key] else { return nil }
            if case .string(let text) = value { return "\(key) \(text)" }
            return "\(key) \(value)"
        }
        let keys: [String] = switch point {
        case .screenView: []
        case .alertAction: ["$element_content", "$element_path"]
        case .delegateSelection, .swiftUITap: ["$element_content", "$element_position", "$element_path"]
        default: ["$element_content", "$element_path"]
        }
        var properties: [String] = []
        if point != .alertAction, let screenName = value("$screen_name", screen?.properties) { properties.append(screenName) }
        properties += keys.compactMap { value($0, element?.properties) }
        if point == .alertAction, let title = alert?.title { properties.append("alert \(title)") }
        return InteractionSummary(point: point.name, properties: properties)
    }

    static func screenViewSummary(_ screen: String) -> InteractionSummary {
        InteractionSummary(point: InterceptionPoint.screenView.name, properties: ["$screen_name \(screen)"])
    }

    // MARK: What the app observes

    /// What the app can see after a step: each table's delegate as its getter answers
    /// it, what that delegate answers to `respondsToSelector:`, what the table itself
    /// asked it, the class each delegate reports, whether released objects are gone,
    /// and the visible screen.
    func observations() -> [String] {
        var lines: [String] = []
        for (index, table) in tables.enumerated() {
            let answered = (try? runtime.send(table.list, "delegate", MessageArguments()))?.object
            let name: String = switch answered {
            case nil: "nil"
            case let object? where object === table.delegate: "its delegate"
            case let object?: "another object, a \(reportedClassName(object))"
            }
            lines.append("table \(index): the delegate getter answers \(name)")
            lines.append("table \(index): the list delivers selections: \(table.list.delegateResponds[table.list.didSelectSelector] ?? false)")
            if let delegate = table.delegate {
                lines.append("table \(index): its delegate is a \(reportedClassName(delegate))")
                for selector in [ListSelectors.tableDidSelect, ListSelectors.tableHeight, Selector("reloadTrackedData")] {
                    let answer = (try? runtime.call(delegate, "respondsToSelector:", selector, returning: Bool.self)) ?? false
                    lines.append("table \(index): its delegate responds to \(selector): \(answer)")
                }
            }
        }
        for (name, reference) in released { lines.append("\(name): \(reference.object == nil ? "released" : "still alive")") }
        lines.append("visible screen: \(host.visibleController.map { reportedClassName($0) } ?? "none")")
        return lines
    }

    private func reportedClassName(_ object: RuntimeObject) -> String {
        ((try? runtime.reportedClass(of: object)) ?? nil)?.name ?? object.realClass.name
    }
}
