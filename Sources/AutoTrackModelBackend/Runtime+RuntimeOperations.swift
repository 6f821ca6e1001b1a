/// AutoTrackInterception: `HookError` appears in this file's public API.
public import AutoTrackInterception
/// AutoTrackMethodWrapping: `RuntimeOperations` appears in this file's public API.
public import AutoTrackMethodWrapping
/// AutoTrackRuntime: `Implementation`, `Runtime`, `RuntimeClass`, `RuntimeMethod`, `RuntimeObject` appear in this file's public API.
public import AutoTrackRuntime

/// The model of Objective-C dispatch as a backend of the interception contract's
/// runtime operations: each requirement maps to the runtime call of the same objc4
/// name, so `MethodWrapper` and every hook's install logic run
/// on the model exactly as they would on a real runtime.
extension Runtime: RuntimeOperations {
    /// `objc_lookUpClass`.
    public func lookUpClass(named name: String) -> RuntimeClass? { lookUpClass(name) }

    /// `class_getName`.
    public func name(of cls: RuntimeClass) -> String { cls.name }

    /// The metaclass, where class methods live.
    public func metaclass(of cls: RuntimeClass) -> RuntimeClass { cls.metaclass }

    /// `class_getInstanceMethod`.
    public func method(named selector: String, in cls: RuntimeClass) -> RuntimeMethod? { method(Selector(selector), in: cls) }

    /// The method in `cls`'s own list, not an inherited one.
    public func ownMethod(named selector: String, in cls: RuntimeClass) -> RuntimeMethod? {
        guard let found = method(Selector(selector), in: cls), found.owner === cls else { return nil }
        return found
    }

    /// `method_getImplementation`.
    public func implementation(of method: RuntimeMethod) -> Implementation { method.implementation }

    /// `method_getTypeEncoding`.
    public func typeEncoding(of method: RuntimeMethod) -> String { method.typeEncoding }

    /// Identity of the implementation objects.
    public func isSame(_ first: Implementation, _ second: Implementation) -> Bool { first === second }

    /// `class_addMethod`.
    @discardableResult
    public func addMethod(to cls: RuntimeClass, selector: String, implementation: Implementation, types: String) -> Bool {
        addMethod(to: cls, Selector(selector), implementation, types: types)
    }

    /// `class_replaceMethod`.
    @discardableResult
    public func replaceMethod(in cls: RuntimeClass, selector: String, implementation: Implementation, types: String) -> Implementation? {
        replaceMethod(in: cls, Selector(selector), implementation, types: types)
    }

    /// `objc_allocateClassPair`, its runtime error carried as the reason.
    public func makeClassPair(superclass: RuntimeClass, named name: String) throws(HookError) -> RuntimeClass {
        do {
            return try allocateClassPair(superclass: superclass, name: name)
        } catch {
            throw .classNotCreated(className: name, reason: error.description)
        }
    }

    /// `objc_registerClassPair`, its runtime error carried as the reason.
    public func registerClass(_ cls: RuntimeClass) throws(HookError) {
        do {
            try registerClassPair(cls)
        } catch {
            throw .classNotCreated(className: cls.name, reason: error.description)
        }
    }

    /// `object_getClass`.
    public func realClass(of object: RuntimeObject) -> RuntimeClass { object.realClass }

    /// `objc_getAssociatedObject` on a class.
    public func associatedObject(for key: String, onClass cls: RuntimeClass) -> (any AnyObject & Sendable)? {
        associatedObject(for: AssociationKey(key), on: cls)
    }

    /// `objc_setAssociatedObject` on a class.
    public func setAssociatedObject(_ value: (any AnyObject & Sendable)?, for key: String, onClass cls: RuntimeClass) {
        setAssociatedObject(value, for: AssociationKey(key), on: cls)
    }

    /// `objc_getAssociatedObject`.
    public func associatedObject(for key: String, on object: RuntimeObject) -> (any AnyObject & Sendable)? {
        associatedObject(for: AssociationKey(key), on: object)
    }

    /// `objc_setAssociatedObject`, retaining.
    public func setAssociatedObject(_ value: (any AnyObject & Sendable)?, for key: String, on object: RuntimeObject) {
        setAssociatedObject(value, for: AssociationKey(key), on: object)
    }
}
