/// An insertion-ordered collection of event properties.
///
/// Order matters for analytics only in one place — the bytes on the wire — and there it
/// matters a lot: two encodings of the same event must be byte-identical so that golden
/// files, de-duplication and CRCs are stable. `Properties` therefore remembers the order
/// in which keys were first inserted. Replacing a value keeps the key's position;
/// removing a key and inserting it again moves it to the end.
///
/// Equality is order-sensitive, like an ordered dictionary's. Each key keeps a 32-bit
/// fingerprint (FNV-1a of its UTF-8), so a lookup compares integers and only the
/// matching key's text; collections larger than ``Properties/indexThreshold`` keys
/// are hashed as well.
public struct Properties: Sendable {
    /// One key and its value.
    public typealias Element = (key: String, value: PropertyValue)

    /// One stored property: its key, the key's fingerprint and its value, kept together
    /// so that a collection is one allocation, not one per column.
    private struct Entry: Sendable {
        var key: String
        var value: PropertyValue
        let fingerprint: UInt32
    }

    /// The properties in insertion order.
    private var entries: [Entry] = []
    /// Positions by key, built only for collections larger than `indexThreshold`.
    private var positions: [String: Int]? = nil

    /// Above this many keys, lookups use a hash index instead of a fingerprint scan.
    public static let indexThreshold = 64

    /// Creates an empty collection.
    public init() {}

    /// Creates a collection from key-value pairs; a later duplicate key replaces the
    /// earlier value and keeps the earlier position.
    public init(_ pairs: some Sequence<(String, PropertyValue)>) {
        entries.reserveCapacity(pairs.underestimatedCount)
        for (key, value) in pairs { self[key] = value }
    }

