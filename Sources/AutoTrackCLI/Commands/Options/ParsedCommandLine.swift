/// What was given on a command line, checked against a command's declared options:
/// read back typed, through the same ``CommandOption`` values.
struct ParsedCommandLine {
    private(set) var given: [String: [String]] = [:]
    /// The positional argument, if the command takes one.
    private(set) var positional: String?

    /// The last value given for `option`, or `nil`.
    func value<Value>(_ option: CommandOption<Value>) -> Value? {
        given[option.name]?.last.flatMap(option.kind.parse)
    }

    /// Every value given for a repeatable `option`, in order.
    func values<Value>(_ option: CommandOption<Value>) -> [Value] {
        (given[option.name] ?? []).compactMap(option.kind.parse)
    }

    /// Whether `flag` was given.
    func isSet(_ flag: CommandOption<Bool>) -> Bool { given[flag.name] != nil }

    /// Whether `option` was given, whatever its value.
    func isGiven<Value>(_ option: CommandOption<Value>) -> Bool { given[option.name] != nil }

    /// Refuses `option` where the command would ignore it: a usage mistake saying
    /// `message`, when it was given.
    func refuse<Value>(_ option: CommandOption<Value>, _ message: @autoclosure () -> String) throws(UsageError) {
        if isGiven(option) { throw UsageError(message: message()) }
    }

    /// Parses `arguments` against `options`: `--name value` and `--name=value`, flags
    /// without a value; unknown options, missing or refused values and repeats name the
    /// option and what is accepted.
    init(parsing arguments: [String], command: String, options: [DeclaredOption], positional placeholder: String?) throws(UsageError) {
        let known = options.map(\.name).joined(separator: ", ")
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-") else {
                guard placeholder != nil, positional == nil else {
                    throw UsageError(message: "'\(command)' does not take '\(argument)' (options: \(known.isEmpty ? "none" : known))")
                }
                positional = argument
                continue
            }
            let (name, attached) = Self.split(argument)
            guard let option = options.first(where: { $0.name == name }) else {
                throw UsageError(message: "unknown option '\(name)' for '\(command)' (options: \(known.isEmpty ? "none" : known))")
            }
            if given[name] != nil, !option.repeatable { throw UsageError(message: "'\(name)' is given twice") }
            let value: String
            if option.isFlag {
                guard attached == nil else { throw UsageError(message: "'\(name)' takes no value") }
                value = ""
            } else if let attached {
                value = attached
            } else {
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw UsageError(message: "'\(name)' needs a value (\(option.placeholder ?? ""))")
                }
                value = arguments[index]
                index += 1
            }
            guard option.isFlag || option.accepts(value) else {
                throw UsageError(message: "'\(name)': \(option.refusal(value))")
            }
            given[name, default: []].append(value)
        }
        for option in options where option.isRequired && given[option.name] == nil {
            throw UsageError(message: "'\(command)' needs \(option.name)\(option.placeholder.map { " \($0)" } ?? "")")
        }
    }

    /// `--name=value` as its name and value; `--name` as its name alone.
    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
