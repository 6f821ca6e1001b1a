/// AutoTrackEvents: `Properties` appears in this file's public API.
public import AutoTrackEvents
/// AutoTrackProperties: `DeclaredScreenTracking`, `ScreenTracking` appear in this file's public API.
public import AutoTrackProperties
import AutoTrackReferenceUI

extension View {
    /// Names the screen this view is the root of (on a hosting controller), and adds
    /// `properties` to its screen views — instead of the view's type name.
    public func autoTrackScreen(name: String, properties: Properties = [:]) -> ModifiedContent<Self, ScreenTrackingModifier> {
        modifier(ScreenTrackingModifier(screenTracking: ScreenTracking(screenName: name, extraProperties: properties)))
    }

    /// Automatic capture leaves this view alone — and every view below it when
    /// `descendants` is true.
    public func autoTrackIgnored(descendants: Bool = false) -> ModifiedContent<Self, IgnoreModifier> {
        modifier(IgnoreModifier(descendants: descendants))
    }

    /// Clicks on this view carry `id` as `$element_id` instead of the path's hash.
    public func autoTrackElementID(_ id: String) -> ModifiedContent<Self, ElementIDModifier> {
        modifier(ElementIDModifier(id: id))
    }

    /// Clicks on this view carry `properties` too.
    public func autoTrackProperties(_ properties: Properties) -> ModifiedContent<Self, ElementPropertiesModifier> {
        modifier(ElementPropertiesModifier(properties: properties))
    }
}

/// `.autoTrackScreen(name:properties:)`: found on a hosting controller's root view by
/// reflection (`DeclarativeViewReflection`).
public struct ScreenTrackingModifier: ViewModifier, DeclaredScreenTracking {
    /// The screen's tracking information.
    public let screenTracking: ScreenTracking
}

/// `.autoTrackIgnored(descendants:)`.
public struct IgnoreModifier: NodeModifier {
    let descendants: Bool
    func apply(to node: RenderNode) {
        node.isIgnored = true
        node.ignoresDescendants = descendants
    }
}

/// `.autoTrackElementID(_:)`.
public struct ElementIDModifier: NodeModifier {
    let id: String
    func apply(to node: RenderNode) { node.customElementID = id }
}

/// `.autoTrackProperties(_:)`.
public struct ElementPropertiesModifier: NodeModifier {
    let properties: Properties
    func apply(to node: RenderNode) {
        for (key, value) in properties { node.customProperties[key] = value }
    }
}

extension View {
    /// Records `$AppElementExposure` for this view when at least `minimumVisibleRatio`
    /// of it is on screen for `minimumDuration` — every appearance, or only the first
    /// when `repeats` is false — with `properties` added. The view keeps its
    /// appearance across re-renders while its identity lasts.
    public func autoTrackExposure(
        minimumVisibleRatio: Double = 0, minimumDuration: Duration = .zero, repeats: Bool = true, properties: Properties = [:]
    ) -> ModifiedContent<Self, ExposureModifier> {
        modifier(ExposureModifier(request: HostedExposureRequest(
            minimumVisibleRatio: minimumVisibleRatio, minimumDuration: minimumDuration, repeats: repeats, properties: properties)))
    }
}

/// `.autoTrackExposure(…)`.
public struct ExposureModifier: NodeModifier {
    let request: HostedExposureRequest
    func apply(to node: RenderNode) { node.exposureRequest = request }
}