    /// Makes room for `capacity` properties, so that adding that many allocates
    /// nothing more.
    public mutating func reserveCapacity(_ capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    /// The number of properties.
    public var count: Int { entries.count }

    /// Whether there are no properties.
    public var isEmpty: Bool { entries.isEmpty }

    /// The keys, in insertion order.
    public var keys: [String] { entries.map(\.key) }

    /// The values, in the order of ``keys``.
    public var values: [PropertyValue] { entries.map(\.value) }

    /// The position of `key`, if present.
    public func index(forKey key: String) -> Int? {
        index(forKey: key, fingerprint: Self.fingerprint(key))
    }

    private func index(forKey key: String, fingerprint: UInt32) -> Int? {
        if let positions { return positions[key] }
        return entries.withUnsafeBufferPointer { stored in
            var position = 0
            while position < stored.count {
                if stored[position].fingerprint == fingerprint && stored[position].key == key { return position }
                position += 1
            }
            return nil
        }
    }

    /// FNV-1a over the key's UTF-8 bytes — read as one buffer where the string has
    /// one (native strings do), which is several times faster than its UTF-8 view's
    /// iterator; a key is fingerprinted for every property set.
    static func fingerprint(_ key: String) -> UInt32 {
        func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt32 {
            var hash: UInt32 = 0x811C_9DC5
            for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
            return hash
        }
        return key.utf8.withContiguousStorageIfAvailable { fnv1a($0) } ?? fnv1a(key.utf8)
    }

    /// Whether `key` is present.
    public func contains(key: String) -> Bool { index(forKey: key) != nil }

    /// Whether any key of `other` is present here too (with the keys' fingerprints
    /// kept, no key is hashed again).
    public func sharesKey(with other: Properties) -> Bool {
        // The smaller collection's keys are looked up in the larger one.
        let (small, large) = other.count < count ? (other, self) : (self, other)
        return small.entries.contains { large.index(forKey: $0.key, fingerprint: $0.fingerprint) != nil }
    }

    /// One bit per key — bit `fingerprint % 64` — for ``sharesKey(with:keyMask:)``.
    package var keyMask: UInt64 {
        entries.reduce(0) { $0 | 1 << UInt64($1.fingerprint & 63) }
    }

    /// ``sharesKey(with:)`` when `other`'s ``keyMask`` is known: only keys whose bit is
    /// set in it are looked up there (with a few keys in `other`, most are not).
    package func sharesKey(with other: Properties, keyMask: UInt64) -> Bool {
        entries.contains { keyMask & 1 << UInt64($0.fingerprint & 63) != 0 && other.index(forKey: $0.key, fingerprint: $0.fingerprint) != nil }
    }

    /// The value for `key`; assigning `nil` removes the key.
    public subscript(key: String) -> PropertyValue? {
        get { index(forKey: key).map { entries[$0].value } }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Sets the value for `key` and returns the value it replaced, if any. A new key is
    /// appended; an existing key keeps its position.
    @discardableResult
    public mutating func updateValue(_ value: PropertyValue, forKey key: String) -> PropertyValue? {
        updateValue(value, forKey: key, fingerprint: Self.fingerprint(key))
    }

    @discardableResult
    private mutating func updateValue(_ value: PropertyValue, forKey key: String, fingerprint: UInt32) -> PropertyValue? {
        if let position = index(forKey: key, fingerprint: fingerprint) {
            let old = entries[position].value
            entries[position].value = value
            return old
        }
        entries.append(Entry(key: key, value: value, fingerprint: fingerprint))
        if positions != nil {
            positions![key] = entries.count - 1
        } else if entries.count > Properties.indexThreshold {
            rebuildIndex()
        }
        return nil
    }

    /// Removes `key` and returns its value, if it was present. Later keys move up.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> PropertyValue? {
        guard let position = index(forKey: key) else { return nil }
        let old = entries.remove(at: position).value
        if entries.count > Properties.indexThreshold {
            rebuildIndex()
        } else {
            positions = nil
        }
        return old
    }

    /// Removes every property.
    public mutating func removeAll() {
        entries.removeAll()
        positions = nil
    }

    /// Inserts or replaces every property of `other`: values from `other` win, keys
    /// already present keep their position, new keys are appended in `other`'s order.
    public mutating func merge(_ other: Properties) {
        // Nothing to add leaves the storage as it is (reserving room in a shared
        // buffer would copy it).
        guard !other.isEmpty else { return }
        if isEmpty {
            self = other
            return
        }
        entries.reserveCapacity(entries.count + other.entries.count)
        for entry in other.entries {
            updateValue(entry.value, forKey: entry.key, fingerprint: entry.fingerprint)
        }
    }

    /// A copy with every property of `other` merged in; see ``merge(_:)``.
    public func merging(_ other: Properties) -> Properties {
        var copy = self
        copy.merge(other)
        return copy
    }

    private mutating func rebuildIndex() {
        var index = [String: Int](minimumCapacity: entries.count)
        for (position, entry) in entries.enumerated() { index[entry.key] = position }
        positions = index
    }
}

extension Properties: Sequence {
    /// Iterates the properties in insertion order.
    public struct Iterator: IteratorProtocol {
        private let properties: Properties
        private var position = 0

        fileprivate init(_ properties: Properties) { self.properties = properties }

        /// The next key-value pair, or `nil` after the last.
        public mutating func next() -> Element? {
            guard position < properties.entries.count else { return nil }
            defer { position += 1 }
            let entry = properties.entries[position]
            return (entry.key, entry.value)
        }
    }

    /// An iterator over the properties in insertion order.
    public func makeIterator() -> Iterator { Iterator(self) }

    /// The number of properties (exact).
    public var underestimatedCount: Int { entries.count }
}

extension Properties: Hashable {
    /// Two collections are equal when they hold the same keys in the same order with
    /// equal values.
    public static func == (lhs: Properties, rhs: Properties) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// Hashes keys and values in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for entry in entries {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }
}

extension Properties: ExpressibleByDictionaryLiteral {
    /// Creates a collection from a literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, PropertyValue)...) {
        self.init(elements)
    }
}

extension Properties: CustomStringConvertible {
    /// A one-line rendering for logs: `[key: value, …]` in order.
    public var description: String {
        if isEmpty { return "[:]" }
        return "[" + map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
