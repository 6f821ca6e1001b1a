/// AutoTrackEvents: `Properties` appears in this file's public API.
public import AutoTrackEvents

/// How `$element_type` names an element.
public enum ElementTypeConvention: String, Hashable, Sendable, CaseIterable {
    /// Sensors Analytics' conventions: the list class (`UITableView`,
    /// `UICollectionView`) for a cell selection, `UIAlertController` for an alert action,
    /// `UIBarButtonItem` for a control in a navigation bar; the element's own class
    /// otherwise. The element's own class is kept in `$element_class_name` when it
    /// differs.
    case sensors
    /// The element's own class, always (the form the tutorials print).
    case className = "class-name"
}

/// `$element_type`, `$element_content`, `$element_position`, `$element_path` and
/// `$element_id` of an element.
public struct ElementProperties: Sendable {
    /// The path style for `$element_path` and the id.
    public var pathStyle: ViewPathStyle
    /// Bounds on path walks.
    public var pathLimits: PathLimits
    /// How content is read.
    public var contentExtractor: ElementContentExtractor
    /// How `$element_type` names elements.
    public var typeConvention: ElementTypeConvention

    /// Creates a collector.
    public init(
        pathStyle: ViewPathStyle = .slash, pathLimits: PathLimits = .standard,
        contentExtractor: ElementContentExtractor = ElementContentExtractor(), typeConvention: ElementTypeConvention = .sensors
    ) {
        self.pathStyle = pathStyle
        self.pathLimits = pathLimits
        self.contentExtractor = contentExtractor
        self.typeConvention = typeConvention
    }

    /// `$element_type` of `element` under ``typeConvention``.
    public func elementType(of element: any ElementNode) -> String {
        guard typeConvention == .sensors else { return element.typeName }
        switch element.role {
        case .tableCell, .collectionCell:
            return ElementPlacement.of(element, for: .list).listTypeName ?? (element.role == .tableCell ? "UITableView" : "UICollectionView")
        case .alertAction:
            return element.alertContext?.controllerType ?? "UIAlertController"
        case .tabBarItem:
            return "UITabBarItem"
        default:
            if element.role.isControl, ElementPlacement.of(element, for: .navigationBar).isOnNavigationBar { return "UIBarButtonItem" }
            return element.typeName
        }
    }

    /// The element properties, in this order: `$element_type`, `$element_class_name`
    /// (when the type is not the element's own class), `$element_content` (omitted
    /// when none), `$element_position` (cells: `section:row`; tabs: the index), `$element_path`,
    /// `$element_id`.
    public func collect(for element: any ElementNode) -> Properties {
        collect(for: element, screen: nil)
    }

    /// The element properties, for an element whose owning screen the caller knows.
    public func collect(for element: any ElementNode, screen: (any ScreenNode)??) -> Properties {
        var properties = Properties()
        properties.reserveCapacity(8)
        collect(for: element, screen: screen, into: &properties)
        return properties
    }

    /// Sets the element properties in `properties` (replacing values of the same keys).
    public func collect(for element: any ElementNode, screen: (any ScreenNode)??, into properties: inout Properties) {
        let type = elementType(of: element)
        properties["$element_type"] = .string(type)
        if type != element.typeName { properties["$element_class_name"] = .string(element.typeName) }
        if let content = contentExtractor.content(of: element) { properties["$element_content"] = .string(content) }
        if let position = element.listPosition {
            // A tab is placed by its index alone; a cell by `section:row`.
            properties["$element_position"] = .string(element.role == .tabBarItem ? String(position.index) : position.description)
        }
        let identity = ElementIdentity.cachedPathAndID(of: element, style: pathStyle, limits: pathLimits, screen: screen)
        properties["$element_path"] = .string(identity.path)
        properties["$element_id"] = .string(element.customElementID ?? identity.id)
        let custom = element.customProperties
        if !custom.isEmpty {
            // The app's properties add to the click; `$` names are the SDK's — screen,
            // element, control and library properties — and keep the collected value.
            for (key, value) in custom where !key.hasPrefix("$") { properties[key] = value }
        }
    }
}

/// Control attributes and alert details (ARCHITECTURE.md, “Control attributes”).
public enum ControlAttributes {
    /// The action a search field sends when editing ends; search text is captured then
    /// and only then.
    public static let searchEndEditingAction = "_searchFieldEndEditing"

    /// Attributes of a control, by role:
    /// - button: `$element_title`, `$element_title_color` (`rgba(r, g, b, a)`, 0–255
    ///   and alpha), `$element_image_name`, `$element_frame` (`rect(x, y, w, h)`);
    /// - switch: `$element_switch_state` (`true` when on);
    /// - search field: `$search_text`, only when `action` is the end-editing action;
    /// - text and secure fields: nothing, ever;
    /// - alert action: `$alert_title`, `$alert_message`, `$alert_action_title`,
    ///   `$alert_action_style`.
    public static func collect(for element: any ElementNode, action: String? = nil, searchText: String? = nil) -> Properties {
        var properties = Properties()
        collect(for: element, action: action, searchText: searchText, into: &properties)
        return properties
    }

