/// How much of an element a person can see: the part of its frame inside its window
/// and inside every ancestor that clips (scroll views, lists), scrolled as they are.
///
/// An element is not visible at all when it, or any ancestor, is hidden or has an
/// alpha of 0.01 or less (UIKit's hit-testing threshold), when it has no area, or when
/// its ancestors do not lead to a window (it is not on screen). Elements drawn over it
/// are not taken into account, as in the peers' SDKs: a host hides what it covers.
public enum ElementVisibility {
    /// The opacity at or below which an element counts as invisible.
    public static let alphaThreshold = 0.01

    /// The element's visible part in its window's coordinates, or `nil` when none of
    /// it is visible. The walk up is bounded by ``PathLimits/standard``, so a host
    /// whose parent links form a cycle gets `nil`, not a hang.
    public static func visibleRect(of element: any ElementNode) -> Rect? {
        guard !element.isHidden, element.alpha > alphaThreshold, element.frame.area > 0 else { return nil }
        if element.role == .window { return element.frame }
        // `rect` is in the coordinates of `parent`'s content (what its children's frames use).
        var rect = element.frame
        var parent = element.parentElement
        var steps = 0
        while let current = parent, steps < PathLimits.standard.maximumDepth {
            guard !current.isHidden, current.alpha > alphaThreshold else { return nil }
            let bounds = current.boundsOrigin
            // From the parent's content to the parent's own top-left corner.
            rect = rect.offsetBy(dx: -bounds.x, dy: -bounds.y)
            if current.clipsToBounds || current.role == .window {
                guard let clipped = rect.intersection(Rect(x: 0, y: 0, width: current.frame.width, height: current.frame.height))
                else { return nil }
                rect = clipped
            }
            if current.role == .window { return rect }
            rect = rect.offsetBy(dx: current.frame.origin.x, dy: current.frame.origin.y)
            parent = current.parentElement
            steps += 1
        }
        return nil
    }

    /// The fraction of the element's area that is visible, from 0 (none, or not on
    /// screen) to 1 (all of it).
    public static func visibleRatio(of element: any ElementNode) -> Double {
        guard let visible = visibleRect(of: element) else { return 0 }
        return min(1, visible.area / element.frame.area)
    }
}
