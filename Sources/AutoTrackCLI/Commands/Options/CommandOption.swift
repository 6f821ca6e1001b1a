import Foundation

/// What an option's value is and how to read it: the placeholder help shows, what a
/// usage error says of a value it refuses, and the parse (`nil`: not accepted).
struct OptionKind<Value: Sendable>: Sendable {
    /// `DIR`, `N`, `model|objc|all`; `nil` for a flag, which takes no value.
    let placeholder: String?
    /// What a usage error says of a refused value: `needs a port number (1-65535)`.
    let refusal: @Sendable (String) -> String
    /// The value of `text`, or `nil` when it is not accepted.
    let parse: @Sendable (String) -> Value?

    /// A kind whose refused values get `needs <expectation>`.
    init(placeholder: String?, expectation: String, parse: @escaping @Sendable (String) -> Value?) {
        self.placeholder = placeholder
        refusal = { _ in "needs \(expectation)" }
        self.parse = parse
    }

    /// One of `names` (what a value is, `what`, in a refusal:
    /// `unknown format 'xml' (known: sensors-form, json)`).
    init(choosing what: String, among names: [String], placeholder: String? = nil, parse: @escaping @Sendable (String) -> Value?) {
        self.placeholder = placeholder ?? names.joined(separator: "|")
        refusal = { "unknown \(what) '\($0)' (known: \(names.joined(separator: ", ")))" }
        self.parse = parse
    }
}

extension OptionKind where Value == String {
    /// Any text, e.g. a path.
    static func text(_ placeholder: String) -> OptionKind { OptionKind(placeholder: placeholder, expectation: placeholder) { $0 } }

    /// A URL with a scheme.
    static let url = OptionKind(placeholder: "URL", expectation: "a URL") { URL(string: $0)?.scheme == nil ? nil : $0 }
}

extension OptionKind where Value == Bool {
    /// A flag: present or not.
    static let flag = OptionKind(placeholder: nil, expectation: "no value") { _ in true }
}

extension OptionKind where Value == Int {
    /// A whole number in `range`.
    static func number(_ placeholder: String, in range: ClosedRange<Int>, _ expectation: String) -> OptionKind {
        OptionKind(placeholder: placeholder, expectation: expectation) { Int($0).flatMap { range.contains($0) ? $0 : nil } }
    }
}

extension OptionKind where Value == UInt64 {
    /// A seed: a non-negative integer.
    static let seed = OptionKind(placeholder: "S", expectation: "a non-negative integer") { UInt64($0) }
}

extension OptionKind where Value == UInt16 {
    /// A TCP port.
    static let port = OptionKind(placeholder: "N", expectation: "a port number (1-65535)") { UInt16($0).flatMap { $0 > 0 ? $0 : nil } }
}

extension OptionKind where Value == Double {
    /// A number of seconds, zero or more.
    static let seconds = OptionKind(placeholder: "S", expectation: "a number of seconds") { Double($0).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil } }
}

extension OptionKind {
    /// One of `Value`'s cases, by its raw name; `what` names the kind of value in a
    /// usage error (`unknown format 'xml' (known: sensors-form, json)`).
    static func choice(_ what: String, placeholder: String? = nil) -> OptionKind
    where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
        OptionKind(choosing: what, among: Value.allCases.map(\.rawValue), placeholder: placeholder) { Value(rawValue: $0) }
    }
}

/// One option, declared once: its name, the kind of its value and its help. The
/// parser checks values with it, the help lists it, and a command reads its value
/// through it — typed, never by spelling its name again.
struct CommandOption<Value: Sendable>: Sendable {
    /// `--out`.
    let name: String
    /// The value's kind.
    let kind: OptionKind<Value>
    /// What it does.
    let help: String
    /// Whether it may be given more than once.
    var repeatable = false
    /// Whether the command needs it.
    var isRequired = false

    init(_ name: String, _ kind: OptionKind<Value>, help: String, repeatable: Bool = false, required: Bool = false) {
        self.name = name
        self.kind = kind
        self.help = help
        self.repeatable = repeatable
        isRequired = required
    }

    /// The option as the parser and the help see it.
    var declared: DeclaredOption {
        let kind = self.kind
        return DeclaredOption(
            name: name, placeholder: kind.placeholder, help: help, repeatable: repeatable, isRequired: isRequired,
            accepts: { kind.parse($0) != nil }, refusal: kind.refusal)
    }
}

/// An option of any value type, as the parser and the help see it.
struct DeclaredOption: Sendable {
    /// `--out`.
    let name: String
    /// The value's placeholder; `nil` for a flag.
    let placeholder: String?
    /// What it does.
    let help: String
    /// Whether it may be given more than once.
    let repeatable: Bool
    /// Whether the command needs it.
    let isRequired: Bool
    /// Whether a value is accepted.
    let accepts: @Sendable (String) -> Bool
    /// What a usage error says of a refused value.
    let refusal: @Sendable (String) -> String

    /// Whether it takes no value.
    var isFlag: Bool { placeholder == nil }
}
