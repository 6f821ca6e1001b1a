/// AutoTrackEvents: `Properties` appears in this file's public API.
public import AutoTrackEvents

/// How much of an element's text automatic events carry.
public enum ElementTextCapture: String, Hashable, Sendable, CaseIterable {
    /// The text as shown.
    case full
    /// Every character but spaces replaced by `*`: the shape stays, the words do not.
    case masked
    /// No text at all: the text properties are left out.
    case none
}

/// What text an automatic event may carry about the element it is about: the capture
/// level, and an optional mask for runs of digits (card, phone and account numbers)
/// when text is otherwise captured in full.
///
/// It covers every property that holds text the element shows or was given —
/// ``textProperties`` — and nothing that identifies it: `$element_path` and
/// `$element_id` are built from the element's place, never from its text, so masking
/// never changes them.
///
/// ```swift
/// var properties: Properties = ["$element_content": "Card 4111 1111 1111 1111", "$element_type": "UILabel"]
/// ElementTextPolicy(capture: .full, digitRunMask: 4).apply(to: &properties, elementMasked: false)
/// // $element_content: "Card **** **** **** ****"
/// ElementTextPolicy(capture: .masked).apply(to: &properties, elementMasked: false)
/// // $element_content: "**** **** **** **** ****"
/// ```
public struct ElementTextPolicy: Hashable, Sendable {
    /// The capture level for every element.
    public var capture: ElementTextCapture
    /// Runs of at least this many ASCII digits are masked even in full capture; `nil`
    /// leaves digits alone.
    public var digitRunMask: Int?

    /// The element properties that carry text.
    public static let textProperties = [
        "$element_content", "$element_title", "$alert_title", "$alert_message", "$alert_action_title", "$search_text",
    ]

    /// Creates a policy; full text, digits untouched, by default.
    public init(capture: ElementTextCapture = .full, digitRunMask: Int? = nil) {
        self.capture = capture
        self.digitRunMask = digitRunMask.map { max(1, $0) }
    }

    /// Full text, digits untouched.
    public static let full = ElementTextPolicy()

    /// Whether applying the policy can change anything for an element that is not
    /// masked by its view.
    public var changesText: Bool { capture != .full || digitRunMask != nil }

    /// Applies the policy to an element's `properties`; `elementMasked` — the element or
    /// a view above it asks for its text to be masked — masks whatever the level.
    public func apply(to properties: inout Properties, elementMasked: Bool) {
        let level: ElementTextCapture = elementMasked && capture == .full ? .masked : capture
        guard level != .full || digitRunMask != nil else { return }
        for key in Self.textProperties {
            guard case .string(let text)? = properties[key] else { continue }
            switch level {
            case .none: properties.removeValue(forKey: key)
            case .masked: properties[key] = .string(Self.masked(text))
            case .full: properties[key] = .string(Self.maskingDigitRuns(text, from: digitRunMask ?? .max))
            }
        }
    }

    /// `text` with every character but whitespace replaced by `*`.
    public static func masked(_ text: String) -> String {
        String(text.map { $0.isWhitespace ? $0 : "*" })
    }

    /// `text` with each run of at least `length` ASCII digits replaced by `*`s.
    public static func maskingDigitRuns(_ text: String, from length: Int) -> String {
        var result = ""
        var run = ""
        func flush() {
            result += run.count >= length ? String(repeating: "*", count: run.count) : run
            run = ""
        }
        for character in text {
            if character.isASCII, character.isNumber { run.append(character) } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }
}

/// The privacy marks on an element and the views above it.
public enum ElementPrivacy {
    /// Whether automatic capture leaves `element` alone — it is ignored itself, or a
    /// view above it ignores its descendants — and whether its text is masked (by it
    /// or a view above it). Walks at most 256 ancestors.
    /// Hosts with an ``ElementIdentityCache`` have them worked out once per version of
    /// the hierarchy.
    public static func marks(of element: any ElementNode) -> (ignored: Bool, textMasked: Bool) {
        guard let cache = element.identityCache else { return walk(from: element) }
        return cache.privacyMarks { walk(from: element) }
    }

    /// The marks, walking up from `element`.
    private static func walk(from element: any ElementNode) -> (ignored: Bool, textMasked: Bool) {
        var ignored = element.isIgnoredByAutoTrack
        var masked = element.masksText
        var current = element.parentElement
        var steps = 0
        while let ancestor = current, steps < 256, !(ignored && masked) {
            if ancestor.ignoresDescendants { ignored = true }
            if ancestor.masksText { masked = true }
            current = ancestor.parentElement
            steps += 1
        }
        return (ignored, masked)
    }
}
