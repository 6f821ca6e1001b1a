import AutoTrackEvents
import AutoTrackProperties
import AutoTrackSerialization

/// Reads the members of a host tree document, node by node.
struct HostTreeReader {
    var tagged: [String: Element] = [:]
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
        let element = Element(
            type, role: role, frame: try Self.frame(value["frame"], "\(path).frame"), text: try Self.string(value, "text", path),
            isHidden: try Self.bool(value, "hidden", path) ?? false,
            accessibilityIdentifier: try Self.string(value, "accessibility_id", path),
            listPosition: try Self.listPosition(value["list_position"], "\(path).list_position"))
        element.customElementID = try Self.string(value, "custom_id", path)
        element.masksText = try Self.bool(value, "masks_text", path) ?? false
        if let properties = value["properties"] { element.customProperties = try Self.properties(properties, "\(path).properties") }
        switch value["ignored"] {
        case nil, .bool(false)?: break
        case .bool(true)?: element.isIgnoredByAutoTrack = true
        case .string("descendants")?: element.ignoresDescendants = true
        case let other?: throw .invalid(path: "\(path).ignored", reason: "expected true, false or \"descendants\", found \(other.typeName)")
        }
        if let tag = value["tag"] {
            let name: String
            switch tag {
            case .string(let text): name = text
            case .integer(let number): name = String(number)
            default: throw .wrongType(path: "\(path).tag", expected: "a string or an integer", found: tag.typeName)
            }
            guard tagged.updateValue(element, forKey: name) == nil else { throw .duplicateTag(name) }
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
