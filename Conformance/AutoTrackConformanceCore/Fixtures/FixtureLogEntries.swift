/// AutoTrackSampleApp: `AppLogEntry` appears in this file's public API.
public import AutoTrackSampleApp

// MARK: What the kit's own fixtures log

extension AppLogEntry.Kind {
    /// Another library's hook ran (the kit's stand-in for a second SDK on the same
    /// method); its detail is the selector.
    public static let otherLibrary = Self("other")
    /// The first of two other libraries' hooks ran.
    public static let firstLibrary = Self("first")
    /// The third library's hook, stacked on ours, ran.
    public static let thirdLibrary = Self("third")
    /// A wrapper standing for "the original" ran (the scenario counts how often the
    /// method under the hooks runs).
    public static let original = Self("original")
    /// A selector probe saw the selector a call arrived with (its detail).
    public static let selectorProbe = Self("cmd")
    /// A delegate's own selection method ran (its detail is the row).
    public static let ownSelect = Self("own select")
    /// A delegate class registered after the hook was installed ran its selection.
    public static let lateSelect = Self("late select")
    /// A delegate that reloads its list on selection ran its selection.
    public static let reloadSelect = Self("reload select")
}

extension AppLogEntry {
    /// A control subclass's `sendAction:to:forEvent:` override ran.
    public static let override = AppLogEntry("override")
    /// Another tracker's `growingHookTouch_` action ran.
    public static let growing = AppLogEntry("growing")
    /// An action method with no sender argument ran.
    public static let bare = AppLogEntry("bare")
    /// The outer control's action, which sends another action, ran.
    public static let outer = AppLogEntry("outer")
    /// An RxCocoa-style forwarding delegate proxy ran.
    public static let rx = AppLogEntry("rx")
    /// A delegate answered `tableView:heightForRowAtIndexPath:`.
    public static let height = AppLogEntry("height")
    /// A delegate got `scrollViewDidScroll:`.
    public static let scroll = AppLogEntry("scroll")
    /// A closure action wired twice ran.
    public static let menu = AppLogEntry("menu")
    /// The second alert's "Sure" handler ran.
    public static let alertSure = AppLogEntry("alert sure")
    /// No original: a fixture for a point the kit has no user action at.
    static let noOriginal = AppLogEntry("none")

    /// A delegate's own selection method ran for `row`.
    public static func ownSelect(row: Int) -> AppLogEntry { AppLogEntry(.ownSelect, detail: "\(row)") }
    /// A late-registered delegate class ran its selection for `row`.
    public static func lateSelect(row: Int) -> AppLogEntry { AppLogEntry(.lateSelect, detail: "\(row)") }
    /// A reloading delegate ran its selection for `row`.
    public static func reloadSelect(row: Int) -> AppLogEntry { AppLogEntry(.reloadSelect, detail: "\(row)") }
}
