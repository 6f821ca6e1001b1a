import AutoTrackConformanceCore
import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackSampleSession
import AutoTrackSerialization
import Foundation

/// A mistake in the command line, reported with usage advice and exit status 64.
struct UsageError: Error {
    let message: String
}

/// One parsed command line.
enum CommandLineInvocation {
    case help(CommandSpec?)
    case version
    case bench(group: BenchmarkGroup, runs: Int, jsonOutput: String?)
    case snapshot(SnapshotCommand)
    case conformance(ConformanceCommand)
    case demo(DemoCommand)
    case collector(CollectorCommand)
    case oracle(OracleCommand)
    case oracleWorker(OracleWorkerCommand)
    case mirroredCatalog(MirroredCatalogCommand)
    case queueWriter(QueueWriterCommand)
    case trackStress(TrackStressCommand)
    case crashChild(CrashChildCommand)
    case explore(ExploreCommand)
    case exploreWorker(ExploreWorkerCommand)
    case inspect(InspectCommand)
    case pkgConfig(PkgConfigCommand)
    case hookFlags(HookFlagsCommand)

    /// The whole help: every visible subcommand, then the exit codes.
    static var usage: String {
        var lines = ["autotrack — the AutoTrack analytics SDK core and conformance kit", "", "Usage:"]
        for spec in CommandSpec.all where !spec.isHidden {
            lines.append("  autotrack \(spec.synopsis)")
            lines.append("      \(spec.summary)")
        }
        lines += ["", "Run 'autotrack <command> --help' for a command's options and an example.", "", CommandSpec.exitCodes]
        return lines.joined(separator: "\n")
    }

