/// One step of a session on the reference host's sample app. Elements a session builds
/// are numbered in the order they are built (`button 2` is the third button the session
/// added); a step about an element that does not exist — left out by shrinking — does
/// nothing, the same in both worlds.
public enum ReferenceHostStep: Hashable, Sendable, Codable, CustomStringConvertible {
    // MARK: Configuring

    /// The context's paths in `style` from now on (before the first install only).
    case usePathStyle(PathStyleChoice)

    // MARK: Building UI (on the list screen)

    /// A button with `targets` target-action pairs to the list screen's `buyTapped:`.
    case addButton(title: String, targets: Int)
    /// A button wired with a closure action (`UIAction`) only.
    case addClosureButton(title: String)
    /// A button whose action raises an exception the app sees.
    case addThrowingButton(title: String)
    /// A button whose action sends button `inner`'s actions from code (a nested action).
    case addNestedButton(title: String, inner: Int)
    /// An image view with a recognizer of `kind` targeting the list screen.
    case addGesture(GestureChoice)
    /// A table of `rows` rows whose delegate is `delegate`.
    case addTable(rows: Int, delegate: DelegateChoice)
    /// A new app class under `MyTableDelegate` whose selection override calls `super`
    /// or not, registered now (after whatever installs came before).
    case defineDelegateSubclass(callsSuper: Bool)
    /// A new screen class under `UIViewController` whose `viewDidAppear:` override calls
    /// `super` or not, registered now.
    case defineScreen(callsSuper: Bool)

    // MARK: User actions

    /// A tap on button `button`.
    case tap(button: Int)
    /// A tap on gesture view `view` (its tap recognizers recognise).
    case tapGesture(view: Int)
    /// A long press on gesture view `view`: began, `changes` times changed, ended.
    case longPress(view: Int, changes: Int)
    /// A pan on gesture view `view`: began, changed, ended.
    case pan(view: Int)
    /// A long press on gesture view `view` during which, right after it began, the SDK
    /// is changed (`interruption`): a hook installed, removed or switched in the middle
    /// of one user action.
    case longPressAround(view: Int, changes: Int, Interruption)
    /// A tap on row `row` of table `table`.
    case select(table: Int, row: Int)
    /// The sample alert presented on the list screen, and its action `action` tapped
    /// (0 Cancel, 1 OK).
    case answerAlert(action: Int)
    /// The sample alert made now, to be answered later.
    case prepareAlert
    /// The alert made by the last ``prepareAlert`` presented, and its action `action`
    /// tapped.
    case answerPreparedAlert(action: Int)
    /// The settings screen pushed, when the list screen is on top.
    case pushSettings
    /// A new instance of the `index`-th screen class the session defined, pushed.
    case pushDefinedScreen(Int)
    /// The top screen popped, when there is one above the list screen.
    case pop
    /// A new instance of the `index`-th screen class the session defined, presented
    /// modally over the top screen.
    case presentDefinedScreen(Int)
    /// The modally presented screen dismissed.
    case dismissModal
    /// The app moved to the background.
    case background
    /// The app back in the foreground.
    case foreground
    /// The system opens the app with the `index`-th of the session links
    /// (`application:openURL:options:` of the app delegate).
    case openLink(Int)
    /// The user opens a notification, or dismisses it (the notification center
    /// delegate's response method).
    case openNotification(dismissed: Bool)

    /// The SwiftUI shop pushed on the list screen, `target` tapped in it, and the list
    /// screen shown again.
    case tapInShop(ShopTarget)
    /// The shop's products reordered (the first moved last) and the shop rendered again.
    case reorderShop
    /// The shop's promotion line shown or hidden and the shop rendered again: a view
    /// above the shop's buttons comes or goes.
    case toggleShopPromotion

    // MARK: Programmatic calls

    /// Button `button`'s touch-up actions sent by the app's code
    /// (`sendActionsForControlEvents:`).
    case sendActions(button: Int)
    /// The app calling its own action method, as a tap would, without a tap.
    case callAction(button: Int)

    // MARK: Mutations

