import AutoTrackInterception
import AutoTrackProperties
import AutoTrackSampleSession
import AutoTrackSerialization

// Every command's options, each declared once: the parser, the help and the command's
// own reading of its values use these values (see `CommandLineInvocation`).

extension DemoCommand {
    enum Options {
        static let out = CommandOption("--out", .text("DIR"), help: "where the store and events.ndjson go")
        static let endpoint = CommandOption("--endpoint", .url, help: "send to a collector instead (see 'autotrack collector')")
        static let format = CommandOption(
            "--format", OptionKind<CollectorWireFormat>.choice("format"), help: "the collector wire format (default sensors-form)")
        static let json = CommandOption("--json", .flag, help: "print every event as pretty JSON (for scripts)")
        static let inspect = CommandOption("--inspect", .flag, help: "also write DIR/inspect/index.html with this session's clicks as a heat map")
        static let all = [out.declared, endpoint.declared, format.declared, json.declared, inspect.declared]
    }
}

extension InspectCommand {
    enum Options {
        static let out = CommandOption("--out", .text("DIR"), help: "the directory to write index.html into (or --serve)")
        static let events = CommandOption(
            "--events", .text("FILE.ndjson"), help: "events whose $AppClicks make the heat map (the demo's events.ndjson)")
        static let serve = CommandOption("--serve", .flag, help: "serve the scripted session live on 127.0.0.1 instead (POST /step steps it)")
        static let port = CommandOption("--port", .number("P", in: 0...65535, "a port, 0 for any free one"), help: "the port to serve on (8107)")
        static let all = [out.declared, events.declared, serve.declared, port.declared]
    }
}

extension CollectorCommand {
    enum Options {
        static let port = CommandOption("--port", .port, help: "the port (default 8106)")
        static let seconds = CommandOption("--seconds", .seconds, help: "stop after S seconds (default: run until interrupted)")
        static let all = [port.declared, seconds.declared]
    }
}

extension ConformanceCommand {
    enum Options {
        static let json = CommandOption("--json", .text("FILE"), help: "write the reports as JSON")
        static let junit = CommandOption("--junit", .text("FILE"), help: "write JUnit XML (a test case per scenario and hook)")
        static let scenario = CommandOption("--scenario", .text("ID"), help: "only this scenario", repeatable: true)
        static let point = CommandOption(
            "--point", OptionKind(choosing: "point", among: InterceptionPoint.uiKit.map(\.name), placeholder: "P") { InterceptionPoint.uiKit(named: $0) },
            help: "only hooks at this point (send-action, gesture, alert-action, delegate-selection, screen-view, swiftui-tap)")
        static let mutants = CommandOption("--mutants", .flag, help: "run the mutants and print the mutation score per operator and point")
        static let backend = CommandOption(
            "--backend", OptionKind<BackendChoice>.choice("backend"),
            help: "the runtime: the model, the real Objective-C runtime, or every one built in (default)")
        static let explore = CommandOption(
            "--explore", .number("N", in: 1...Int.max, "a positive number of sessions"),
            help: "instead of the catalog: N generated sessions per subject, each against the same session without it and the specification")
        static let seed = CommandOption("--seed", .seed, help: "with --explore: the first session's seed (default 1)")
        static let html = CommandOption("--html", .text("FILE"), help: "with --explore: a self-contained HTML report of the counterexamples")
        static let hookLibrary = CommandOption(
            "--hook-library", .text("PATH.so"),
            help: "instead of the built-in hooks: the hooks of a library written in C or Objective-C (autotrack_hook.h), on the real runtime")
        static let all = [
            json.declared, junit.declared, scenario.declared, point.declared, mutants.declared, backend.declared, explore.declared,
            seed.declared, html.declared, hookLibrary.declared,
        ]

        /// `--backend`: one runtime, or all.
        enum BackendChoice: String, CaseIterable, Sendable {
            case model, objc, all
        }
    }
}

extension BenchmarkGroup {
    enum Options {
        static let json = CommandOption("--json", .text("FILE"), help: "also write the results as JSON")
        static let runs = CommandOption(
            "--runs", .number("N", in: 1...1000, "a number of repetitions from 1 to 1000"),
            help: "repeat the group N times: each row the median with min and max, ratios taken within a repetition (default 1)")
        static let all = [json.declared, runs.declared]
    }
}

