/// AutoTrackRuntime: `RuntimeValue` appears in this file's package API.
package import AutoTrackRuntime

/// The kinds of an Objective-C type encoding's types, one character each, as the
/// bridge's closures pass them: `@ # : ^ c C s S i I q Q f d`, `?` for a block and `v`
/// for none. Qualifiers, frame offsets and quoted class names are skipped.
package struct ObjCTypeKinds: Equatable {
    /// The return type's kind, then self's, _cmd's and each argument's.
    package let all: [Character]

    /// Parses `types`, e.g. `v@:@q` or `c24@0:8@16`.
    package init(_ types: String) {
        var kinds: [Character] = []
        var characters = Array(types)[...]
        while let character = characters.popFirst() {
            if character.isNumber || character == "-" || "rnNoORVA".contains(character) { continue }
            switch character {
            case "@" where characters.first == "?":
                characters.removeFirst()
                kinds.append("?")
            case "@" where characters.first == "\"":
                characters.removeFirst()
                while let quoted = characters.popFirst(), quoted != "\"" {}
                kinds.append("@")
            case "^", "*":
                // A pointer: what it points to is one type, skipped.
                var depth = 0
                repeat {
                    guard let next = characters.popFirst() else { break }
                    if "{([".contains(next) { depth += 1 } else if "})]".contains(next) { depth -= 1 }
                } while depth > 0 && character == "^"
                kinds.append("^")
            case "l": kinds.append("q")
            case "L": kinds.append("Q")
            case "B": kinds.append("C")
            default: kinds.append(character)
            }
        }
        all = kinds
    }

    /// The return type's kind (`v` for an empty encoding).
    package var returnKind: Character { all.first ?? "v" }

    /// Whether the encoding is that of a message with `count` arguments after self and
    /// _cmd.
    package func takes(argumentCount count: Int) -> Bool { all.count == count + 3 }

    /// The kinds of self, _cmd and the arguments.
    package var argumentKinds: ArraySlice<Character> { all.dropFirst() }

    /// The encoding of a message with `arguments`, returning an object: what a call site
    /// that knows only the values it passes would declare.
    package static func encoding(returningObjectFor arguments: [RuntimeValue]) -> String {
        "@@:" + arguments.map { value in
            switch value {
            case .void, .object, .value: "@"
            case .bool: "c"
            case .int: "q"
            case .double: "d"
            case .selector: ":"
            case .block: "@?"
            }
        }.joined()
    }
}
