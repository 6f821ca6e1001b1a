import AutoTrackConformanceCore
import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackSerialization
import Foundation

/// A mistake in the command line, reported with usage advice and exit status 64.
struct UsageError: Error {
    let message: String
}

/// One parsed command line.
enum CommandLineInvocation {
    case help
    case version
    case bench(group: BenchmarkGroup, jsonOutput: String?)
    case snapshot(SnapshotCommand)
    case conformance(ConformanceCommand)
    case demo(DemoCommand)
    case collector(CollectorCommand)
    case queueWriter(QueueWriterCommand)
    case trackStress(TrackStressCommand)

    /// The subcommands, for `help`.
    static let usage = """
        autotrack — the AutoTrack analytics SDK core and conformance kit

        Usage:
          autotrack demo [--out DIR] [--endpoint URL] [--format sensors-form|json]
                                                  The main job: the sample app with automatic capture plays a
                                                  scripted session; every event is printed; the queue and the
                                                  delivered NDJSON go under DIR (default: a new temporary
                                                  directory), or the events to a collector at URL.
          autotrack collector [--port N] [--seconds S]
                                                  Run the local collector on 127.0.0.1:N (default 8106)
                                                  and print every event it receives (for S seconds).
          autotrack help                          Show this help.
          autotrack version                       Print the library version.
          autotrack bench <group> [--json FILE]   Run a benchmark group (use a release build:
                                                  swift run -c release autotrack bench <group>).
          autotrack conformance [--json FILE] [--junit FILE] [--scenario ID]… [--point P] [--mutants]
                                                  Run the conformance catalog against every built-in hook
                                                  (or the kit's mutants) and print the matrix.
          autotrack snapshot [--screen S] [--style slash|hubble]
                                                  Print the sample app's screen as an element tree
                                                  with paths and ids (S: list, collection, settings, pages).

        Benchmark groups:
        \(BenchmarkGroup.allCases.map { "  \($0.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n"))
        """

    init(parsing arguments: [String]) throws(UsageError) {
        guard let command = arguments.first else {
            self = .help
            return
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "help", "--help", "-h":
            self = .help
        case "version", "--version":
            guard rest.isEmpty else { throw UsageError(message: "'version' takes no arguments") }
            self = .version
        case "bench":
            self = try Self.parseBench(rest)
        case "snapshot":
            self = try Self.parseSnapshot(rest)
        case "conformance":
            self = try Self.parseConformance(rest)
        case "demo":
            self = try Self.parseDemo(rest)
        case "collector":
            let values = try Self.options(rest, command: "collector", known: ["--port", "--seconds"])
            guard let port = UInt16(values["--port"] ?? "8106") else { throw UsageError(message: "'--port' needs a port number") }
            var seconds: Double?
            if let text = values["--seconds"] {
                guard let parsed = Double(text), parsed >= 0 else { throw UsageError(message: "'--seconds' needs a number of seconds") }
                seconds = parsed
            }
            self = .collector(CollectorCommand(port: port, duration: seconds))
        case "queue-writer":
            self = try Self.parseQueueWriter(rest)
        case "track-stress":
            let values = try Self.options(rest, command: "track-stress", known: ["--dir", "--count"])
            guard let directory = values["--dir"], let count = Int(values["--count"] ?? "") else {
                throw UsageError(message: "'track-stress' needs --dir DIR and --count N")
            }
            self = .trackStress(TrackStressCommand(directory: directory, count: count))
        default:
            throw UsageError(message: "unknown command '\(command)'")
        }
    }

