/// AutoTrackRuntime: `RuntimeClass`, `RuntimeObject`, `RuntimeError`, `Selector` appear in this file's public API.
public import AutoTrackRuntime
/// AutoTrackProperties: `Rect` appears in this file's public API.
public import AutoTrackProperties

extension ReferenceHost {
    // MARK: Making objects

    /// A new instance of `cls` with the storage its UIKit base class needs.
    public func make(_ cls: RuntimeClass) throws(RuntimeError) -> RuntimeObject {
        try runtime.checkInstantiable(cls)
        switch storageKind(for: cls) {
        case .view(let role)?: return ViewObject(host: self, class: cls, role: role)
        case .hostingView?: return HostingViewObject(host: self, class: cls, role: .view)
        case .control(let role)?: return ControlObject(host: self, class: cls, role: role)
        case .list(let role)?: return ListViewObject(host: self, class: cls, role: role)
        case .cell(let role)?:
            let cell = CellObject(host: self, class: cls, role: role)
            let contentClass = role == .tableCell ? "UITableViewCellContentView" : "UIView"
            let content = ViewObject(host: self, class: runtime.lookUpClass(contentClass)!, role: .cellContentView)
            cell.insertSubviewStorage(content, at: 0)
            cell.contentView = content
            return cell
        case .alertActionView?: return AlertActionViewObject(host: self, class: cls, role: .alertAction)
        case .controller(let kind)?: return ViewControllerObject(host: self, class: cls, kind: kind)
        case .gesture(let kind)?: return GestureRecognizerObject(host: self, class: cls, kind: kind)
        case .application?: return ApplicationObject(host: self, class: cls)
        case .event?: return EventObject(class: cls)
        case .url?: return URLObject(instanceOf: cls)
        case .notificationCenter?: return NotificationCenterObject(instanceOf: cls)
        case .notificationResponse?: return NotificationResponseObject(instanceOf: cls)
        case nil: return try runtime.allocate(cls)
        }
    }

    /// A new instance of `cls` as the storage type `T`.
    public func make<T: RuntimeObject>(_ cls: RuntimeClass, as type: T.Type) throws(RuntimeError) -> T {
        let object = try make(cls)
        guard let typed = object as? T else {
            throw .typeMismatch(selector: "alloc", expected: "\(T.self)", found: "\(Swift.type(of: object))")
        }
        return typed
    }

    /// A new instance of the class named `name` as `T`, or `nil` if there is no such
    /// class or its storage is not `T`.
    public func make<T: RuntimeObject>(named name: String, as type: T.Type) -> T? {
        guard let cls = runtime.lookUpClass(name) else { return nil }
        return try? make(cls, as: T.self)
    }

    /// A new instance of the class named `name` as `T`.
    /// - Throws: `RuntimeError.classNotFound(_:)` when there is no such class, and
    ///   `RuntimeError.typeMismatch(selector:expected:found:)` when its storage is not
    ///   `T` (a `UITextView` asked for as a control).
    public func make<T: RuntimeObject>(className name: String, as type: T.Type) throws(RuntimeError) -> T {
        try make(try lookUpClass(name), as: T.self)
    }

    /// An instance of one of the host's own framework classes — registered when the host
    /// was made and never removed — for the framework's own views (a window, a
    /// controller's root view, a navigation bar). Not for the app's classes: those go
    /// through the throwing ``make(className:as:)``.
    package func frameworkObject<T: RuntimeObject>(_ className: String, as type: T.Type, frame: Rect? = nil) -> T {
        guard let object = make(named: className, as: T.self) else {
            preconditionFailure("the reference host's own class \(className) is missing")
        }
        if let frame, let view = object as? ViewObject { view.frame = frame }
        return object
    }

    /// A view of the class named `className` (a `UIView` subclass).
    /// - Throws: see ``make(className:as:)``.
    public func makeView(_ className: String = "UIView", frame: Rect = .zero) throws(RuntimeError) -> ViewObject {
        let view = try make(className: className, as: ViewObject.self)
        view.frame = frame
        return view
    }

