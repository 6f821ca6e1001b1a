import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackSampleSession

/// `autotrack snapshot`: what the sample app shows — the tree of the visible screen's
/// outermost container, so its bars (a navigation bar, a tab bar) are there with the
/// screen's own views — as an indented element tree, each element with its view path
/// and element id.
struct SnapshotCommand {
    typealias ScreenChoice = ScreenInspection.ScreenChoice

    let screen: ScreenChoice
    let style: ViewPathStyle

    func run() throws -> String {
        let app = try ScreenInspection.sampleApp(showing: screen)
        guard let visible = app.host.visibleController else { return "no screen is visible" }
        var lines = ["screen \(visible.typeName) — \(ScreenProperties.title(of: visible) ?? "untitled") (\(style.rawValue) paths)"]
        // The outermost container of the visible screen, in its presentation: its view
        // holds the bars.
        var top = visible
        while let parent = top.parent { top = parent }
        var stack: [(ViewObject, Int)] = [(top.view, 0)]
        while let (view, depth) = stack.popLast() {
            guard !view.isHidden, view.alpha > 0 else { continue }
            let identity = ElementIdentity(of: view, style: style)
            var label = String(repeating: "  ", count: depth) + view.typeName
            let isTextEntry = view.role.isTextEntry
            if !isTextEntry, let text = view.ownText, !text.isEmpty { label += " \"\(text)\"" }
            lines.append(label)
            lines.append(String(repeating: "  ", count: depth) + "  path \(identity.path.text)")
            lines.append(String(repeating: "  ", count: depth) + "  id   \(identity.elementID)")
            for child in view.subviews.reversed() { stack.append((child, depth + 1)) }
        }
        return lines.joined(separator: "\n")
    }
}
