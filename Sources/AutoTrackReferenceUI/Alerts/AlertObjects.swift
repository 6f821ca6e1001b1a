/// AutoTrackProperties: `AlertContext` appears in this file's public API.
public import AutoTrackProperties
/// AutoTrackRuntime: `RuntimeBlock`, `RuntimeObject` appear in this file's public API.
public import AutoTrackRuntime

/// The style of an alert action (`UIAlertActionStyle`).
public enum AlertActionStyle: Int, Sendable, CustomStringConvertible {
    /// The default style.
    case `default` = 0
    /// Cancels.
    case cancel = 1
    /// Destroys data.
    case destructive = 2

    /// `default`, `cancel` or `destructive`.
    public var description: String {
        switch self {
        case .default: "default"
        case .cancel: "cancel"
        case .destructive: "destructive"
        }
    }
}

/// The Swift-side storage of an alert action (`UIAlertAction`).
public final class AlertActionObject: RuntimeObject, @unchecked Sendable {
    // Safe by confinement to the UI thread.

    /// The title.
    public let title: String?
    /// The style.
    public let style: AlertActionStyle
    /// The handler block, run once when the action is tapped; `nil` for none.
    public internal(set) var handler: RuntimeBlock?
    /// The alert the action was added to.
    public internal(set) weak var alertController: ViewControllerObject? {
        didSet { (alertController?.host ?? oldValue?.host)?.hierarchyVersion.bump() }
    }

    init(class cls: RuntimeClass, title: String?, style: AlertActionStyle, handler: RuntimeBlock?) {
        self.title = title
        self.style = style
        self.handler = handler
        super.init(instanceOf: cls)
    }
}

/// The view of one alert action, with its alert for collectors.
public final class AlertActionViewObject: ViewObject, @unchecked Sendable {
    // Safe by confinement to the UI thread.

    /// The action this view shows.
    public internal(set) weak var action: AlertActionObject? { didSet { hierarchyVersion.bump() } }

    /// The alert's title and message, the action's title and style.
    public override var alertContext: AlertContext? {
        guard let action, let alert = action.alertController else { return nil }
        return AlertContext(
            controllerType: alert.reportedClassName, title: alert.title, message: alert.message,
            actionTitle: action.title, actionStyle: action.style.description)
    }

    /// The action's title.
    public override var ownText: String? { action?.title }
}

/// `UIAlertAction` and `UIAlertController`.
enum AlertClasses {
    static func define(in host: ReferenceHost) throws(RuntimeError) {
        let runtime = host.runtime
        let actionClass = try runtime.defineClass("UIAlertAction", classMethods: [
            // A class method that stores the block, as UIKit's.
            ("actionWithTitle:style:handler:", "@@:@q@?", Implementation("+[UIAlertAction actionWithTitle:style:handler:]") {
                message throws(RuntimeError) in
                guard let cls = message.receiver as? RuntimeClass else { return .object(nil) }
                let title = try String?.fromRuntimeValue(try message.argument(at: 0), selector: message.selector)
                let style = AlertActionStyle(rawValue: try Int.fromRuntimeValue(try message.argument(at: 1), selector: message.selector)) ?? .default
                let handler = try RuntimeBlock?.fromRuntimeValue(try message.argument(at: 2), selector: message.selector)
                return .object(AlertActionObject(class: cls, title: title, style: style, handler: handler))
            }),
        ])
        host.register(actionClass, storage: nil)
        host.register(try runtime.defineClass("_UIAlertControllerActionView", superclass: runtime.lookUpClass("UIView")!),
                      storage: .alertActionView)
    }
}
