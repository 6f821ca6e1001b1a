import Foundation

/// One subcommand, declared once: the table both the parser and the help read.
struct CommandSpec: Sendable {
    /// One option.
    struct Option: Sendable {
        /// `--out`.
        let name: String
        /// The value's placeholder (`DIR`); `nil` for a flag.
        let value: String?
        /// What it does.
        let help: String
        /// Whether it may be given more than once.
        var repeatable = false
    }

    let name: String
    /// A positional argument's placeholder (`<group>`), if the command takes one.
    var positional: String?
    let summary: String
    let options: [Option]
    let example: String
    /// Test helpers: parsed, never listed.
    var isHidden = false

    /// `demo [--out DIR] [--json] …`.
    var synopsis: String {
        ([name] + (positional.map { [$0] } ?? []) + options.map { option in
            "[\(option.name)\(option.value.map { " \($0)" } ?? "")]\(option.repeatable ? "…" : "")"
        }).joined(separator: " ")
    }

    /// The command's own help: synopsis, summary, options, an example, exit codes.
    var help: String {
        var lines = ["Usage: autotrack \(synopsis)", "", summary]
        if !options.isEmpty {
            lines += ["", "Options:"]
            let width = options.map { $0.name.count + ($0.value.map { $0.count + 1 } ?? 0) }.max() ?? 0
            for option in options {
                let left = option.name + (option.value.map { " \($0)" } ?? "")
                lines.append("  \(left.padding(toLength: width + 2, withPad: " ", startingAt: 0))\(option.help)")
            }
        }
        lines += ["", "Example:", "  \(example)", "", Self.exitCodes]
        return lines.joined(separator: "\n")
    }

    /// The exit codes every command uses.
    static let exitCodes = "Exit codes: 0 ok; 1 a failed check (a violation, an undelivered event, an error); 64 a usage mistake."

    /// What was given on a command line.
    struct Values {
        var options: [String: [String]] = [:]
        var positional: String?

        subscript(name: String) -> String? { options[name]?.last }
        func all(_ name: String) -> [String] { options[name] ?? [] }
        func has(_ name: String) -> Bool { options[name] != nil }
    }

