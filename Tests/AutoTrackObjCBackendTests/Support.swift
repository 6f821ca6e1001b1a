import AutoTrackInterception
import AutoTrackObjCBackend
import CObjCRuntimeBridge

/// The backend's implementation value for one of the bridge's C functions.
func implementation(_ function: ATImplementation) -> ObjCImplementation {
    ObjCImplementation(address: UInt(bitPattern: unsafeBitCast(function, to: Int.self)))
}

/// A new registered class of the real runtime named `name`, under the root class
/// `rootName` (`NSObject` or `NSProxy`).
func makeRegisteredClass(_ name: String, under rootName: String = "NSObject") throws -> ObjCClass {
    let runtime = ObjCRuntime.shared
    guard let root = runtime.lookUpClass(named: rootName) else { throw HookError.classNotFound(className: rootName) }
    let cls = try runtime.makeClassPair(superclass: root, named: name)
    try runtime.registerClass(cls)
    return cls
}
