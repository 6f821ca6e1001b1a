import AutoTrackEvents
/// AutoTrackProperties: `DeviceInfo` appears in this file's public API.
public import AutoTrackProperties
import AutoTrackReferenceUI
/// AutoTrackSampleApp: `SampleApp` appears in this file's public API.
public import AutoTrackSampleApp
import AutoTrackSerialization

/// The sample app's screens as a person picking elements (圈选) sees them: every
/// visible element of the window at its frame in window coordinates, with its type,
/// content, both path styles, both ids and the `$AppClick` it would produce.
public struct ScreenInspection: Sendable, Codable {
    /// A screen of the sample app that can be inspected.
    public enum ScreenChoice: String, CaseIterable, Sendable, Codable {
        /// The product list (the launch screen).
        case list
        /// The collection of tiles.
        case collection
        /// Settings: a switch, segments, text fields, a search field.
        case settings
        /// The page container.
        case pages
        /// The leave-group alert over the list.
        case alert
        /// The account tabs (Orders, Profile) with their tab bar, presented over the list.
        case tabs
        /// The SwiftUI shop: its elements drawn by its hosting view.
        case shop
    }

    /// One element as drawn.
    public struct ElementInfo: Sendable, Codable, Hashable {
        /// The type the app sees.
        public var type: String
        /// `$element_content`, when it has one.
        public var content: String?
        /// The frame in window coordinates.
        public var x: Double, y: Double, width: Double, height: Double
        /// Depth in the view tree (0: the window).
        public var depth: Int
        /// Whether the view has no subviews (containers show their content in the panel
        /// only, not drawn over their children).
        public var isLeaf: Bool
        /// Whether the view has no frame of its own (the reference host lays out no
        /// root or content views) and was placed for display, filling its superview.
        public var laidOutForDisplay: Bool
        /// The slash-style path and id.
        public var slashPath: String, slashID: String
        /// The HubbleData-style path and id.
        public var hubblePath: String, hubbleID: String
        /// The pretty `$AppClick` JSON a tap on it produces (slash paths), made by the
        /// hooks' own capture; `nil` when a tap does nothing there: such an element is
        /// shown, not picked — as is one under a presentation that covers it.
        public var click: String?
        /// The `$screen_name` its click carries: the screen whose clicks it is counted
        /// under in the heat map.
        public var clickScreen: String?
    }

    /// One screen: its name, title and elements, in drawing order.
    public struct ScreenInfo: Sendable, Codable, Hashable {
        /// The screen choice.
        public var choice: String
        /// `$screen_name`.
        public var screenName: String
        /// `$title`.
        public var title: String?
        /// The window's size.
        public var width: Double, height: Double
        /// The elements.
        public var elements: [ElementInfo]
    }

    /// Every screen.
    public var screens: [ScreenInfo]

    /// Builds the screens, each in a fresh sample app, with the given device for the
    /// clicks' preset properties.
    public static func make(device: DeviceInfo = .current(appVersion: "1.0", screenWidth: 390, screenHeight: 844)) throws -> ScreenInspection {
        ScreenInspection(screens: try ScreenChoice.allCases.map { try screen($0, device: device) })
    }

    /// A fresh, launched sample app showing `choice`, reached as a user would.
    public static func sampleApp(showing choice: ScreenChoice) throws -> SampleApp {
        let app = try SampleApp()
        try app.launch()
        let driver = app.host.driver
        switch choice {
        case .list: break
        case .collection: try driver.push(app.collectionScreen, on: app.navigation)
        case .settings: try driver.push(app.settingsScreen, on: app.navigation)
        case .pages: try driver.push(app.pagesScreen, on: app.navigation)
        case .alert: try driver.present(try app.makeAlert(), from: app.listScreen)
        case .tabs: try driver.present(app.accountTabs, from: app.navigation)
        case .shop: try driver.push(app.shopScreen, on: app.navigation)
        }
        return app
    }

    /// One screen of a fresh sample app.
    public static func screen(_ choice: ScreenChoice, device: DeviceInfo) throws -> ScreenInfo {
        try screen(of: try sampleApp(showing: choice), label: choice.rawValue, device: device)
    }

    /// What `app` shows now — a live session's app too — labelled `label`.
    public static func screen(of app: SampleApp, label: String, device: DeviceInfo) throws -> ScreenInfo {
        let visible = app.host.visibleController
        let preview = try ClickPreview(device: device)
        // What the user can touch: the visible screen's outermost container (a
        // presentation covers what is under it).
        var top = visible
        while let parent = top?.parent { top = parent }
        let touchable = top?.view
        var elements: [ElementInfo] = []
        // The window's tree, each view's frame offset by its ancestors'.
        let window = app.host.screenBounds
        // SwiftUI content is drawn as the hosting view's elements, not subviews: the
        // walk follows every element's children.
        var stack: [(any ElementNode, Double, Double, Double, Double, Int)] = [(app.host.window, 0, 0, window.width, window.height, 0)]
        while let (view, originX, originY, parentWidth, parentHeight, depth) = stack.popLast() {
            guard !view.isHidden, view.alpha > 0 else { continue }
            let (frame, laidOut) = displayFrame(of: view, parentWidth: parentWidth, parentHeight: parentHeight)
            let x = originX + frame.origin.x, y = originY + frame.origin.y
            // Scrolled or clipped out of sight (rows below the fold, other pages): not
            // drawn, though a child reaching into view still is.
            let outOfSight = view.frame.area > 0 && ElementVisibility.visibleRect(of: view) == nil
            if depth > 0, !outOfSight {
                let slashIdentity = ElementIdentity(of: view, style: .slash)
                let hubbleIdentity = ElementIdentity(of: view, style: .hubble)
                let content = ElementContentExtractor().content(of: view)
                elements.append(ElementInfo(
                    type: view.typeName, content: content, x: x, y: y, width: frame.width, height: frame.height, depth: depth,
                    isLeaf: view.childElements.isEmpty, laidOutForDisplay: laidOut,
                    slashPath: slashIdentity.path.text, slashID: slashIdentity.elementID,
                    hubblePath: hubbleIdentity.path.text, hubbleID: hubbleIdentity.elementID,
                    click: nil, clickScreen: nil))
                if let touchable, Self.view(view, isWithin: touchable), let click = preview.click(for: view) {
                    elements[elements.count - 1].click = click.json
                    elements[elements.count - 1].clickScreen = click.screenName
                }
            }
            let contentX = x - view.boundsOrigin.x, contentY = y - view.boundsOrigin.y
            for child in view.childElements.reversed() { stack.append((child, contentX, contentY, frame.width, frame.height, depth + 1)) }
        }
        return ScreenInfo(
            choice: label, screenName: visible?.typeName ?? "none", title: visible?.title,
            width: app.host.screenBounds.width, height: app.host.screenBounds.height, elements: elements)
    }

    /// Whether `view` is `ancestor` or hangs under it.
    static func view(_ view: any ElementNode, isWithin ancestor: ViewObject) -> Bool {
        var current: (any ElementNode)? = view
        var steps = 0
        while let candidate = current, steps < 512 {
            if candidate === ancestor { return true }
            current = candidate.parentElement
            steps += 1
        }
        return false
    }

    /// The view's frame, or — when it has none (root and content views) — its
    /// superview's bounds.
    static func displayFrame(of view: any ElementNode, parentWidth: Double, parentHeight: Double) -> (Rect, Bool) {
        if view.frame.width > 0, view.frame.height > 0 { return (view.frame, false) }
        return (Rect(x: 0, y: 0, width: parentWidth, height: parentHeight), true)
    }
}