    /// Parses `arguments` against the table: unknown options and missing values name
    /// the option and list the command's options.
    func parse(_ arguments: [String]) throws(UsageError) -> Values {
        var values = Values()
        var index = 0
        let known = options.map(\.name).joined(separator: ", ")
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("-") else {
                guard positional != nil, values.positional == nil else {
                    throw UsageError(message: "'\(name)' does not take '\(argument)' (options: \(known.isEmpty ? "none" : known))")
                }
                values.positional = argument
                index += 1
                continue
            }
            guard let option = options.first(where: { $0.name == argument }) else {
                throw UsageError(message: "unknown option '\(argument)' for '\(name)' (options: \(known.isEmpty ? "none" : known))")
            }
            if values.has(argument), !option.repeatable { throw UsageError(message: "'\(argument)' is given twice") }
            guard let placeholder = option.value else {
                values.options[argument, default: []].append("")
                index += 1
                continue
            }
            guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") else {
                throw UsageError(message: "'\(argument)' needs a value (\(placeholder))")
            }
            values.options[argument, default: []].append(arguments[index + 1])
            index += 2
        }
        return values
    }

    /// The command named `name`.
    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// Every command.
    static let all: [CommandSpec] = [
        CommandSpec(
            name: "demo",
            summary: "The main job: the sample app with automatic capture plays a scripted session; each event is listed, then a summary by type and screen; the queue and the delivered NDJSON go under DIR (default: a new temporary directory), or the events to a collector.",
            options: [
                Option(name: "--out", value: "DIR", help: "where the store and events.ndjson go"),
                Option(name: "--endpoint", value: "URL", help: "send to a collector instead (see 'autotrack collector')"),
                Option(name: "--format", value: "sensors-form|json", help: "the collector wire format (default sensors-form)"),
                Option(name: "--json", value: nil, help: "print every event as pretty JSON (for scripts)"),
                Option(name: "--inspect", value: nil, help: "also write DIR/inspect/index.html with this session's clicks as a heat map"),
            ],
            example: "swift run autotrack demo --out /tmp/autotrack-demo --inspect"),
        CommandSpec(
            name: "inspect",
            summary: "Write one self-contained HTML page of the sample app's screens (圈选): elements drawn at their frames; hover for type, content, both paths and ids; click to pin and see the $AppClick; search by id, path or content; with --events, a heat map of the clicks in an NDJSON file.",
            options: [
                Option(name: "--out", value: "DIR", help: "the directory to write index.html into"),
                Option(name: "--events", value: "FILE.ndjson", help: "events whose $AppClicks make the heat map (the demo's events.ndjson)"),
            ],
            example: "swift run autotrack inspect --out /tmp/inspect --events /tmp/autotrack-demo/events.ndjson"),
        CommandSpec(
            name: "collector",
            summary: "Run the local collector on 127.0.0.1 and print every event it receives and its counts.",
            options: [
                Option(name: "--port", value: "N", help: "the port (default 8106)"),
                Option(name: "--seconds", value: "S", help: "stop after S seconds (default: run until interrupted)"),
            ],
            example: "swift run autotrack collector --port 8106"),
        CommandSpec(
            name: "conformance",
            summary: "Run the conformance catalog against every built-in hook (or, with --mutants, the kit's mutants and the operator mutants) and print the matrix.",
            options: [
                Option(name: "--json", value: "FILE", help: "write the reports as JSON"),
                Option(name: "--junit", value: "FILE", help: "write JUnit XML (a test case per scenario and hook)"),
                Option(name: "--scenario", value: "ID", help: "only this scenario", repeatable: true),
                Option(name: "--point", value: "P", help: "only hooks at this point (send-action, gesture, alert-action, delegate-selection, screen-view)"),
                Option(name: "--mutants", value: nil, help: "run the mutants and print the mutation score per operator and point"),
                Option(name: "--backend", value: "model|objc|all", help: "the runtime: the model, the real Objective-C runtime, or every one built in (default)"),
                Option(name: "--objc", value: "catalog|compiled|all",
                       help: "on the real runtime: the catalog with the built-in hooks, the scenarios on the app's compiled classes, or both (default)"),
            ],
            example: "swift run autotrack conformance --point delegate-selection --junit report.xml"),
        CommandSpec(
            name: "bench", positional: "<group>",
            summary: "Run a benchmark group (use a release build). Groups: " + BenchmarkGroup.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ") + ".",
            options: [Option(name: "--json", value: "FILE", help: "also write the results as JSON")],
            example: "swift run -c release autotrack bench hooks"),
        CommandSpec(
            name: "snapshot",
            summary: "Print a sample-app screen as an element tree with paths and ids.",
            options: [
                Option(name: "--screen", value: "S", help: "list, collection, settings, pages, alert or tabs (default list)"),
                Option(name: "--style", value: "slash|hubble", help: "the path style (default slash)"),
            ],
            example: "swift run autotrack snapshot --screen settings --style hubble"),
        CommandSpec(
            name: "oracle",
            summary: "The differential oracle: seeded random programs of runtime operations (class hierarchies, add/replace/exchange/set implementation, isa swizzles, super sends, respondsToSelector:, forwarding) on the model and on the real Objective-C runtime, compared send by send, in batches of child processes so a crash is reported with its seed. Needs the real runtime (see README).",
            options: [
                Option(name: "--programs", value: "N", help: "how many programs (default 10000)"),
                Option(name: "--seed", value: "S", help: "the first program's seed (default 1)"),
                Option(name: "--workers", value: "W", help: "child processes at a time (default 2)"),
                Option(name: "--json", value: "FILE", help: "also write the summary as JSON"),
                Option(name: "--crash-seed", value: "S", help: "make program S crash its process (to see the isolation at work)"),
            ],
            example: "swift run -c release autotrack oracle --programs 100000"),
        CommandSpec(name: "version", summary: "Print the library version.", options: [], example: "swift run autotrack version"),
        CommandSpec(
            name: "queue-writer", summary: "Test helper: append numbered records until killed.",
            options: [
                Option(name: "--dir", value: "DIR", help: "the queue directory"),
                Option(name: "--count", value: "N", help: "how many"),
                Option(name: "--ndjson", value: "FILE", help: "write batches to this NDJSON file instead"),
                Option(name: "--sync", value: nil, help: "fsync each append"),
            ],
            example: "autotrack queue-writer --dir /tmp/q --count 1000", isHidden: true),
        CommandSpec(
            name: "objc-scenario", summary: "Test helper: one real-runtime scenario in this process.",
            options: [
                Option(name: "--subject", value: "S", help: "the hook"), Option(name: "--scenario", value: "ID", help: "the scenario"),
                Option(name: "--operator", value: "NAME", help: "a mutation operator to apply"),
            ],
            example: "autotrack objc-scenario --subject objc-delegate-selection-dynamic-subclass --scenario ODS-3", isHidden: true),
        CommandSpec(
            name: "mirrored-catalog", summary: "Test helper: scenarios of one subject on the real runtime in this process.",
            options: [
                Option(name: "--subject", value: "S", help: "the hook or hand-written mutant"),
                Option(name: "--operator", value: "NAME", help: "a mutation operator to apply"),
                Option(name: "--scenario", value: "ID", help: "a scenario to run", repeatable: true),
            ],
            example: "autotrack mirrored-catalog --subject send-action/control --scenario SA-01", isHidden: true),
        CommandSpec(
            name: "oracle-worker", summary: "Test helper: one batch of the differential oracle in this process.",
            options: [
                Option(name: "--programs", value: "N", help: "how many"), Option(name: "--seed", value: "S", help: "the first seed"),
                Option(name: "--crash-seed", value: "S", help: "crash at this seed"),
            ],
            example: "autotrack oracle-worker --programs 500 --seed 1", isHidden: true),
        CommandSpec(
            name: "track-stress", summary: "Test helper: track N events with the collector down, print peak memory.",
            options: [Option(name: "--dir", value: "DIR", help: "the store"), Option(name: "--count", value: "N", help: "how many")],
            example: "autotrack track-stress --dir /tmp/s --count 1000000", isHidden: true),
    ]
}
