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
    case bench(group: BenchmarkGroup, jsonOutput: String?)
    case snapshot(SnapshotCommand)
    case conformance(ConformanceCommand)
    case demo(DemoCommand)
    case collector(CollectorCommand)
    case oracle(OracleCommand)
    case oracleWorker(OracleWorkerCommand)
    case objcScenario(ObjCScenarioCommand)
    case mirroredCatalog(MirroredCatalogCommand)
    case queueWriter(QueueWriterCommand)
    case trackStress(TrackStressCommand)
    case inspect(InspectCommand)

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
            guard let name = values.positional else { throw UsageError(message: "'bench' needs a group (\(BenchmarkGroup.allCases.map(\.rawValue).joined(separator: ", ")))") }
            guard let group = BenchmarkGroup(rawValue: name) else {
                throw UsageError(message: "unknown benchmark group '\(name)' (known: \(BenchmarkGroup.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            self = .bench(group: group, jsonOutput: values["--json"])
        case "conformance":
            var point: InterceptionPoint?
            if let text = values["--point"] {
                guard let parsed = InterceptionPoint.uiKit(named: text) else {
                    throw UsageError(message: "'--point': unknown point '\(text)' (known: \(InterceptionPoint.uiKit.map(\.name).joined(separator: ", ")))")
                }
                point = parsed
            }
            let scenarioIDs = values.all("--scenario")
            for id in scenarioIDs where ScenarioCatalog.scenario(id) == nil && !ObjCConformance.scenarios.contains(where: { $0.id == id }) {
                throw UsageError(message: "'--scenario': unknown scenario '\(id)' (ids such as GEN-01, SA-L4, DS-T2, ODS-3)")
            }
            var backends = ConformanceCommand.ConformanceBackend.available
            if let name = values["--backend"], name != "all" {
                guard let backend = ConformanceCommand.ConformanceBackend(rawValue: name) else {
                    throw UsageError(message: "'--backend': unknown backend '\(name)' (known: model, objc, all)")
                }
                backends = [backend]
            }
            var objcParts = ConformanceCommand.ObjCPart.allCases
            if let name = values["--objc"], name != "all" {
                guard let part = ConformanceCommand.ObjCPart(rawValue: name) else {
                    throw UsageError(message: "'--objc': unknown part '\(name)' (known: catalog, compiled, all)")
                }
                objcParts = [part]
            }
            self = .conformance(ConformanceCommand(
                jsonOutput: values["--json"], junitOutput: values["--junit"], mutants: values.has("--mutants"),
                scenarioIDs: Set(scenarioIDs), point: point, backends: backends, objcParts: objcParts))
        case "demo":
            var format = CollectorWireFormat.sensorsForm
            if let name = values["--format"] {
                guard let parsed = CollectorWireFormat(rawValue: name) else {
                    throw UsageError(message: "'--format': unknown format '\(name)' (known: sensors-form, json)")
                }
                format = parsed
            }
            if let endpoint = values["--endpoint"], URL(string: endpoint)?.scheme == nil {
                throw UsageError(message: "'--endpoint': '\(endpoint)' is not a URL")
            }
            self = .demo(DemoCommand(
                outputDirectory: values["--out"], endpoint: values["--endpoint"], wireFormat: format,
                printsJSON: values.has("--json"), writesInspectPage: values.has("--inspect")))
        case "collector":
            guard let port = UInt16(values["--port"] ?? "8106") else { throw UsageError(message: "'--port': needs a port number (1-65535)") }
            var seconds: Double?
            if let text = values["--seconds"] {
                guard let parsed = Double(text), parsed >= 0 else { throw UsageError(message: "'--seconds': needs a number of seconds") }
                seconds = parsed
            }
            self = .collector(CollectorCommand(port: port, duration: seconds))
        case "snapshot":
            let screenName = values["--screen"] ?? "list"
            guard let screen = SnapshotCommand.ScreenChoice(rawValue: screenName) else {
                throw UsageError(message: "'--screen': unknown screen '\(screenName)' (known: \(SnapshotCommand.ScreenChoice.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            let styleName = values["--style"] ?? "slash"
            guard let style = ViewPathStyle(rawValue: styleName) else {
                throw UsageError(message: "'--style': unknown path style '\(styleName)' (known: slash, hubble)")
            }
            self = .snapshot(SnapshotCommand(screen: screen, style: style))
        case "inspect":
            guard let directory = values["--out"] else { throw UsageError(message: "'inspect' needs --out DIR") }
            self = .inspect(InspectCommand(outputDirectory: directory, eventsFile: values["--events"]))
        case "oracle":
            let programs = values["--programs"].map { Int($0) } ?? 10_000
            guard let programs, programs > 0 else { throw UsageError(message: "'--programs': needs a positive number of programs") }
            let seed = values["--seed"].map { UInt64($0) } ?? 1
            guard let seed else { throw UsageError(message: "'--seed': needs a non-negative integer") }
            let workers = values["--workers"].map { Int($0) } ?? 2
            guard let workers, (1...64).contains(workers) else { throw UsageError(message: "'--workers': needs a number from 1 to 64") }
            let crashSeed = values["--crash-seed"].flatMap { UInt64($0) }
            self = .oracle(OracleCommand(programs: programs, seed: seed, workers: workers, jsonOutput: values["--json"], crashSeed: crashSeed))
        case "objc-scenario":
            guard let subject = values["--subject"], let scenario = values["--scenario"] else {
                throw UsageError(message: "'objc-scenario' needs --subject S and --scenario ID")
            }
            self = .objcScenario(ObjCScenarioCommand(subject: subject, scenarioID: scenario, operatorName: values["--operator"]))
        case "mirrored-catalog":
            guard let subject = values["--subject"] else { throw UsageError(message: "'mirrored-catalog' needs --subject S") }
            self = .mirroredCatalog(MirroredCatalogCommand(subject: subject, operatorName: values["--operator"], scenarioIDs: values.all("--scenario")))
        case "oracle-worker":
            guard let programs = Int(values["--programs"] ?? ""), let seed = UInt64(values["--seed"] ?? "") else {
                throw UsageError(message: "'oracle-worker' needs --programs N and --seed S")
            }
            self = .oracleWorker(OracleWorkerCommand(programs: programs, seed: seed, crashSeed: values["--crash-seed"].flatMap { UInt64($0) }))
        case "queue-writer":
            guard let directory = values["--dir"], let count = Int(values["--count"] ?? "") else {
                throw UsageError(message: "'queue-writer' needs --dir DIR and --count N")
            }
            self = .queueWriter(QueueWriterCommand(directory: directory, count: count, sync: values.has("--sync"), ndjsonFile: values["--ndjson"]))
        default: // track-stress
            guard let directory = values["--dir"], let count = Int(values["--count"] ?? "") else {
                throw UsageError(message: "'track-stress' needs --dir DIR and --count N")
            }
            self = .trackStress(TrackStressCommand(directory: directory, count: count))
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
        case .objcScenario(let command):
            return try command.run()
        case .mirroredCatalog(let command):
            return try command.run()
        case .queueWriter(let command):
            return try command.run()
        case .trackStress(let command):
            return try command.run()
        case .inspect(let command):
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
