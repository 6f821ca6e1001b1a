import AutoTrackEvents
import AutoTrackProperties
import AutoTrackSerialization

/// Reads the members of a host tree document, node by node.
struct HostTreeReader {
    var tagged: [String: Element] = [:]
    /// The watched nodes of the previous document, by tag: a node sent again with the
    /// same type and role is the same element.
    var reusable: [String: Element] = [:]
    /// What each watched node asks for, by tag.
    var exposures: [String: HostExposureRequest] = [:]
    var count = 0

    static func checkKeys(of object: JSONValue, allowed: Set<String>, at path: String) throws(HostTreeError) {
        guard case .object(let members) = object else { return }
        for member in members where !allowed.contains(member.key) {
            throw .unknownKey(path: path.isEmpty ? member.key : "\(path).\(member.key)")
        }
    }

    mutating func element(_ value: JSONValue, path: String, depth: Int) throws(HostTreeError) -> Element {
        guard case .object = value else { throw .wrongType(path: path, expected: "an object", found: value.typeName) }
        guard depth < HostTree.maximumDepth else { throw .tooLarge("the tree nests deeper than \(HostTree.maximumDepth) at '\(path)'") }
        count += 1
        guard count <= HostTree.maximumNodes else { throw .tooLarge("the tree has more than \(HostTree.maximumNodes) nodes") }
        try Self.checkKeys(of: value, allowed: HostTree.nodeKeys, at: path)
        guard let type = try Self.string(value, "type", path), !type.isEmpty else { throw .missing(path: "\(path).type") }
        var role = ElementRole.view
        if let name = try Self.string(value, "role", path) {
            guard let known = HostTree.roles[name] else {
                throw .invalid(path: "\(path).role", reason: "'\(name)' is not a role (known: \(HostTree.roles.keys.sorted().joined(separator: ", ")))")
            }
            role = known
        }
        let tag = try Self.tag(value["tag"], "\(path).tag")
        let element: Element
        if let tag, let previous = reusable[tag], previous.typeName == type, previous.role == role {
            // A watched node sent again: the same object, so its appearance goes on.
            for child in previous.children { child.removeFromParent() }
            element = previous
        } else {
            element = Element(type, role: role)
        }
        try Self.apply(value, to: element, path: path)
        if let tag {
            guard tagged.updateValue(element, forKey: tag) == nil else { throw .duplicateTag(tag) }
        }
        if let request = try HostExposureRequest(value["exposure"], path: "\(path).exposure") {
            guard let tag else { throw .invalid(path: "\(path).exposure", reason: "a watched node needs a 'tag', which names it from one tree to the next") }
            exposures[tag] = request
        }
        switch value["children"] {
        case nil: break
        case .array(let children)?:
            for (index, child) in children.enumerated() {
                element.addChild(try self.element(child, path: "\(path).children[\(index)]", depth: depth + 1))
            }
        case let other?: throw .wrongType(path: "\(path).children", expected: "an array", found: other.typeName)
        }
        return element
    }

    /// Sets every member a node may carry on `element` — a new one, or a watched one
    /// sent again, whose members all take the new document's values.
    static func apply(_ value: JSONValue, to element: Element, path: String) throws(HostTreeError) {
        let frame = try frame(value["frame"], "\(path).frame")
        if element.frame != frame { element.frame = frame }
        element.ownText = try string(value, "text", path)
        element.isHidden = try bool(value, "hidden", path) ?? false
        element.alpha = try value["alpha"].map { (alpha) throws(HostTreeError) in try opacity(alpha, "\(path).alpha") } ?? 1
        element.clipsToBounds = try bool(value, "clips_to_bounds", path) ?? element.role.clipsToBoundsByDefault
        element.boundsOrigin = try value["content_offset"].map { (offset) throws(HostTreeError) in try point(offset, "\(path).content_offset") }
            ?? Point(x: 0, y: 0)
        let accessibilityIdentifier = try string(value, "accessibility_id", path)
        if element.accessibilityIdentifier != accessibilityIdentifier { element.accessibilityIdentifier = accessibilityIdentifier }
        let listPosition = try listPosition(value["list_position"], "\(path).list_position")
        if element.listPosition != listPosition { element.listPosition = listPosition }
        element.customElementID = try string(value, "custom_id", path)
        let masksText = try bool(value, "masks_text", path) ?? false
        if element.masksText != masksText { element.masksText = masksText }
        element.customProperties = try value["properties"].map { (properties) throws(HostTreeError) in try Self.properties(properties, "\(path).properties") } ?? [:]
        var ignored = false
        var ignoresDescendants = false
        switch value["ignored"] {
        case nil, .bool(false)?: break
        case .bool(true)?: ignored = true
        case .string("descendants")?: ignoresDescendants = true
        case let other?: throw .invalid(path: "\(path).ignored", reason: "expected true, false or \"descendants\", found \(other.typeName)")
        }
        if element.isIgnoredByAutoTrack != ignored { element.isIgnoredByAutoTrack = ignored }
        if element.ignoresDescendants != ignoresDescendants { element.ignoresDescendants = ignoresDescendants }
    }

