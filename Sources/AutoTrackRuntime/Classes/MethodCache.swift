/// An immutable lookup table from selector to method (or to "not implemented") for one
/// class, read without locks and without reference counting on every send.
///
/// A cache is a raw buffer — `mask`, then `(selector id, method pointer)` slots with
/// open addressing — never changed once published. Filling it after a miss builds a
/// larger copy and publishes that; invalidating it publishes the shared empty one.
/// Like objc4, which frees an old cache only once no thread can still be reading it,
/// the runtime keeps replaced caches allocated (see ``Runtime/retiredCacheCount``)
/// until it is released itself. A class's cache fills once per selector it receives,
/// and empties only when a method list changes — exchanging implementations leaves
/// caches valid — so the number kept stays small. Methods are referenced without
/// retaining: the runtime keeps every method alive.
struct MethodCache: Equatable, @unchecked Sendable {
    // Safe: the buffer is immutable after construction and outlives every reader.

    let buffer: UnsafeMutableRawPointer

    /// Slot key of an empty slot.
    private static let emptyKey = -1
    /// Method pointer of a "not implemented" answer.
    private static let notImplementedPointer = UInt(1)

    /// The shared empty cache, never freed.
    static let empty = MethodCache(entries: [])

    /// Builds a cache holding `entries`.
    init(entries: [(selector: Selector, method: RuntimeMethod?)]) {
        var capacity = 8
        while capacity < entries.count * 2 { capacity <<= 1 }
        let stride = MemoryLayout<Int>.stride
        buffer = .allocate(byteCount: stride * (1 + 2 * capacity), alignment: MemoryLayout<Int>.alignment)
        buffer.storeBytes(of: capacity - 1, as: Int.self)
        let slots = (buffer + stride).bindMemory(to: Int.self, capacity: 2 * capacity)
        for slot in 0..<capacity {
            slots[2 * slot] = Self.emptyKey
            slots[2 * slot + 1] = 0
        }
        for (selector, method) in entries {
            var slot = Self.hash(selector.id) & (capacity - 1)
            while slots[2 * slot] != Self.emptyKey { slot = (slot + 1) & (capacity - 1) }
            slots[2 * slot] = selector.id
            slots[2 * slot + 1] = Int(bitPattern: method.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) }
                ?? Self.notImplementedPointer)
        }
    }

    init(buffer: UnsafeMutableRawPointer) { self.buffer = buffer }

    /// Frees the buffer; only the runtime does this, when it is released.
    func deallocate() { buffer.deallocate() }

    @inline(__always)
    private static func hash(_ id: Int) -> Int { (id &* 0x9E37_79B9) >> 4 }

    enum Lookup {
        case miss
        case notImplemented
        case found(Unmanaged<RuntimeMethod>)
    }

    /// The cached answer for `selector`.
    @inline(__always)
    func lookup(_ selector: Selector) -> Lookup {
        let mask = buffer.load(as: Int.self)
        let slots = (buffer + MemoryLayout<Int>.stride).assumingMemoryBound(to: Int.self)
        var slot = Self.hash(selector.id) & mask
        while true {
            let key = slots[2 * slot]
            if key == selector.id {
                let pointer = UInt(bitPattern: slots[2 * slot + 1])
                if pointer == Self.notImplementedPointer { return .notImplemented }
                return .found(Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: pointer)!))
            }
            if key == Self.emptyKey { return .miss }
            slot = (slot + 1) & mask
        }
    }

    /// The selectors and methods this cache holds.
    var entries: [(selector: Selector, method: RuntimeMethod?)] {
        let mask = buffer.load(as: Int.self)
        let slots = (buffer + MemoryLayout<Int>.stride).assumingMemoryBound(to: Int.self)
        var result: [(selector: Selector, method: RuntimeMethod?)] = []
        for slot in 0...mask where slots[2 * slot] != Self.emptyKey {
            let pointer = UInt(bitPattern: slots[2 * slot + 1])
            let method = pointer == Self.notImplementedPointer
                ? nil : Unmanaged<RuntimeMethod>.fromOpaque(UnsafeRawPointer(bitPattern: pointer)!).takeUnretainedValue()
            result.append((Selector(id: slots[2 * slot]), method))
        }
        return result
    }

    /// A copy that also answers `selector`.
    func adding(_ selector: Selector, _ method: RuntimeMethod?) -> MethodCache {
        MethodCache(entries: entries + [(selector, method)])
    }

    static func == (lhs: MethodCache, rhs: MethodCache) -> Bool { lhs.buffer == rhs.buffer }
}
