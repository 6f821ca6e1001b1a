import AutoTrackEvents
import AutoTrackProperties
import AutoTrackReferenceUI

/// One node of a render, before layout: what a view draws, how its children are
/// arranged, and what modifiers attached to it.
final class RenderNode {
    /// How a node places its children.
    enum Arrangement {
        /// One above the other (stacks, lists, an app's own views).
        case vertical
        /// Side by side, sharing the width.
        case horizontal
    }

    let typeName: String
    let role: ElementRole
    var identity: [String]
    let arrangement: Arrangement
    /// The height of a node without children.
    let height: Double
    var children: [RenderNode]
    var tapResponse: HostedElement.TapResponse?
    var perform: (() -> Void)?
    var text: String?
    var isOn: Bool?
    var imageName: String?
    var listPosition: ListPosition?
    var accessibilityIdentifier: String?
    var customElementID: String?
    var customProperties: Properties = [:]
    var isIgnored = false
    var ignoresDescendants = false
    var exposureRequest: HostedExposureRequest?

    init(
        typeName: String, role: ElementRole, identity: [String], arrangement: Arrangement = .vertical, height: Double = 0,
        children: [RenderNode] = []
    ) {
        self.typeName = typeName
        self.role = role
        self.identity = identity
        self.arrangement = arrangement
        self.height = height
        self.children = children
    }

    /// The node and every node below it.
    var subtree: [RenderNode] { [self] + children.flatMap(\.subtree) }

    /// Lays the node out at `origin` (in its parent's coordinates) across `width`.
    func element(at origin: Point, width: Double) -> HostedElement {
        var placed: [HostedElement] = []
        var extent = height
        switch arrangement {
        case .vertical:
            var y = 0.0
            for child in children {
                let element = child.element(at: Point(x: 0, y: y), width: width)
                y += element.frame.height
                placed.append(element)
            }
            extent = max(height, y)
        case .horizontal:
            let share = children.isEmpty ? width : width / Double(children.count)
            for (index, child) in children.enumerated() {
                let element = child.element(at: Point(x: share * Double(index), y: 0), width: share)
                extent = max(extent, element.frame.height)
                placed.append(element)
            }
        }
        let element = HostedElement(
            typeName: typeName, role: role, siblingIdentity: identity.isEmpty ? "0" : identity.joined(separator: ","),
            frame: Rect(x: origin.x, y: origin.y, width: width, height: extent), tapResponse: tapResponse,
            ownText: text, isOn: isOn, imageName: imageName, listPosition: listPosition,
            accessibilityIdentifier: accessibilityIdentifier, customElementID: customElementID,
            customProperties: customProperties, isIgnoredByAutoTrack: isIgnored, ignoresDescendants: ignoresDescendants,
            exposureRequest: exposureRequest, perform: perform)
        for child in placed { element.append(child) }
        return element
    }
}
