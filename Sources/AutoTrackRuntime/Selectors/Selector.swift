import AutoTrackLocking

/// A method name, interned: two selectors with the same name are the same value.
///
/// Mirrors `SEL` and `sel_registerName`: the selector table is process-wide, as in
/// objc4, so a selector can be created anywhere and compared in constant time. A
/// selector is one machine word, which keeps it off the reference-counting path of
/// message dispatch. Creating a selector from a name takes a lock; sending does not.
public struct Selector: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The interned identifier, stable for the life of the process.
    public let id: Int

    /// Interns `name` and returns its selector.
    public init(_ name: String) {
        id = SelectorTable.shared.intern(name)
    }

    init(id: Int) { self.id = id }

    /// Interns a literal name, e.g. `"tableView:didSelectRowAtIndexPath:"`.
    public init(stringLiteral name: String) {
        self.init(name)
    }

    /// The method name, e.g. `sendAction:to:forEvent:`.
    public var name: String { SelectorTable.shared.name(of: id) }

    /// The number of arguments the name declares: one per colon.
    public var argumentCount: Int { name.utf8.reduce(0) { $1 == 0x3A ? $0 + 1 : $0 } }

    /// The method name.
    public var description: String { name }

    /// Orders selectors by name, for stable listings.
    public static func < (lhs: Selector, rhs: Selector) -> Bool { lhs.name < rhs.name }
}

/// The process-wide selector table.
final class SelectorTable: Sendable {
    static let shared = SelectorTable()

    private struct Table {
        var ids: [String: Int] = [:]
        var names: [String] = []
    }

    private let table = Locked(Table())

    func intern(_ name: String) -> Int {
        table.withLock { table in
            if let id = table.ids[name] { return id }
            let id = table.names.count
            table.names.append(name)
            table.ids[name] = id
            return id
        }
    }

    func name(of id: Int) -> String {
        table.withLock { $0.names[id] }
    }
}