    /// Button `button` retitled.
    case rename(button: Int, title: String)
    /// Button `button` removed from its superview and released by the app.
    case remove(button: Int)
    /// Gesture view `from`'s recognizers moved to gesture view `to`.
    case moveGestures(from: Int, to: Int)
    /// Table `table` given another delegate (or none).
    case setDelegate(table: Int, DelegateChoice)
    /// Table `table` reloaded (its cells reused with new content).
    case reload(table: Int)
    /// Button `button` marked ignored by the app (`isIgnoredByAutoTrack`).
    case markIgnored(button: Int)
    /// Button `button` no longer ignored: an ignore rule changed at run time.
    case unmarkIgnored(button: Int)
    /// Table `table`'s rows labelled `<prefix> <row>` from now on, and the table
    /// reloaded: the same cells, reused, show other content.
    case relabelRows(table: Int, prefix: String)

    // MARK: Other libraries

    /// Another analytics library hooks the framework's methods every interception point
    /// uses, in its own style — before or after the subject, wherever the step falls.
    case otherLibraryHooks(OtherLibraryStyle)

    // MARK: SDK operations

    /// The subject installed (again).
    case install
    /// Every installation of the subject removed.
    case uninstall
    /// Tracking switched on or off at run time (`InteractionContext.isEnabled`).
    case setTracking(Bool)

    /// What a tap in the SwiftUI shop lands on.
    public enum ShopTarget: String, Hashable, Sendable, Codable, CaseIterable {
        /// The "Add to cart" button.
        case addToCart
        /// The "Gift wrap" toggle.
        case giftWrap
        /// The Follow button (its label says whether the shopper follows).
        case follow
        /// The "Debug menu" button, which automatic capture ignores.
        case debugMenu
        /// The banner image's tap gesture.
        case banner
        /// The title text: a tap that activates nothing.
        case title
        /// The first product row's link.
        case firstRow
        /// The last product row's link.
        case lastRow
        /// The gift-cards row's text: its stack's tap gesture answers it.
        case giftCardsText
    }

    /// A path style.
    public enum PathStyleChoice: String, Hashable, Sendable, Codable {
        /// `Screen[0]/UIView[0]/…`.
        case slash
        /// `UIView(0)_UILabel(0)`, from the window.
        case hubble
    }

    /// How the other library hooks.
    public enum OtherLibraryStyle: String, Hashable, Sendable, Codable {
        /// Adds a prefixed method and exchanges implementations.
        case exchange
        /// Replaces the implementation, keeping the old one to call.
        case replace
    }

    /// What changes in the middle of a long press.
    public enum Interruption: String, Hashable, Sendable, Codable {
        /// The subject installed (again).
        case install
        /// The subject uninstalled.
        case uninstall
        /// Tracking switched off.
        case trackingOff
        /// Tracking switched on.
        case trackingOn
    }

    /// The kind of recognizer a gesture view gets.
    public enum GestureChoice: String, Hashable, Sendable, Codable {
        /// A `UITapGestureRecognizer` → `bannerTapped:`.
        case tap
        /// A `UILongPressGestureRecognizer` → `bannerPressed:`.
        case longPress
        /// A `UIPanGestureRecognizer` → `bannerTapped:`; never a click.
        case pan
    }

    /// A table's delegate.
    public enum DelegateChoice: Hashable, Sendable, Codable, CustomStringConvertible {
        /// None.
        case none
        /// A new `MyTableDelegate`.
        case plain
        /// A new `MySubTableDelegate` (its override calls `super`).
        case subclass
        /// The list screen (`ViewController`), which implements the selection itself.
        case listScreen
        /// A new instance of the `index`-th delegate class the session defined.
        case defined(Int)
        /// A new `NSObject`: implements no selection method.
        case bare
        /// A new `RaisingTableDelegate`, whose selection raises an exception the app sees.
        case raising
        /// A new `DeepTableDelegate`: an override two levels below `MyTableDelegate`,
        /// calling `super` through `MySubTableDelegate`.
        case deep

        /// How a program line names it.
        public var description: String {
            switch self {
            case .none: "nil"
            case .plain: "a new MyTableDelegate"
            case .subclass: "a new MySubTableDelegate"
            case .listScreen: "the list screen"
            case .defined(let index): "a new DefinedDelegate\(index)"
            case .bare: "a new NSObject"
            case .raising: "a new RaisingTableDelegate"
            case .deep: "a new DeepTableDelegate"
            }
        }
    }

