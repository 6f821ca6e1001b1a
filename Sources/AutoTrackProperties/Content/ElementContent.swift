/// The text an element shows, as `$element_content` (the Sensors tutorial's rule):
///
/// - a hidden element, or one with alpha 0, has no content;
/// - a label's or button's own text is its content (an empty title counts as set), and
///   a segmented control's selected title;
/// - a switch's content is `checked` or `unchecked`;
/// - a slider's or stepper's content is its value (at most three decimals, integers
///   without any);
/// - text fields, secure fields, search fields and text views have none, and their
///   children are not read either — typed text is never captured;
/// - anything else joins its children's non-empty content with `-`, recursively.
///
/// Bounded: at most ``maximumDepth`` levels below the element are read and the result
/// is cut to ``maximumLength`` characters, so a huge or cyclic host tree cannot make it
/// hang or overflow the stack.
public struct ElementContentExtractor: Sendable {
    /// Levels below the element that are read; 32 by default.
    public var maximumDepth: Int
    /// Characters kept; 1 024 by default (the event rules cut further if needed).
    public var maximumLength: Int

    /// Creates an extractor.
    public init(maximumDepth: Int = 32, maximumLength: Int = 1024) {
        self.maximumDepth = max(0, maximumDepth)
        self.maximumLength = max(1, maximumLength)
    }

    /// The content of `element`, or `nil` when it shows none.
    public func content(of element: any ElementNode) -> String? {
        // A control or label answers by itself: no set of visited elements is made
        // (and allocated) for the usual click.
        let text: String?
        switch ownContent(of: element) {
        case .decided(let own): text = own
        case .fromChildren:
            var visited: Set<ObjectIdentifier> = [ObjectIdentifier(element)]
            text = childrenContent(of: element, depth: 0, visited: &visited)
        }
        guard let text, !text.isEmpty else { return nil }
        return text.count > maximumLength ? String(text.prefix(maximumLength)) : text
    }

    /// What an element's own state says about its content.
    private enum OwnContent {
        /// The element's content (`nil`: none), whatever its children show.
        case decided(String?)
        /// The element's content is its children's.
        case fromChildren
    }

    private func ownContent(of element: any ElementNode) -> OwnContent {
        if element.isHidden || element.alpha == 0 { return .decided(nil) }
        if element.role.isTextEntry { return .decided(nil) }
        switch element.role {
        case .toggle:
            if let isOn = element.isOn { return .decided(isOn ? "checked" : "unchecked") }
        case .slider, .stepper:
            if let value = element.controlValue { return .decided(ControlAttributes.number(value)) }
        case .label, .button, .segmentedControl, .tabBarItem:
            if let text = element.ownText { return .decided(text) }
        default:
            break
        }
        return .fromChildren
    }

    private func content(of element: any ElementNode, depth: Int, visited: inout Set<ObjectIdentifier>) -> String? {
        guard visited.insert(ObjectIdentifier(element)).inserted else { return nil }
        switch ownContent(of: element) {
        case .decided(let own): return own
        case .fromChildren: return childrenContent(of: element, depth: depth, visited: &visited)
        }
    }

    private func childrenContent(of element: any ElementNode, depth: Int, visited: inout Set<ObjectIdentifier>) -> String? {
        guard depth < maximumDepth else { return nil }
        var parts: [String] = []
        var length = 0
        for child in element.childElements {
            if let part = content(of: child, depth: depth + 1, visited: &visited), !part.isEmpty {
                parts.append(part)
                length += part.count + 1
                if length > maximumLength { break }
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "-")
    }
}