    /// Sets the attributes in `properties` (replacing values of the same keys).
    public static func collect(for element: any ElementNode, action: String?, searchText: String?, into properties: inout Properties) {
        switch element.role {
        case .button:
            if let title = element.ownText { properties["$element_title"] = .string(title) }
            if let color = element.titleColor { properties["$element_title_color"] = .string(rgba(color)) }
            if let image = element.imageName { properties["$element_image_name"] = .string(image) }
            properties["$element_frame"] = .string(rect(element.frame))
        case .toggle:
            if let isOn = element.isOn { properties["$element_switch_state"] = .bool(isOn) }
        case .searchField:
            if action == searchEndEditingAction, let searchText, !searchText.isEmpty {
                properties["$search_text"] = .string(searchText)
            }
        default:
            break
        }
        if let alert = element.alertContext {
            if let title = alert.title { properties["$alert_title"] = .string(title) }
            if let message = alert.message { properties["$alert_message"] = .string(message) }
            if let actionTitle = alert.actionTitle { properties["$alert_action_title"] = .string(actionTitle) }
            properties["$alert_action_style"] = .string(alert.actionStyle)
        }
    }

    /// `rgba(r, g, b, a)`: channels 0–255 rounded, alpha in 0…1 with at most three
    /// decimals.
    public static func rgba(_ color: Color) -> String {
        func channel(_ value: Double) -> Int { Int((min(max(value, 0), 1) * 255).rounded()) }
        return "rgba(\(channel(color.red)), \(channel(color.green)), \(channel(color.blue)), \(number(min(max(color.alpha, 0), 1))))"
    }

    /// `rect(x, y, w, h)` with at most three decimals per number.
    public static func rect(_ frame: Rect) -> String {
        // Four numbers, three separators and "rect()".
        DigitWriter.text(capacity: 4 * DigitWriter.maximumNumberLength + 12) { writer in
            writer.append("rect(")
            writer.appendNumber(frame.origin.x)
            writer.append(", ")
            writer.appendNumber(frame.origin.y)
            writer.append(", ")
            writer.appendNumber(frame.width)
            writer.append(", ")
            writer.appendNumber(frame.height)
            writer.append(")")
        }
    }

    /// A number with at most three decimals and no trailing zeros: `16`, `0.5`,
    /// `33.333`.
    static func number(_ value: Double) -> String {
        DigitWriter.text(capacity: DigitWriter.maximumNumberLength) { $0.appendNumber(value) }
    }
}

/// Writes ASCII into a buffer on the stack: the frame and number texts of
/// ``ControlAttributes`` are made without intermediate arrays, and a text of up to
/// 15 bytes allocates nothing at all.
private struct DigitWriter {
    /// The longest text ``appendNumber(_:)`` writes: a sign, 16 integer digits, a point
    /// and 3 decimals.
    static let maximumNumberLength = 22

    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// The bytes written so far.
    private(set) var count = 0

    private init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// The text `write` makes, which must fit in `capacity` bytes.
    static func text(capacity: Int, _ write: (inout DigitWriter) -> Void) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var writer = DigitWriter(buffer)
            write(&writer)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<writer.count]), as: UTF8.self)
        }
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { for byte in $0 { append(byte) } }
    }

    mutating func append(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    /// Appends ``ControlAttributes/number(_:)``'s text.
    mutating func appendNumber(_ value: Double) {
        guard value.isFinite else {
            append(0x30)
            return
        }
        let scaled = (value * 1000).rounded()
        let magnitude = UInt64(Swift.min(abs(scaled), 9.0e15))
        if scaled < 0 && magnitude != 0 { append(0x2D) } // -
        appendDigits(magnitude / 1000)
        var fraction = magnitude % 1000
        guard fraction != 0 else { return }
        append(0x2E) // .
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        // Leading zeros of the fraction, then its digits: 0.05 → "05".
        var divisor: UInt64 = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            append(0x30 + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    /// Appends the decimal digits of `value`.
    private mutating func appendDigits(_ value: UInt64) {
        var divisor: UInt64 = 1
        while divisor <= value / 10 { divisor *= 10 }
        while divisor > 0 {
            append(0x30 + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}

/// Everything an `$AppClick` carries about where it happened: preset, screen, element
/// and control attributes, merged in that order.
public struct ClickProperties: Sendable {
    /// The device.
    public let device: DeviceInfo
    /// The element collector.
    public var elements: ElementProperties
    private let presets: Properties

    /// Creates a collector; the device's preset properties are built once.
    public init(device: DeviceInfo, elements: ElementProperties = ElementProperties()) {
        self.device = device
        self.elements = elements
        presets = device.presetProperties
    }

    /// The click's properties.
    public func collect(for element: any ElementNode, action: String? = nil) -> Properties {
        var properties = presets
        properties.reserveCapacity(presets.count + 16)
        let screen = element.owningScreen
        if let screen { ScreenProperties.collect(for: screen, referrer: nil, into: &properties) }
        elements.collect(for: element, screen: .some(screen), into: &properties)
        ControlAttributes.collect(for: element, action: action, searchText: nil, into: &properties)
        return properties
    }
}