    static func tag(_ value: JSONValue?, _ path: String) throws(HostTreeError) -> String? {
        switch value {
        case nil, .null?: nil
        case .string(let text)?: text
        case .integer(let number)?: String(number)
        case let other?: throw .wrongType(path: path, expected: "a string or an integer", found: other.typeName)
        }
    }

    /// The document's `window`: the element the root is laid out in, which exposure
    /// measures visibility against.
    static func window(_ value: JSONValue, holding root: Element) throws(HostTreeError) -> Element {
        guard case .object = value else { throw .wrongType(path: "window", expected: "an object", found: value.typeName) }
        try checkKeys(of: value, allowed: ["type", "frame"], at: "window")
        guard let type = try string(value, "type", "window"), !type.isEmpty else { throw .missing(path: "window.type") }
        guard value["frame"] != nil else { throw .missing(path: "window.frame") }
        let window = Element(type, role: .window, frame: try frame(value["frame"], "window.frame"))
        window.addChild(root)
        return window
    }

    static func screen(_ value: JSONValue, rootView: Element) throws(HostTreeError) -> Screen {
        guard case .object = value else { throw .wrongType(path: "screen", expected: "an object", found: value.typeName) }
        try checkKeys(of: value, allowed: HostTree.screenKeys, at: "screen")
        guard let type = try string(value, "type", "screen"), !type.isEmpty else { throw .missing(path: "screen.type") }
        let screenName = try string(value, "screen_name", "screen")
        let url = try string(value, "url", "screen")
        let properties = try value["properties"].map { (properties) throws(HostTreeError) in try Self.properties(properties, "screen.properties") } ?? [:]
        let tracking = screenName != nil || url != nil || !properties.isEmpty
            ? ScreenTracking(screenName: screenName, extraProperties: properties, url: url) : nil
        return Screen(type, title: try string(value, "title", "screen"), screenTracking: tracking, rootView: rootView)
    }

    static func string(_ object: JSONValue, _ key: String, _ path: String) throws(HostTreeError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw .wrongType(path: "\(path).\(key)", expected: "a string", found: other.typeName)
        }
    }

    static func bool(_ object: JSONValue, _ key: String, _ path: String) throws(HostTreeError) -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        case let other?: throw .wrongType(path: "\(path).\(key)", expected: "a boolean", found: other.typeName)
        }
    }

    static func number(_ value: JSONValue, _ path: String) throws(HostTreeError) -> Double {
        switch value {
        case .integer(let number): return Double(number)
        case .number(let number): return number
        default: throw .wrongType(path: path, expected: "a number", found: value.typeName)
        }
    }

    static func frame(_ value: JSONValue?, _ path: String) throws(HostTreeError) -> Rect {
        guard let value else { return .zero }
        guard case .array(let parts) = value, parts.count == 4 else {
            throw .wrongType(path: path, expected: "[x, y, width, height]", found: value.typeName)
        }
        let numbers = [try number(parts[0], path), try number(parts[1], path), try number(parts[2], path), try number(parts[3], path)]
        guard numbers[2] >= 0, numbers[3] >= 0 else { throw .invalid(path: path, reason: "a width and height of 0 or more") }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    static func opacity(_ value: JSONValue, _ path: String) throws(HostTreeError) -> Double {
        let alpha = try number(value, path)
        guard alpha >= 0, alpha <= 1 else { throw .invalid(path: path, reason: "an opacity from 0 to 1") }
        return alpha
    }

    static func point(_ value: JSONValue, _ path: String) throws(HostTreeError) -> Point {
        guard case .array(let parts) = value, parts.count == 2 else { throw .wrongType(path: path, expected: "[x, y]", found: value.typeName) }
        let x = try number(parts[0], path), y = try number(parts[1], path)
        guard x.isFinite, y.isFinite else { throw .invalid(path: path, reason: "finite numbers") }
        return Point(x: x, y: y)
    }

    static func listPosition(_ value: JSONValue?, _ path: String) throws(HostTreeError) -> ListPosition? {
        guard let value else { return nil }
        guard case .object = value else { throw .wrongType(path: path, expected: "an object", found: value.typeName) }
        try checkKeys(of: value, allowed: ["section", "index"], at: path)
        guard case .integer(let section)? = value["section"] ?? .integer(0), case .integer(let index)? = value["index"],
              section >= 0, index >= 0, section <= Int64(Int32.max), index <= Int64(Int32.max) else {
            throw .invalid(path: path, reason: "needs 'index' (and optionally 'section'), integers of 0 or more")
        }
        return ListPosition(section: Int(section), index: Int(index))
    }

    static func properties(_ value: JSONValue, _ path: String) throws(HostTreeError) -> Properties {
        do {
            return try EventJSONDecoder().decodeProperties(from: value)
        } catch {
            throw .invalid(path: path, reason: String(describing: error))
        }
    }
}