    init(parsing arguments: [String]) throws(UsageError) {
        guard let command = arguments.first else {
            self = .help(nil)
            return
        }
        let rest = Array(arguments.dropFirst())
        if ["help", "--help", "-h"].contains(command) {
            guard let topic = rest.first else {
                self = .help(nil)
                return
            }
            guard let spec = CommandSpec.named(topic) else { throw UsageError(message: "no command '\(topic)' (see 'autotrack help')") }
            self = .help(spec)
            return
        }
        if command == "--version" {
            self = .version
            return
        }
        guard let spec = CommandSpec.named(command) else { throw UsageError(message: "unknown command '\(command)'") }
        if rest.contains("--help") || rest.contains("-h") {
            self = .help(spec)
            return
        }
        let values = try spec.parse(rest)
        switch command {
        case "version":
            self = .version
        case "bench":
            let groups = BenchmarkGroup.allCases.map(\.rawValue).joined(separator: ", ")
            guard let name = values.positional else { throw UsageError(message: "'bench' needs a group (\(groups))") }
            guard let group = BenchmarkGroup(rawValue: name) else {
                throw UsageError(message: "unknown benchmark group '\(name)' (known: \(groups))")
            }
            self = .bench(group: group, runs: values.value(BenchmarkGroup.Options.runs) ?? 1, jsonOutput: values.value(BenchmarkGroup.Options.json))
        case "conformance":
            typealias Options = ConformanceCommand.Options
            let scenarioIDs = values.values(Options.scenario)
            for id in scenarioIDs where ScenarioCatalog.scenario(id) == nil {
                throw UsageError(message: "'--scenario': unknown scenario '\(id)' (ids such as GEN-01, SA-L4, DS-T2, EXP-3)")
            }
            let backends: [ConformanceCommand.ConformanceBackend] = switch values.value(Options.backend) ?? .all {
            case .all: ConformanceCommand.ConformanceBackend.available
            case .model: [.model]
            case .objc: [.objc]
            }
            if values.value(Options.hookLibrary) != nil {
                guard !values.isSet(Options.mutants) else { throw UsageError(message: "'--hook-library' runs the library's hooks: leave out '--mutants'") }
                guard values.value(Options.backend) != .model else { throw UsageError(message: "'--hook-library' runs on the real runtime: leave out '--backend model'") }
            }
            if let sessions = values.value(Options.explore) {
                guard scenarioIDs.isEmpty else { throw UsageError(message: "'--explore' runs generated sessions, not catalog scenarios: leave out '--scenario'") }
                self = .explore(ExploreCommand(
                    sessions: sessions, seed: values.value(Options.seed) ?? 1, mutants: values.isSet(Options.mutants), point: values.value(Options.point),
                    jsonOutput: values.value(Options.json), junitOutput: values.value(Options.junit), htmlOutput: values.value(Options.html),
                    hookLibrary: values.value(Options.hookLibrary)))
                return
            }
            // What only an exploration reads is a mistake without one, not silently ignored.
            try values.refuse(Options.html, "'--html' is read by '--explore N' only: add it, or leave out '--html'")
            try values.refuse(Options.seed, "'--seed' is read by '--explore N' only: add it, or leave out '--seed'")
            self = .conformance(ConformanceCommand(
                jsonOutput: values.value(Options.json), junitOutput: values.value(Options.junit), mutants: values.isSet(Options.mutants),
                scenarioIDs: Set(scenarioIDs), point: values.value(Options.point), backends: backends,
                hookLibrary: values.value(Options.hookLibrary)))
        case "demo":
            typealias Options = DemoCommand.Options
            if !values.isGiven(Options.endpoint) {
                try values.refuse(Options.format, "'--format' is the wire format of '--endpoint': give both, or leave out '--format'")
            }
            self = .demo(DemoCommand(
                outputDirectory: values.value(Options.out), endpoint: values.value(Options.endpoint),
                wireFormat: values.value(Options.format) ?? .sensorsForm, printsJSON: values.isSet(Options.json),
                writesInspectPage: values.isSet(Options.inspect)))
        case "collector":
            typealias Options = CollectorCommand.Options
            self = .collector(CollectorCommand(port: values.value(Options.port) ?? 8106, duration: values.value(Options.seconds)))
        case "snapshot":
            typealias Options = SnapshotCommand.Options
            self = .snapshot(SnapshotCommand(screen: values.value(Options.screen) ?? .list, style: values.value(Options.style) ?? .slash))
        case "inspect":
            typealias Options = InspectCommand.Options
            if values.isSet(Options.serve) {
                try values.refuse(Options.out, "'--serve' shows a live session: leave out '--out'")
                try values.refuse(Options.events, "'--serve' shows a live session: leave out '--events'")
                self = .inspect(InspectCommand(outputDirectory: "", eventsFile: nil, servePort: UInt16(values.value(Options.port) ?? 8107)))
            } else {
                guard let out = values.value(Options.out) else { throw UsageError(message: "'inspect' needs --out DIR, or --serve") }
                try values.refuse(Options.port, "'--port' is where '--serve' listens: add it, or leave out '--port'")
                self = .inspect(InspectCommand(outputDirectory: out, eventsFile: values.value(Options.events)))
            }
        case "oracle":
            typealias Options = OracleCommand.Options
            self = .oracle(OracleCommand(
                programs: values.value(Options.programs) ?? 10_000, seed: values.value(Options.seed) ?? 1,
                workers: values.value(Options.workers) ?? 2, jsonOutput: values.value(Options.json), crashSeed: values.value(Options.crashSeed)))
        case "mirrored-catalog":
            typealias Options = MirroredCatalogCommand.Options
            guard let subject = values.value(Options.subject) else { throw UsageError(message: "'mirrored-catalog' needs --subject S") }
            self = .mirroredCatalog(MirroredCatalogCommand(
                subject: subject, operatorName: values.value(Options.mutationOperator), scenarioIDs: values.values(Options.scenario),
                hookLibrary: values.value(Options.hookLibrary)))
        case "oracle-worker":
            typealias Options = OracleWorkerCommand.Options
            guard let programs = values.value(Options.programs), let seed = values.value(Options.seed) else {
                throw UsageError(message: "'oracle-worker' needs --programs N and --seed S")
            }
            self = .oracleWorker(OracleWorkerCommand(programs: programs, seed: seed, crashSeed: values.value(Options.crashSeed)))
        case "pkg-config":
            self = .pkgConfig(PkgConfigCommand(outputDirectory: values.value(PkgConfigCommand.Options.out)))
        case "cflags":
            self = .hookFlags(.compile)
        case "ldflags":
            self = .hookFlags(.link)
        case "crash-child":
            typealias Options = CrashChildCommand.Options
            guard let directory = values.value(Options.directory), let name = values.value(Options.crash),
                  let crash = CrashChildCommand.Crash(rawValue: name) else {
                throw UsageError(message: "'crash-child' needs --dir DIR and --crash \(CrashChildCommand.Crash.allCases.map(\.rawValue).joined(separator: "|"))")
            }
            self = .crashChild(CrashChildCommand(directory: directory, crash: crash))
        case "queue-writer":
            typealias Options = QueueWriterCommand.Options
            guard let directory = values.value(Options.directory), let count = values.value(Options.count) else {
                throw UsageError(message: "'queue-writer' needs --dir DIR and --count N")
            }
            self = .queueWriter(QueueWriterCommand(
                directory: directory, count: count, sync: values.isSet(Options.sync), ndjsonFile: values.value(Options.ndjson)))
        case "explore-worker":
            typealias Options = ExploreWorkerCommand.Options
            guard let subject = values.value(Options.subject), let seed = values.value(Options.seed), let sessions = values.value(Options.sessions) else {
                throw UsageError(message: "'explore-worker' needs --subject S, --seed N and --sessions K")
            }
            self = .exploreWorker(ExploreWorkerCommand(
                subject: subject, seed: seed, sessions: sessions, hookLibrary: values.value(ExploreWorkerCommand.Options.hookLibrary)))
        default: // track-stress
            typealias Options = TrackStressCommand.Options
            guard let directory = values.value(Options.directory), let count = values.value(Options.count) else {
                throw UsageError(message: "'track-stress' needs --dir DIR and --count N")
            }
            self = .trackStress(TrackStressCommand(
                directory: directory, count: count, threads: values.value(Options.threads) ?? 1, keepsAll: values.isSet(Options.keepAll)))
        }
    }

    /// Runs the command and returns the process exit status.
    func run() throws -> Int32 {
        switch self {
        case .help(let spec):
            print(spec?.help ?? Self.usage)
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
        case .oracle(let command):
            return try command.run()
        case .oracleWorker(let command):
            return try command.run()
        case .mirroredCatalog(let command):
            return try command.run()
        case .queueWriter(let command):
            return try command.run()
        case .trackStress(let command):
            return try command.run()
        case .crashChild(let command):
            return try command.run()
        case .pkgConfig(let command):
            return try command.run()
        case .hookFlags(let command):
            return command.run()
        case .inspect(let command):
            return try command.run()
        case .explore(let command):
            return try command.run()
        case .exploreWorker(let command):
            return try command.run()
        case .bench(let group, let runs, let jsonOutput):
            let report = BenchmarkRepetitions(group: group, runs: runs).run()
            print(report.table())
            if let jsonOutput {
                try report.jsonData().write(to: URL(fileURLWithPath: jsonOutput))
                print("\nWrote \(jsonOutput)")
            }
        }
        return 0
    }
}