    /// A label.
    /// - Throws: see ``make(className:as:)``.
    public func makeLabel(_ text: String, className: String = "UILabel") throws(RuntimeError) -> ViewObject {
        let label = try makeView(className)
        label.text = text
        return label
    }

    /// A control of the class named `className` (`UIButton`, `UISwitch` …).
    /// - Throws: see ``make(className:as:)``.
    public func makeControl(_ className: String, title: String? = nil, frame: Rect = .zero) throws(RuntimeError) -> ControlObject {
        let control = try make(className: className, as: ControlObject.self)
        control.title = title
        control.frame = frame
        return control
    }

    /// A list of the class named `className` (`UITableView`, `UICollectionView`).
    /// - Throws: see ``make(className:as:)``.
    public func makeList(_ className: String, content: ListContent? = nil) throws(RuntimeError) -> ListViewObject {
        let list = try make(className: className, as: ListViewObject.self)
        list.frame = screenBounds
        list.content = content
        return list
    }

    /// A cell of the class named `className`.
    /// - Throws: see ``make(className:as:)``.
    public func makeCell(_ className: String) throws(RuntimeError) -> CellObject {
        try make(className: className, as: CellObject.self)
    }

    /// A view controller of the class named `className`.
    /// - Throws: see ``make(className:as:)``.
    public func makeController(_ className: String, title: String? = nil) throws(RuntimeError) -> ViewControllerObject {
        let controller = try make(className: className, as: ViewControllerObject.self)
        controller.title = title
        return controller
    }

    /// A gesture recognizer of the class named `className`, created with
    /// `initWithTarget:action:` (hookable), or with `init` when `target` and `action`
    /// are both absent (as a storyboard creates them).
    public func makeGestureRecognizer(_ className: String, target: RuntimeObject?, action: Selector?) throws(RuntimeError) -> GestureRecognizerObject {
        guard let cls = runtime.lookUpClass(className) else { throw .classNotFound(className) }
        let allocated = try make(cls, as: GestureRecognizerObject.self)
        let initialized: RuntimeObject?
        if target == nil && action == nil {
            initialized = try runtime.call(allocated, "init", returning: RuntimeObject?.self)
        } else {
            initialized = try runtime.call(allocated, "initWithTarget:action:", target, action ?? Selector(""), returning: RuntimeObject?.self)
        }
        guard let recognizer = initialized as? GestureRecognizerObject else {
            throw .typeMismatch(selector: "initWithTarget:action:", expected: "GestureRecognizerObject", found: "\(String(describing: initialized))")
        }
        return recognizer
    }

    /// An alert action through `+[UIAlertAction actionWithTitle:style:handler:]`
    /// (hookable). `handler` `nil` makes an action without a handler.
    public func makeAlertAction(
        title: String?, style: AlertActionStyle = .default, handler: (@Sendable (AlertActionObject) -> Void)?
    ) throws(RuntimeError) -> AlertActionObject {
        let block = handler.map { handler in
            RuntimeBlock { arguments in
                if let action = arguments.first?.object as? AlertActionObject { handler(action) }
                return .void
            }
        }
        let cls = runtime.lookUpClass("UIAlertAction")!
        return try runtime.call(cls, "actionWithTitle:style:handler:", title, style.rawValue, block, returning: AlertActionObject.self)
    }

    /// An alert through `+[UIAlertController alertControllerWithTitle:message:preferredStyle:]`.
    public func makeAlert(title: String?, message: String?) throws(RuntimeError) -> ViewControllerObject {
        let cls = runtime.lookUpClass("UIAlertController")!
        return try runtime.call(cls, "alertControllerWithTitle:message:preferredStyle:", title, message, 1, returning: ViewControllerObject.self)
    }
}
