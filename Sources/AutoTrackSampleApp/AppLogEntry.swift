/// AutoTrackReferenceUI: `IndexPath`, `GestureState` appear in this file's public API.
public import AutoTrackReferenceUI

/// One thing the app's own code did, as its ``AppLog`` records it: a kind (which
/// original ran) and, for kinds that have one, a detail (the index path selected, the
/// screen that appeared, the gesture state).
///
/// Entries are declared, never spelled where they are counted: the sample app's are the
/// static members below, a fixture's own are static members in an extension where the
/// fixture is defined. So `log.count(.buy)` names a declared entry, and a count of an
/// entry no code records does not compile.
public struct AppLogEntry: Hashable, Sendable, CustomStringConvertible {
    /// Which original ran.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The kind's text, e.g. `delegate select`.
        public let name: String

        /// A kind named `name`; declare it once, as a static member.
        public init(_ name: String) { self.name = name }

        /// The name.
        public var description: String { name }
    }

    /// Which original ran.
    public let kind: Kind
    /// What it ran with, for kinds that tell calls apart (`0:3`).
    public let detail: String?

    /// An entry of `kind`, with `detail` when the kind tells calls apart.
    public init(_ kind: Kind, detail: String? = nil) {
        self.kind = kind
        self.detail = detail
    }

    /// An entry of a kind named `name` and no detail; declare it once, as a static
    /// member.
    public init(_ name: String) { self.init(Kind(name)) }

    /// `kind detail`, as transcripts print it.
    public var description: String { detail.map { "\(kind.name) \($0)" } ?? kind.name }
}

// MARK: The sample app's entries

extension AppLogEntry.Kind {
    /// `ViewController`'s table selection ran.
    public static let listSelect = Self("select")
    /// `CollectionViewController`'s collection selection ran.
    public static let collectionSelect = Self("select item")
    /// `MyTableDelegate`'s table selection ran.
    public static let delegateSelect = Self("delegate select")
    /// `MySubTableDelegate`'s override ran (it calls super).
    public static let subclassSelect = Self("subclass select")
    /// The banner's long-press action ran, at a state.
    public static let bannerPress = Self("banner press")
    /// `AppDelegate` opened a link.
    public static let openLink = Self("open link")
    /// `AppDelegate` took a notification response.
    public static let openNotification = Self("open notification")
}

extension AppLogEntry {
    /// A click reached a recording sink (so clicks and originals are ordered in one log).
    public static let click = AppLogEntry("click")
    /// `buyTapped:` ran.
    public static let buy = AppLogEntry("buy")
    /// `editTapped:` ran.
    public static let edit = AppLogEntry("edit")
    /// `addTapped:` ran.
    public static let add = AppLogEntry("add")
    /// `bannerTapped:` ran.
    public static let bannerTap = AppLogEntry("banner tap")
    /// `switchChanged:` ran.
    public static let switchChanged = AppLogEntry("switch")
    /// `themeChanged:` ran.
    public static let themeChanged = AppLogEntry("theme")
    /// `nameChanged:` ran.
    public static let nameChanged = AppLogEntry("name")
    /// `passwordChanged:` ran.
    public static let passwordChanged = AppLogEntry("password")
    /// `volumeChanged:` ran.
    public static let volumeChanged = AppLogEntry("volume")
    /// `quantityChanged:` ran.
    public static let quantityChanged = AppLogEntry("quantity")
    /// The Share button's closure action ran.
    public static let share = AppLogEntry("share")
    /// The alert's "Cancel" handler ran.
    public static let alertCancel = AppLogEntry("alert cancel")
    /// The alert's "OK" handler ran.
    public static let alertOK = AppLogEntry("alert ok")

    /// `ViewController`'s table selection ran for `indexPath`.
    public static func listSelect(_ indexPath: IndexPath) -> AppLogEntry { AppLogEntry(.listSelect, detail: "\(indexPath.section):\(indexPath.row)") }
    /// `CollectionViewController`'s collection selection ran for `indexPath`.
    public static func collectionSelect(_ indexPath: IndexPath) -> AppLogEntry {
        AppLogEntry(.collectionSelect, detail: "\(indexPath.section):\(indexPath.item)")
    }
    /// `MyTableDelegate`'s table selection ran for `indexPath`.
    public static func delegateSelect(_ indexPath: IndexPath) -> AppLogEntry {
        AppLogEntry(.delegateSelect, detail: "\(indexPath.section):\(indexPath.row)")
    }
    /// `MySubTableDelegate`'s override ran for `indexPath`.
    public static func subclassSelect(_ indexPath: IndexPath) -> AppLogEntry {
        AppLogEntry(.subclassSelect, detail: "\(indexPath.section):\(indexPath.row)")
    }
    /// `AppDelegate` opened the link `link`.
    public static func openLink(_ link: String) -> AppLogEntry { AppLogEntry(.openLink, detail: link) }
    /// `AppDelegate` took the response to the notification titled `title`.
    public static func openNotification(_ title: String) -> AppLogEntry { AppLogEntry(.openNotification, detail: title) }
    /// The banner's long-press action ran at `state`.
    public static func bannerPress(_ state: GestureState) -> AppLogEntry { AppLogEntry(.bannerPress, detail: "\(state)") }
    /// The `viewDidAppear:` of the screen class `screen` ran.
    public static func viewDidAppear(_ screen: String) -> AppLogEntry { AppLogEntry(Kind("\(screen) viewDidAppear")) }
    /// The `viewWillAppear:` of the screen class `screen` ran.
    public static func viewWillAppear(_ screen: String) -> AppLogEntry { AppLogEntry(Kind("\(screen) viewWillAppear")) }
}