    /// The title of alert action `action`: 0 Cancel, 1 OK.
    static func actionTitle(_ action: Int) -> String { action == 0 ? "Cancel" : "OK" }

    /// The links a session opens the app with.
    static let links = ["shop://product/1029", "shop://sale?utm_campaign=spring"]
    /// The title of the notifications a session opens.
    static let notificationTitle = "Spring sale"

    /// The step as a line of a program.
    public var description: String {
        switch self {
        case .addButton(let title, let targets): return "add button \"\(title)\" with \(targets) " + (targets == 1 ? "target" : "targets")
        case .addClosureButton(let title): return "add button \"\(title)\" with a closure action"
        case .addThrowingButton(let title): return "add button \"\(title)\" whose action raises"
        case .addNestedButton(let title, let inner): return "add button \"\(title)\" whose action sends button \(inner)'s actions"
        case .addGesture(let kind): return "add an image view with a \(kind.rawValue) recognizer"
        case .addTable(let rows, let delegate): return "add a table of \(rows) rows, delegate \(delegate)"
        case .defineDelegateSubclass(let callsSuper): return "define a MyTableDelegate subclass whose override " + (callsSuper ? "calls" : "does not call") + " super"
        case .defineScreen(let callsSuper): return "define a screen class whose viewDidAppear: " + (callsSuper ? "calls" : "does not call") + " super"
        case .pushDefinedScreen(let index): return "push a new DefinedScreen\(index)"
        case .otherLibraryHooks(let style): return "another library hooks the framework's methods (\(style.rawValue) style)"
        case .tapInShop(let target): return "open the SwiftUI shop, tap its \(target.rawValue), come back"
        case .reorderShop: return "reorder the shop's products"
        case .toggleShopPromotion: return "show or hide the shop's promotion"
        case .tap(let button): return "tap button \(button)"
        case .tapGesture(let view): return "tap gesture view \(view)"
        case .longPress(let view, let changes): return "long-press gesture view \(view) (\(changes) changes)"
        case .pan(let view): return "pan on gesture view \(view)"
        case .longPressAround(let view, let changes, let interruption):
            return "long-press gesture view \(view) (\(changes) changes), the SDK changed after it began: \(interruption.rawValue)"
        case .presentDefinedScreen(let index): return "present a new DefinedScreen\(index) modally"
        case .dismissModal: return "dismiss the modal screen"
        case .unmarkIgnored(let button): return "mark button \(button) no longer ignored"
        case .relabelRows(let table, let prefix): return "label table \(table)'s rows \"\(prefix) <row>\" and reload it"
        case .select(let table, let row): return "select row \(row) of table \(table)"
        case .answerAlert(let action): return "present the alert and tap " + Self.actionTitle(action)
        case .prepareAlert: return "make the alert, to answer later"
        case .answerPreparedAlert(let action): return "present the alert made before and tap " + Self.actionTitle(action)
        case .usePathStyle(let style): return "write paths in the \(style.rawValue) style"
        case .pushSettings: return "push the settings screen"
        case .pop: return "pop the top screen"
        case .background: return "move to the background"
        case .foreground: return "come back to the foreground"
        case .openLink(let index): return "open the app with the link \(Self.links[index % Self.links.count])"
        case .openNotification(let dismissed): return dismissed ? "dismiss a notification" : "open a notification"
        case .sendActions(let button): return "send button \(button)'s actions from code"
        case .callAction(let button): return "call button \(button)'s action method from code"
        case .rename(let button, let title): return "retitle button \(button) \"\(title)\""
        case .remove(let button): return "remove and release button \(button)"
        case .moveGestures(let from, let to): return "move gesture view \(from)'s recognizers to gesture view \(to)"
        case .setDelegate(let table, let delegate): return "set table \(table)'s delegate to \(delegate)"
        case .reload(let table): return "reload table \(table)"
        case .markIgnored(let button): return "mark button \(button) ignored"
        case .install: return "install the subject"
        case .uninstall: return "uninstall the subject"
        case .setTracking(let on): return "switch tracking " + (on ? "on" : "off")
        }
    }
}

