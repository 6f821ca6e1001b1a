/// AutoTrackRuntime: `RuntimeStructValue` appears in this file's public API.
public import AutoTrackRuntime

/// A row (tables) or item (collections) in a section (`NSIndexPath`), passed to delegate
/// methods as a message argument.
public struct IndexPath: RuntimeStructValue, Hashable, Comparable, CustomStringConvertible {
    /// The section.
    public var section: Int
    /// The row or item.
    public var item: Int

    /// Creates an index path.
    public init(item: Int, section: Int) {
        self.section = section
        self.item = item
    }

    /// Creates a table index path.
    public init(row: Int, section: Int) {
        self.init(item: row, section: section)
    }

    /// The row, for tables.
    public var row: Int { item }

    /// Orders by section, then row or item.
    public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// `[section, item]`.
    public var description: String { "[\(section), \(item)]" }
}

/// A set of control events (`UIControlEvents`), passed as an `NSUInteger` bit mask.
public struct ControlEvents: OptionSet, Hashable, Sendable {
    /// The mask.
    public let rawValue: Int

    /// Wraps a mask.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A finger touched the control.
    public static let touchDown = ControlEvents(rawValue: 1 << 0)
    /// A finger lifted inside the control: a tap.
    public static let touchUpInside = ControlEvents(rawValue: 1 << 6)
    /// The control's value changed (switches, segmented controls, sliders).
    public static let valueChanged = ControlEvents(rawValue: 1 << 12)
    /// The control's primary action (iOS 9+).
    public static let primaryActionTriggered = ControlEvents(rawValue: 1 << 13)
    /// Editing began in a text field.
    public static let editingDidBegin = ControlEvents(rawValue: 1 << 16)
    /// The text changed.
    public static let editingChanged = ControlEvents(rawValue: 1 << 17)
    /// Editing ended.
    public static let editingDidEnd = ControlEvents(rawValue: 1 << 18)
    /// All touch events.
    public static let allTouchEvents = ControlEvents(rawValue: 0x0000_0FFF)
}

/// A gesture recognizer's state (`UIGestureRecognizerState`).
public enum GestureState: Int, Sendable, RuntimeStructValue {
    /// Not recognised yet.
    case possible = 0
    /// A continuous gesture began.
    case began = 1
    /// A continuous gesture changed.
    case changed = 2
    /// A continuous gesture ended; a discrete gesture was recognised (`recognized`).
    case ended = 3
    /// Cancelled.
    case cancelled = 4
    /// Failed.
    case failed = 5
}
