import AutoTrackInterception
import AutoTrackProperties
import AutoTrackSampleSession
import AutoTrackSerialization
import Foundation

/// One subcommand, declared once: the table both the parser and the help read. Its
/// options are ``CommandOption`` values declared beside it (``CommandOptions``), which
/// the command reads its values through.
struct CommandSpec: Sendable {
    let name: String
    /// A positional argument's placeholder (`<group>`), if the command takes one.
    var positional: String?
    let summary: String
    let options: [DeclaredOption]
    let example: String
    /// Test helpers: parsed, never listed.
    var isHidden = false

    /// `demo [--out DIR] [--json] …`.
    var synopsis: String {
        ([name] + (positional.map { [$0] } ?? []) + options.map { option in
            let written = option.name + (option.placeholder.map { " \($0)" } ?? "")
            return (option.isRequired ? written : "[\(written)]") + (option.repeatable ? "…" : "")
        }).joined(separator: " ")
    }

    /// The command's own help: synopsis, summary, options, an example, exit codes.
    var help: String {
        var lines = ["Usage: autotrack \(synopsis)", "", summary]
        if !options.isEmpty {
            lines += ["", "Options:"]
            let width = options.map { $0.name.count + ($0.placeholder.map { $0.count + 1 } ?? 0) }.max() ?? 0
            for option in options {
                let left = option.name + (option.placeholder.map { " \($0)" } ?? "")
                lines.append("  \(left.padding(toLength: width + 2, withPad: " ", startingAt: 0))\(option.help)")
            }
            lines += ["", "An option's value may also be attached: --name=value."]
        }
        lines += ["", "Example:", "  \(example)", "", Self.exitCodes]
        return lines.joined(separator: "\n")
    }

    /// The exit codes every command uses.
    static let exitCodes = "Exit codes: 0 ok; 1 a failed check (a violation, an undelivered event, an error); 64 a usage mistake."

    /// Parses `arguments` against the table.
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommandLine {
        try ParsedCommandLine(parsing: arguments, command: name, options: options, positional: positional)
    }

    /// The command named `name`.
    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// Every command.
    static let all: [CommandSpec] = [
        CommandSpec(
            name: "demo",
            summary: "The main job: the sample app with automatic capture plays a scripted session; each event is listed, then a summary by type and screen; the queue and the delivered NDJSON go under DIR (default: a new temporary directory), or the events to a collector.",
            options: DemoCommand.Options.all,
            example: "swift run autotrack demo --out /tmp/autotrack-demo --inspect"),
        CommandSpec(
            name: "inspect",
            summary: "Write one self-contained HTML page of the sample app's screens (圈选): elements drawn at their frames; hover for type, content, both paths and ids; click an interactive element to pin it and see the $AppClick the hooks would record; search by id, path or content; with --events, a heat map of the clicks in an NDJSON file, each under the screen it happened on. With --serve, the scripted session live on 127.0.0.1, the page following each step.",
            options: InspectCommand.Options.all,
            example: "swift run autotrack inspect --out /tmp/inspect --events /tmp/autotrack-demo/events.ndjson"),
        CommandSpec(
            name: "collector",
            summary: "Run the local collector on 127.0.0.1 and print every event it receives and its counts.",
            options: CollectorCommand.Options.all,
            example: "swift run autotrack collector --port 8106"),
        CommandSpec(
            name: "conformance",
            summary: "Run the conformance catalog against every built-in hook (or, with --mutants, the kit's mutants and the operator mutants) and print the matrix.",
            options: ConformanceCommand.Options.all,
            example: "swift run autotrack conformance --point delegate-selection --junit report.xml; swift run -c release autotrack conformance --explore 10000 --seed 1"),
        CommandSpec(
            name: "bench", positional: "<group>",
            summary: "Run a benchmark group (use a release build). Groups: " + BenchmarkGroup.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ") + ".",
            options: BenchmarkGroup.Options.all,
            example: "swift run -c release autotrack bench hooks --runs 5 --json hooks.json"),
        CommandSpec(
            name: "snapshot",
            summary: "Print a sample-app screen as an element tree with paths and ids.",
            options: SnapshotCommand.Options.all,
            example: "swift run autotrack snapshot --screen settings --style hubble"),
        CommandSpec(
            name: "oracle",
            summary: "The differential oracle: seeded random programs of runtime operations (class hierarchies, add/replace/exchange/set implementation, isa swizzles, super sends, respondsToSelector:, forwarding) on the model and on the real Objective-C runtime, compared send by send, in batches of child processes so a crash is reported with its seed. Needs the real runtime (see README).",
            options: OracleCommand.Options.all,
            example: "swift run -c release autotrack oracle --programs 100000"),
        CommandSpec(name: "version", summary: "Print the library version.", options: [], example: "swift run autotrack version"),
        CommandSpec(
            name: "pkg-config",
            summary: "Print (or write) the pkg-config file of the C API (autotrack.h, libAutoTrackC) for this build; build the library with 'swift build --product AutoTrackC'.",
            options: PkgConfigCommand.Options.all,
            example: "swift run autotrack pkg-config --out .build/pkgconfig"),
        CommandSpec(
            name: "cflags",
            summary: "Print the compiler flags of a hook library written in C or Objective-C: GCC's runtime ABI, GNUstep Base, autotrack_hook.h and the UIKit declarations of the reference host.",
            options: [],
            example: "clang $(swift run -q autotrack cflags) -o libmyhooks.so myhooks.m $(swift run -q autotrack ldflags)"),
        CommandSpec(
            name: "ldflags",
            summary: "Print the linker flags of a hook library (a shared library linked with libobjc and GNUstep Base).",
            options: [],
            example: "clang $(swift run -q autotrack cflags) -o libmyhooks.so myhooks.m $(swift run -q autotrack ldflags)"),
        CommandSpec(
            name: "crash-child", summary: "Test helper: track an event with crash capture on, then crash.",
            options: CrashChildCommand.Options.all,
            example: "autotrack crash-child --dir /tmp/c --crash segv", isHidden: true),
        CommandSpec(
            name: "queue-writer", summary: "Test helper: append numbered records until killed.",
            options: QueueWriterCommand.Options.all,
            example: "autotrack queue-writer --dir /tmp/q --count 1000", isHidden: true),
        CommandSpec(
            name: "mirrored-catalog", summary: "Test helper: scenarios of one subject on the real runtime in this process.",
            options: MirroredCatalogCommand.Options.all,
            example: "autotrack mirrored-catalog --subject send-action/control --scenario SA-01", isHidden: true),
        CommandSpec(
            name: "oracle-worker", summary: "Test helper: one batch of the differential oracle in this process.",
            options: OracleWorkerCommand.Options.all,
            example: "autotrack oracle-worker --programs 500 --seed 1", isHidden: true),
        CommandSpec(
            name: "explore-worker", summary: "Test helper: one batch of a subject's generated sessions in this process.",
            options: ExploreWorkerCommand.Options.all,
            example: "autotrack explore-worker --subject send-action/control --seed 1 --sessions 100", isHidden: true),
        CommandSpec(
            name: "track-stress", summary: "Test helper: track N events on T threads with the collector down, print peak memory and waits.",
            options: TrackStressCommand.Options.all,
            example: "autotrack track-stress --dir /tmp/s --count 1000000", isHidden: true),
    ]
}
