import AutoTrack
import AutoTrackEvents
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackLocking
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackRuntime
import AutoTrackSerialization
import Foundation

/// The `$AppClick` a tap on a view would produce, made by the code that makes the real
/// one: the built-in hooks' capture (`ReferenceHostCapture`: the control's action, the
/// gesture's target, the selected row, the alert action — bar items and tab buttons
/// with the screen a person sees, the SwiftUI element a tap activates) and a tracker's
/// own event assembly. A view a tap does
/// nothing on — no action, no recognizer with a target, a row whose list has no
/// `didSelect…`, a text field — has none, and cannot be picked.
final class ClickPreview {
    private let tracker: Tracker
    private let interceptor: Interceptor
    private let captured = Captured()
    private let directory: URL
    private let encoder = EventJSONEncoder(layout: .pretty)

    init(device: DeviceInfo) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-click-preview-\(UUID().uuidString)")
        let captured = captured
        var configuration = TrackerConfiguration(
            storeDirectory: directory, device: device, transport: .custom(DiscardingTransport()),
            flushPolicy: FlushPolicy(batchSize: 100_000, interval: nil), eventObserver: { event in captured.events.withLock { $0.append(event) } })
        configuration.autoTrackSettings.eventTypes = [.appClick]
        tracker = try Tracker(configuration: configuration)
        interceptor = Interceptor(context: tracker.makeInteractionContext(), hookSwitch: HookSwitch(), capturedBy: "inspect")
    }

    deinit {
        tracker.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The pretty `$AppClick` JSON of a tap on `view` and the `$screen_name` it
    /// carries, or `nil` when a tap does nothing there (or the click would be
    /// filtered).
    func click(for element: any ElementNode) -> (json: String, screenName: String?)? {
        let interaction: Interaction? = switch element {
        case let view as ViewObject: interaction(for: view)
        // What a tap on it activates: it, or the nearest element above it that answers taps.
        case let hosted as HostedElement:
            hosted.hostingView?.tapTarget(at: hosted.frameInHostingView.center).map { ReferenceHostCapture.swiftUIClick(on: $0, interceptor: interceptor) }
        default: nil
        }
        guard let interaction else { return nil }
        captured.events.withLock { $0.removeAll() }
        interceptor.context.emit(interaction)
        tracker.waitUntilQueued()
        guard let event = captured.events.withLock({ $0.last }), event.name == .appClick else { return nil }
        return (encoder.encodeToString(event), ClickHeat.text(event.properties["$screen_name"]))
    }

    private func interaction(for view: ViewObject) -> Interaction? {
        do {
            if let control = view as? ControlObject {
                if let pair = control.targetActions.first(where: { $0.hasTarget || $0.target != nil || !$0.events.isEmpty }) {
                    return try ReferenceHostCapture.click(sender: control, action: .selector(pair.action), interceptor: interceptor)
                }
                return control.closureActions.isEmpty ? nil : try ReferenceHostCapture.closureClick(sender: control, interceptor: interceptor)
            }
            if let recognizer = view.gestureRecognizers.first(where: { ($0.kind == .tap || $0.kind == .longPress) && $0.targets.contains { $0.target != nil } }) {
                return try ReferenceHostCapture.gestureClick(
                    on: view, recognizer: recognizer, action: recognizer.targets.first { $0.target != nil }?.action.name, interceptor: interceptor)
            }
            if let cell = view as? CellObject, let list = cell.list, let position = cell.listPosition,
               list.delegateResponds[ListSelectors.tableDidSelect] == true || list.delegateResponds[ListSelectors.collectionDidSelect] == true {
                return ReferenceHostCapture.selectionClick(
                    list: list, indexPath: IndexPath(item: position.index, section: position.section), interceptor: interceptor)
            }
            if let actionView = view as? AlertActionViewObject, let action = actionView.action {
                return ReferenceHostCapture.alertClick(
                    action, note: action.alertController.map(ReferenceHostCapture.AlertNote.init(alert:)), interceptor: interceptor)
            }
        } catch {
            // A capture that skips (a text field) or fails: no click.
        }
        return nil
    }

    /// The events the tracker built, as its observer saw them.
    final class Captured: Sendable {
        let events = Locked<[Event]>([])
    }
}
