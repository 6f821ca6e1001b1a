import CObjCRuntimeBridge

/// The app's own classes compiled from Objective-C, as an app's would be —
/// `ATAppTable` (asks its delegate on a tap), `ATAppDelegate` (a key-value observable
/// `title`), `ATAppDelegateSubclass` (its override calls `super`), `ATAppObserver` —
/// and their log: every original they run writes one entry, so a test can tell how
/// many times each ran.
public enum ObjCSampleApp {
    /// A new table.
    public static func makeTable() -> ObjCObject { ObjCObject(owning: atr_appNewTable()) }

    /// A new delegate: an `ATAppDelegate`, or with `subclass` an `ATAppDelegateSubclass`.
    public static func makeDelegate(subclass: Bool = false) -> ObjCObject {
        let runtime = ObjCRuntime.shared
        return runtime.makeObject(of: runtime.lookUpClass(named: subclass ? "ATAppDelegateSubclass" : "ATAppDelegate")!)!
    }

    /// A new key-value observer that counts the changes it is told about.
    public static func makeObserver() -> ObjCObject {
        ObjCRuntime.shared.makeObject(of: ObjCRuntime.shared.lookUpClass(named: "ATAppObserver")!)!
    }

    /// `[table setDelegate:delegate]`, as the app calls it (the table holds it unretained).
    public static func setDelegate(_ delegate: ObjCObject?, of table: ObjCObject) {
        atr_appTableSetDelegate(table.pointer, delegate?.pointer)
    }

    /// A user's tap on `row`: the table sends its delegate `tableView:didSelectRowAtIndexPath:`.
    public static func userSelectRow(_ row: Int, in table: ObjCObject) throws(ObjCMessageError) {
        try ObjCRuntime.check(atr_appUserSelectRow(table.pointer, row))
    }

    /// `[delegate setTitle:title]`: a key-value observed change when observed.
    public static func setTitle(_ title: String, on delegate: ObjCObject) throws(ObjCMessageError) {
        try ObjCRuntime.check(atr_appSetTitle(delegate.pointer, title))
    }

    /// A new view controller of the class named `className` (`ATAppViewController`,
    /// `ATAppNoSuperViewController`, or one made under `ATViewController`).
    public static func makeController(_ className: String) -> ObjCObject? {
        atr_appNewController(className).map { ObjCObject(owning: $0) }
    }

    /// Presents `controller` as UIKit does: `viewDidLoad` the first time, then
    /// `viewDidAppear:`.
    public static func present(_ controller: ObjCObject) throws(ObjCMessageError) {
        try ObjCRuntime.check(atr_appPresent(controller.pointer))
    }

    /// A `viewDidAppear:` override that logs and never calls super (`v@:c`), for a
    /// controller class made at run time.
    public static var overrideWithoutSuper: ObjCImplementation { ObjCImplementation(atr_appOverrideWithoutSuperImplementation()) }

    /// A new control (`ATControl`) titled `title`.
    public static func makeControl(title: String) -> ObjCObject { ObjCObject(owning: atr_appNewControl(title)) }

    /// A new target (`ATAppActions`: `buyTapped:`, `logTapped:`).
    public static func makeActions() -> ObjCObject { ObjCObject(owning: atr_appNewActions()) }

    /// `[control addTarget:target action:action]` (the target is held unretained).
    public static func addTarget(_ target: ObjCObject, action: String, to control: ObjCObject) {
        atr_appControlAddTarget(control.pointer, target.pointer, action)
    }

    /// A touch on `control`: each target-action pair dispatched with one event object.
    public static func touch(_ control: ObjCObject) throws(ObjCMessageError) { try ObjCRuntime.check(atr_appTouch(control.pointer)) }

    /// `[control sendAction:action to:target forEvent:nil]`: an action sent from code.
    public static func sendAction(_ action: String, to target: ObjCObject, from control: ObjCObject) throws(ObjCMessageError) {
        try ObjCRuntime.check(atr_appSendAction(control.pointer, target.pointer, action))
    }

    /// The title of the control at `address` (an `ATControl`, live for the call).
    public static func controlTitle(ofControlAt address: UInt) -> String {
        String(cString: atr_appControlTitle(OpaquePointer(bitPattern: address)!))
    }

    /// A new tap recognizer (`ATTapGestureRecognizer`).
    public static func makeTapRecognizer() -> ObjCObject { ObjCObject(owning: atr_appNewTapRecognizer()) }

    /// `[recognizer addTarget:target action:action]`, sent as a message (hookable).
    public static func addTarget(_ target: ObjCObject, action: String, toRecognizer recognizer: ObjCObject) throws(ObjCMessageError) {
        try ObjCRuntime.check(atr_appRecognizerAddTarget(recognizer.pointer, target.pointer, action))
    }

    /// A recognized tap: the recognizer sends each of its actions.
    public static func recognizeTap(_ recognizer: ObjCObject) throws(ObjCMessageError) {
        try ObjCRuntime.check(atr_appRecognizeTap(recognizer.pointer))
    }

    /// How many target-action pairs the recognizer at `address` has (live for the call).
    public static func targetCount(ofRecognizerAt address: UInt) -> Int { Int(atr_appRecognizerTargetCount(OpaquePointer(bitPattern: address)!)) }

    /// `+[ATAlertAction actionWithTitle:handler:]`, sent as a message (hookable): a new
    /// action whose handler logs `handled <title>`, or none.
    public static func makeAlertAction(title: String, withHandler: Bool = true) -> ObjCObject {
        ObjCObject(retaining: atr_appMakeAlertAction(title, withHandler))
    }

    /// The user taps the action: the framework runs its handler.
    public static func tap(alertAction action: ObjCObject) throws(ObjCMessageError) {
        try ObjCRuntime.check(atr_appTapAlertAction(action.pointer))
    }

    /// The title of the alert action at `address` (live for the call).
    public static func alertActionTitle(at address: UInt) -> String { String(cString: atr_appAlertActionTitle(OpaquePointer(bitPattern: address)!)) }

    /// The app log: one entry per original that ran.
    public static var log: [String] { (0..<atr_appLogCount()).map { String(cString: atr_appLogEntry($0)) } }

    /// Writes `entry` to the app log, between the originals' entries: how a test
    /// records its own events (an interaction reaching the sink) in order with them.
    public static func note(_ entry: String) { atr_appLogNote(entry) }

    /// Empties the app log.
    public static func clearLog() { atr_appLogClear() }

    /// How many changes `ATAppObserver`s were told about.
    public static var observedChanges: Int { Int(atr_appObservedChanges()) }
}
