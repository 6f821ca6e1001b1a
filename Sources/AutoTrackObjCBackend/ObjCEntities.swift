import CObjCRuntimeBridge

extension OpaquePointer {
    /// The pointer as the address the backend's wrappers store.
    var address: UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(self))) }
}

/// A class of the real runtime (`Class`), interned by ``ObjCRuntime``: one wrapper per
/// class, so `===` is class identity.
public final class ObjCClass: Sendable, Hashable, CustomStringConvertible {
    /// The class's address.
    public let address: UInt

    init(address: UInt) { self.address = address }

    var pointer: ATClassRef { OpaquePointer(bitPattern: address)! }

    /// The class's name.
    public var description: String { String(cString: atr_className(pointer)) }

    /// Identity.
    public static func == (lhs: ObjCClass, rhs: ObjCClass) -> Bool { lhs.address == rhs.address }

    /// Hashes the address.
    public func hash(into hasher: inout Hasher) { hasher.combine(address) }
}

/// A method of the real runtime (`Method`), interned by ``ObjCRuntime``, with the class
/// whose own method list holds it.
public final class ObjCMethod: Sendable {
    /// The method's address.
    public let address: UInt
    /// The class that owns the method (a method never moves between classes).
    public let owner: ObjCClass

    init(address: UInt, owner: ObjCClass) {
        self.address = address
        self.owner = owner
    }

    var pointer: ATMethodRef { OpaquePointer(bitPattern: address)! }
}

/// An implementation of the real runtime (`IMP`): a C function's address.
public struct ObjCImplementation: Hashable, Sendable {
    /// The function's address.
    public let address: UInt

    init(_ function: ATImplementation) {
        address = UInt(bitPattern: unsafeBitCast(function, to: Int.self))
    }

    /// The implementation at `address`, which must be a function taking the receiver
    /// and the selector first, as every `IMP` does.
    /// - Precondition: `address` is not zero.
    public init(address: UInt) {
        precondition(address != 0, "an implementation has an address")
        self.address = address
    }

    var function: ATImplementation { unsafeBitCast(Int(bitPattern: address), to: ATImplementation.self) }
}

/// An instance of the real runtime (`id`), retained while this wrapper lives.
public final class ObjCObject: Sendable, Hashable {
    // The address is immutable and the object retained for the wrapper's life; the
    // runtime's own retain counting is thread-safe. What the object does when messaged
    // from several threads is the object's business, as in Objective-C.

    /// The object's address.
    public let address: UInt

    /// Takes over one reference (+1) to `pointer`.
    init(owning pointer: ATObjectRef) {
        address = pointer.address
    }

    /// Takes a new reference (+1) to `pointer`.
    convenience init(retaining pointer: ATObjectRef) {
        atr_retain(pointer)
        self.init(owning: pointer)
    }

    deinit { atr_release(pointer) }

    var pointer: ATObjectRef { OpaquePointer(bitPattern: address)! }

    /// Identity.
    public static func == (lhs: ObjCObject, rhs: ObjCObject) -> Bool { lhs.address == rhs.address }

    /// Hashes the address.
    public func hash(into hasher: inout Hasher) { hasher.combine(address) }
}