    private static func parseBench(_ arguments: [String]) throws(UsageError) -> CommandLineInvocation {
        var group: BenchmarkGroup?
        var jsonOutput: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--json":
                guard index + 1 < arguments.count else { throw UsageError(message: "'--json' needs a file path") }
                jsonOutput = arguments[index + 1]
                index += 2
            case let option where option.hasPrefix("-"):
                throw UsageError(message: "unknown option '\(option)' for 'bench'")
            default:
                guard group == nil else { throw UsageError(message: "'bench' takes one group; got '\(argument)' too") }
                guard let parsed = BenchmarkGroup(rawValue: argument) else {
                    let known = BenchmarkGroup.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageError(message: "unknown benchmark group '\(argument)' (known: \(known))")
                }
                group = parsed
                index += 1
            }
        }
        guard let group else { throw UsageError(message: "'bench' needs a group") }
        return .bench(group: group, jsonOutput: jsonOutput)
    }

    /// Options as `--name value` pairs; flags listed in `flags` take no value.
    private static func options(_ arguments: [String], command: String, known: Set<String>, flags: Set<String> = []) throws(UsageError) -> [String: String] {
        var values: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard known.contains(name) || flags.contains(name) else { throw UsageError(message: "unknown option '\(name)' for '\(command)'") }
            if flags.contains(name) {
                values[name] = "true"
                index += 1
                continue
            }
            guard index + 1 < arguments.count else { throw UsageError(message: "'\(name)' needs a value") }
            values[name] = arguments[index + 1]
            index += 2
        }
        return values
    }

    private static func parseDemo(_ arguments: [String]) throws(UsageError) -> CommandLineInvocation {
        let values = try options(arguments, command: "demo", known: ["--out", "--endpoint", "--format"])
        var format = CollectorWireFormat.sensorsForm
        if let name = values["--format"] {
            guard let parsed = CollectorWireFormat(rawValue: name) else {
                throw UsageError(message: "unknown format '\(name)' (known: sensors-form, json)")
            }
            format = parsed
        }
        if let endpoint = values["--endpoint"], URL(string: endpoint)?.scheme == nil {
            throw UsageError(message: "'\(endpoint)' is not a URL")
        }
        return .demo(DemoCommand(outputDirectory: values["--out"], endpoint: values["--endpoint"], wireFormat: format))
    }

    private static func parseQueueWriter(_ arguments: [String]) throws(UsageError) -> CommandLineInvocation {
        let values = try options(arguments, command: "queue-writer", known: ["--dir", "--count", "--ndjson"], flags: ["--sync"])
        guard let directory = values["--dir"], let count = Int(values["--count"] ?? "") else {
            throw UsageError(message: "'queue-writer' needs --dir DIR and --count N")
        }
        return .queueWriter(QueueWriterCommand(directory: directory, count: count, sync: values["--sync"] != nil, ndjsonFile: values["--ndjson"]))
    }

    private static func parseConformance(_ arguments: [String]) throws(UsageError) -> CommandLineInvocation {
        var json: String?
        var junit: String?
        var mutants = false
        var scenarioIDs: Set<String> = []
        var point: InterceptionPoint?
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--mutants":
                mutants = true
                index += 1
            case "--json", "--junit", "--scenario", "--point":
                guard index + 1 < arguments.count else { throw UsageError(message: "'\(arguments[index])' needs a value") }
                let value = arguments[index + 1]
                switch arguments[index] {
                case "--json": json = value
                case "--junit": junit = value
                case "--scenario":
                    guard ScenarioCatalog.scenario(value) != nil else { throw UsageError(message: "unknown scenario '\(value)' (ids such as GEN-01, SA-L4, DS-T2)") }
                    scenarioIDs.insert(value)
                default:
                    guard let parsed = InterceptionPoint(rawValue: value) else {
                        throw UsageError(message: "unknown point '\(value)' (known: \(InterceptionPoint.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    point = parsed
                }
                index += 2
            default:
                throw UsageError(message: "unknown option '\(arguments[index])' for 'conformance'")
            }
        }
        return .conformance(ConformanceCommand(jsonOutput: json, junitOutput: junit, mutants: mutants, scenarioIDs: scenarioIDs, point: point))
    }

    private static func parseSnapshot(_ arguments: [String]) throws(UsageError) -> CommandLineInvocation {
        var screen = SnapshotCommand.ScreenChoice.list
        var style = ViewPathStyle.slash
        var index = 0
        while index < arguments.count {
            let option = arguments[index]
            guard index + 1 < arguments.count else { throw UsageError(message: "'\(option)' needs a value") }
            let value = arguments[index + 1]
            switch option {
            case "--screen":
                guard let parsed = SnapshotCommand.ScreenChoice(rawValue: value) else {
                    let known = SnapshotCommand.ScreenChoice.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageError(message: "unknown screen '\(value)' (known: \(known))")
                }
                screen = parsed
            case "--style":
                guard let parsed = ViewPathStyle(rawValue: value) else {
                    throw UsageError(message: "unknown path style '\(value)' (known: slash, hubble)")
                }
                style = parsed
            default:
                throw UsageError(message: "unknown option '\(option)' for 'snapshot'")
            }
            index += 2
        }
        return .snapshot(SnapshotCommand(screen: screen, style: style))
    }

    /// Runs the command and returns the process exit status.
    func run() throws -> Int32 {
        switch self {
        case .help:
            print(Self.usage)
        case .version:
            print("AutoTrack \(AutoTrackVersion.current)")
        case .snapshot(let command):
            print(try command.run())
        case .conformance(let command):
            return try command.run()
        case .demo(let command):
            return try command.run()
        case .collector(let command):
            return try command.run()
        case .queueWriter(let command):
            return try command.run()
        case .trackStress(let command):
            return try command.run()
        case .bench(let group, let jsonOutput):
            let report = group.run()
            print(report.table())
            if let jsonOutput {
                try report.jsonData().write(to: URL(fileURLWithPath: jsonOutput))
                print("\nWrote \(jsonOutput)")
            }
        }
        return 0
    }
}
