import AutoTrackObjCBackend
import CObjCRuntimeBridge

/// The backend's implementation value for one of the bridge's C functions.
func implementation(_ function: ATImplementation) -> ObjCImplementation {
    ObjCImplementation(address: UInt(bitPattern: unsafeBitCast(function, to: Int.self)))
}
