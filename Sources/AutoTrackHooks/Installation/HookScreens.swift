import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI

/// The screen a click belongs to.
enum HookScreens {
    /// The screen showing `view`; when that is an ignored container (a control in a
    /// navigation bar belongs to the navigation controller's view), the screen the user
    /// sees instead — so bar-button clicks are attributed to the page, not dropped.
    static func screen(for view: ViewObject, context: InteractionContext) -> (any ScreenNode)? {
        if let owning = view.owningScreen, !context.exclusions.ignores(screen: owning) { return owning }
        return view.host.visibleController ?? view.owningScreen
    }
}
