/// AutoTrackProperties: `Rect` appears in this file's public API.
public import AutoTrackProperties

/// What a hosting controller shows: a declarative root view (a SwiftUI view value)
/// and the elements it renders to. The reference host's SwiftUI model provides it;
/// the host keeps it behind this protocol so that UIKit's model does not know it.
public protocol HostedContent: AnyObject {
    /// The root view value, as `UIHostingController.rootView` holds it — read by
    /// reflection to name the screen.
    var rootView: Any { get }
    /// Evaluates the views' bodies and lays the result out in `bounds`: the top
    /// elements, with their children.
    func render(in bounds: Rect) -> [HostedElement]
}
