/// AutoTrackInterception: `HookError` appears in this file's public API.
public import AutoTrackInterception

/// The runtime operations hooks need, as an interface: method lookup, adding,
/// replacing and exchanging methods, setting implementations, class pairs, setting an
/// object's class, and associated objects.
///
/// The method-wrapping machinery (``MethodWrapper``, ``ReportingTarget``,
/// ``HookClasses``) is written against this interface only, so the same install,
/// uninstall, pass-through and reinstall logic runs on every backend: the package's
/// model of Objective-C dispatch, or a real Objective-C runtime. Each operation has the
/// semantics of its objc4 counterpart, named in its summary.
///
/// Selectors are passed by name: these operations run when hooks are installed, not on
/// the path of an intercepted call.
public protocol RuntimeOperations: AnyObject, Sendable {
    /// A class (`Class`).
    associatedtype Class: AnyObject & Sendable
    /// A method entity (`Method`).
    associatedtype Method: AnyObject & Sendable
    /// An implementation (`IMP`).
    associatedtype Implementation: Sendable
    /// An instance (`id`).
    associatedtype Object: AnyObject

    /// The root class, where per-runtime registries are kept as associated objects.
    var rootClass: Class { get }
    /// `objc_lookUpClass`.
    func lookUpClass(named name: String) -> Class?
    /// `class_getName`.
    func name(of cls: Class) -> String
    /// `object_getClass` of a class: its metaclass, where class methods live.
    func metaclass(of cls: Class) -> Class
    /// `class_getInstanceMethod`: the method `cls` answers `selector` with, its own or
    /// inherited.
    func method(named selector: String, in cls: Class) -> Method?
    /// The method with `selector` in `cls`'s own method list, or `nil` when `cls` only
    /// inherits it (`class_copyMethodList` filtered by selector).
    func ownMethod(named selector: String, in cls: Class) -> Method?
    /// `method_getImplementation`.
    func implementation(of method: Method) -> Implementation
    /// `method_getTypeEncoding`.
    func typeEncoding(of method: Method) -> String
    /// Whether two implementations are the same (`IMP` equality).
    func isSame(_ first: Implementation, _ second: Implementation) -> Bool
    /// `class_addMethod`: adds to `cls`'s own list; `false` when it already has one.
    @discardableResult
    func addMethod(to cls: Class, selector: String, implementation: Implementation, types: String) -> Bool
    /// `class_replaceMethod`: sets the own method's implementation, or adds one;
    /// returns the previous own implementation.
    @discardableResult
    func replaceMethod(in cls: Class, selector: String, implementation: Implementation, types: String) -> Implementation?
    /// `method_exchangeImplementations`.
    func exchangeImplementations(_ first: Method, _ second: Method)
    /// `method_setImplementation`: returns the previous implementation.
    @discardableResult
    func setImplementation(of method: Method, to implementation: Implementation) -> Implementation
    /// `objc_allocateClassPair`.
    func makeClassPair(superclass: Class, named name: String) throws(HookError) -> Class
    /// `objc_registerClassPair`.
    func registerClass(_ cls: Class) throws(HookError)
    /// `object_setClass`: returns the previous class.
    @discardableResult
    func setClass(of object: Object, to cls: Class) -> Class
    /// `object_getClass` of an instance: its real class, isa-swizzling included.
    func realClass(of object: Object) -> Class
    /// `objc_getAssociatedObject` on a class.
    func associatedObject(for key: String, onClass cls: Class) -> (any AnyObject & Sendable)?
    /// `objc_setAssociatedObject` on a class, retaining.
    func setAssociatedObject(_ value: (any AnyObject & Sendable)?, for key: String, onClass cls: Class)
    /// `objc_getAssociatedObject` on an instance.
    func associatedObject(for key: String, on object: Object) -> (any AnyObject & Sendable)?
    /// `objc_setAssociatedObject` on an instance, retaining.
    func setAssociatedObject(_ value: (any AnyObject & Sendable)?, for key: String, on object: Object)
}
