import AutoTrackProperties
/// AutoTrackRuntime: `RuntimeClass`, `RuntimeObject` appear in this file's public API.
public import AutoTrackRuntime

/// The Swift-side storage shared by every responder (`UIResponder`): views, view
/// controllers and the application. The runtime class decides behaviour; this holds
/// state.
///
/// Reference-host objects are confined to the thread that drives the UI, as UIKit's
/// are to the main thread.
open class ResponderObject: RuntimeObject, @unchecked Sendable {
    // Safe by confinement to the UI thread (see above); the runtime parts are atomic.

    /// The host the object lives in.
    public unowned let host: ReferenceHost
    /// The host's ``ReferenceHost/hierarchyVersion``, held here so that an object
    /// outliving its host can still report its own release.
    let hierarchyVersion: HierarchyVersion

    /// Creates an instance of `cls` in `host`.
    public init(host: ReferenceHost, class cls: RuntimeClass) {
        self.host = host
        hierarchyVersion = host.hierarchyVersion
        super.init(instanceOf: cls)
    }

    /// The next responder (`nextResponder`): a view's view controller if it is that
    /// controller's root view, else its superview; a controller's view's superview or
    /// its parent; the window's next is the application.
    open var nextResponder: ResponderObject? { nil }

    /// The reported class's names, and the host's hierarchy version they were asked at
    /// (it moves with every class or method change of the runtime): an answer of
    /// `class` holds until then.
    private var reportedNames: (version: UInt64, hierarchy: [String])?

    /// The app-visible class name: the class the object reports through `class`, which
    /// hides runtime-generated subclasses (KVO, dynamic-subclass hooks).
    public var reportedClassName: String {
        reportedClassHierarchy.first ?? realClass.name
    }

    /// The reported class and its superclasses' names. Asked with a `class` message,
    /// and kept until the host's ``ReferenceHost/hierarchyVersion`` moves — which it
    /// does with the runtime's `Runtime.dispatchChangeCount` (a
    /// method added, replaced or exchanged, an object's class set).
    public var reportedClassHierarchy: [String] {
        let version = hierarchyVersion.current
        if let reportedNames, reportedNames.version == version { return reportedNames.hierarchy }
        var names: [String] = []
        var current: RuntimeClass? = ((try? host.runtime.reportedClass(of: self)) ?? nil) ?? realClass
        var steps = 0
        while let cls = current, steps < 64 {
            names.append(cls.name)
            current = cls.superclass
            steps += 1
        }
        reportedNames = (version, names)
        return names
    }
}