extension ReferenceHostStep {
    /// The step as Swift source, e.g. `.addButton(title: "Buy", targets: 2)`.
    public var swiftSource: String {
        switch self {
        case .usePathStyle(let style): return ".usePathStyle(.\(style.rawValue))"
        case .addButton(let title, let targets): return ".addButton(title: \(Self.quoted(title)), targets: \(targets))"
        case .addClosureButton(let title): return ".addClosureButton(title: \(Self.quoted(title)))"
        case .addThrowingButton(let title): return ".addThrowingButton(title: \(Self.quoted(title)))"
        case .addNestedButton(let title, let inner): return ".addNestedButton(title: \(Self.quoted(title)), inner: \(inner))"
        case .addGesture(let kind): return ".addGesture(.\(kind.rawValue))"
        case .addTable(let rows, let choice): return ".addTable(rows: \(rows), delegate: \(choice.swiftSource))"
        case .defineDelegateSubclass(let callsSuper): return ".defineDelegateSubclass(callsSuper: \(callsSuper))"
        case .defineScreen(let callsSuper): return ".defineScreen(callsSuper: \(callsSuper))"
        case .tapInShop(let target): return ".tapInShop(.\(target.rawValue))"
        case .reorderShop: return ".reorderShop"
        case .toggleShopPromotion: return ".toggleShopPromotion"
        case .tap(let button): return ".tap(button: \(button))"
        case .tapGesture(let view): return ".tapGesture(view: \(view))"
        case .longPress(let view, let changes): return ".longPress(view: \(view), changes: \(changes))"
        case .pan(let view): return ".pan(view: \(view))"
        case .longPressAround(let view, let changes, let interruption):
            return ".longPressAround(view: \(view), changes: \(changes), .\(interruption.rawValue))"
        case .presentDefinedScreen(let index): return ".presentDefinedScreen(\(index))"
        case .dismissModal: return ".dismissModal"
        case .unmarkIgnored(let button): return ".unmarkIgnored(button: \(button))"
        case .relabelRows(let table, let prefix): return ".relabelRows(table: \(table), prefix: \(Self.quoted(prefix)))"
        case .select(let table, let row): return ".select(table: \(table), row: \(row))"
        case .answerAlert(let action): return ".answerAlert(action: \(action))"
        case .prepareAlert: return ".prepareAlert"
        case .answerPreparedAlert(let action): return ".answerPreparedAlert(action: \(action))"
        case .pushSettings: return ".pushSettings"
        case .pushDefinedScreen(let index): return ".pushDefinedScreen(\(index))"
        case .pop: return ".pop"
        case .background: return ".background"
        case .foreground: return ".foreground"
        case .openLink(let index): return ".openLink(\(index))"
        case .openNotification(let dismissed): return ".openNotification(dismissed: \(dismissed))"
        case .sendActions(let button): return ".sendActions(button: \(button))"
        case .callAction(let button): return ".callAction(button: \(button))"
        case .rename(let button, let title): return ".rename(button: \(button), title: \(Self.quoted(title)))"
        case .remove(let button): return ".remove(button: \(button))"
        case .moveGestures(let from, let to): return ".moveGestures(from: \(from), to: \(to))"
        case .setDelegate(let table, let choice): return ".setDelegate(table: \(table), \(choice.swiftSource))"
        case .reload(let table): return ".reload(table: \(table))"
        case .markIgnored(let button): return ".markIgnored(button: \(button))"
        case .otherLibraryHooks(let style): return ".otherLibraryHooks(.\(style.rawValue))"
        case .install: return ".install"
        case .uninstall: return ".uninstall"
        case .setTracking(let on): return ".setTracking(\(on))"
        }
    }

    /// `text` as a Swift string literal.
    static func quoted(_ text: String) -> String {
        var literal = "\""
        for character in text {
            switch character {
            case "\\": literal += "\\\\"
            case "\"": literal += "\\\""
            default: literal.append(character)
            }
        }
        return literal + "\""
    }
}

extension ReferenceHostStep.DelegateChoice {
    /// The choice as Swift source, e.g. `.defined(1)`.
    public var swiftSource: String {
        switch self {
        case .none: return ".none"
        case .plain: return ".plain"
        case .subclass: return ".subclass"
        case .listScreen: return ".listScreen"
        case .defined(let index): return ".defined(\(index))"
        case .bare: return ".bare"
        case .raising: return ".raising"
        case .deep: return ".deep"
        }
    }
}