extension SnapshotCommand {
    enum Options {
        static let screen = CommandOption(
            "--screen", OptionKind<ScreenChoice>.choice("screen", placeholder: "S"),
            help: "list, collection, settings, pages, alert or tabs (default list)")
        static let style = CommandOption("--style", OptionKind<ViewPathStyle>.choice("path style"), help: "the path style (default slash)")
        static let all = [screen.declared, style.declared]
    }
}

extension OracleCommand {
    enum Options {
        static let programs = CommandOption(
            "--programs", .number("N", in: 1...Int.max, "a positive number of programs"), help: "how many programs (default 10000)")
        static let seed = CommandOption("--seed", .seed, help: "the first program's seed (default 1)")
        static let workers = CommandOption("--workers", .number("W", in: 1...64, "a number from 1 to 64"), help: "child processes at a time (default 2)")
        static let json = CommandOption("--json", .text("FILE"), help: "also write the summary as JSON")
        static let crashSeed = CommandOption("--crash-seed", .seed, help: "make program S crash its process (to see the isolation at work)")
        static let all = [programs.declared, seed.declared, workers.declared, json.declared, crashSeed.declared]
    }
}

extension QueueWriterCommand {
    enum Options {
        static let directory = CommandOption("--dir", .text("DIR"), help: "the queue directory")
        static let count = CommandOption("--count", .number("N", in: 0...Int.max, "a number of records"), help: "how many")
        static let ndjson = CommandOption("--ndjson", .text("FILE"), help: "write batches to this NDJSON file instead")
        static let sync = CommandOption("--sync", .flag, help: "fsync each append")
        static let all = [directory.declared, count.declared, ndjson.declared, sync.declared]
    }
}

extension MirroredCatalogCommand {
    enum Options {
        static let subject = CommandOption("--subject", .text("S"), help: "the hook or hand-written mutant")
        static let mutationOperator = CommandOption("--operator", .text("NAME"), help: "a mutation operator to apply")
        static let scenario = CommandOption("--scenario", .text("ID"), help: "a scenario to run", repeatable: true)
        static let hookLibrary = CommandOption("--hook-library", .text("PATH.so"), help: "the subject is this library's hook")
        static let all = [subject.declared, mutationOperator.declared, scenario.declared, hookLibrary.declared]
    }
}

extension OracleWorkerCommand {
    enum Options {
        static let programs = CommandOption("--programs", .number("N", in: 1...Int.max, "a positive number of programs"), help: "how many")
        static let seed = CommandOption("--seed", .seed, help: "the first seed")
        static let crashSeed = CommandOption("--crash-seed", .seed, help: "crash at this seed")
        static let all = [programs.declared, seed.declared, crashSeed.declared]
    }
}

extension CrashChildCommand {
    enum Options {
        static let directory = CommandOption("--dir", .text("DIR"), help: "the store")
        static let crash = CommandOption("--crash", .text("HOW"), help: "segv, fault, stack-overflow, abort, fatal-error, reported, recovered-fault, chained-fault or one-shot-fault")
        static let all = [directory.declared, crash.declared]
    }
}

extension TrackStressCommand {
    enum Options {
        static let directory = CommandOption("--dir", .text("DIR"), help: "the store")
        static let count = CommandOption("--count", .number("N", in: 0...Int.max, "a number of events"), help: "how many per thread")
        static let threads = CommandOption("--threads", .number("T", in: 1...256, "1 to 256 threads"), help: "tracking threads (1)")
        static let keepAll = CommandOption("--keep-all", .flag, help: "an unbounded queue: every event stays stored")
        static let all = [directory.declared, count.declared, threads.declared, keepAll.declared]
    }
}

extension ExploreWorkerCommand {
    enum Options {
        static let subject = CommandOption("--subject", .text("S"), help: "the hook or mutant")
        static let seed = CommandOption("--seed", .seed, help: "the first session's seed")
        static let sessions = CommandOption("--sessions", .number("N", in: 1...Int.max, "a positive number of sessions"), help: "how many")
        static let hookLibrary = CommandOption("--hook-library", .text("PATH.so"), help: "the subject is this library's hook")
        static let all = [subject.declared, seed.declared, sessions.declared, hookLibrary.declared]
    }
}
