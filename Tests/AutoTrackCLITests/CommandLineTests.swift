import AutoTrackCollector
import Foundation
import Testing

@Suite("The command line: one option table for parsing and help, documented exit codes")
struct CommandLineTests {
    static let visible = ["demo", "inspect", "collector", "conformance", "bench", "snapshot", "version"]

    @Test("every subcommand answers --help with its options, an example and the exit codes", arguments: visible)
    func help(command: String) throws {
        let (status, output) = try run(autotrackExecutable.path, [command, "--help"])
        #expect(status == 0)
        #expect(output.hasPrefix("Usage: autotrack \(command)"))
        #expect(output.contains("Example:") && output.contains("Exit codes: 0 ok; 1"))
    }

    @Test("the overall help lists every visible command and hides the test helpers")
    func overallHelp() throws {
        let (status, output) = try run(autotrackExecutable.path, ["help"])
        #expect(status == 0)
        for command in Self.visible { #expect(output.contains("autotrack \(command)"), "\(command)") }
        #expect(!output.contains("queue-writer") && !output.contains("track-stress"))
    }

    @Test("usage mistakes exit 64 and name the option and what is accepted", arguments: [
        (["demo", "--bogus"], "unknown option '--bogus' for 'demo' (options: --out"),
        (["snapshot", "--screen", "nope"], "'--screen': unknown screen 'nope' (known: list"),
        (["demo", "--format", "xml"], "'--format': unknown format 'xml' (known: sensors-form, json)"),
        (["conformance", "--point", "x"], "'--point': unknown point 'x'"),
        (["inspect", "--out"], "'--out' needs a value (DIR)"),
        (["bench"], "'bench' needs a group"),
        (["bench", "hooks", "--runs", "0"], "'--runs': needs a number of repetitions from 1 to 1000"),
        (["nope"], "unknown command 'nope'"),
        (["snapshot", "--screen=nope"], "'--screen': unknown screen 'nope' (known: list"),
        (["demo", "--json=yes"], "'--json' takes no value"),
        (["inspect"], "'inspect' needs --out DIR"),
        (["collector", "--port", "0"], "'--port': needs a port number (1-65535)"),
        (["oracle-worker", "--programs", "x", "--seed", "1"], "'--programs': needs a positive number of programs"),
        (["conformance", "--explore", "3", "--scenario", "GEN-01"], "'--explore' runs generated sessions, not catalog scenarios"),
        (["conformance", "--explore", "0"], "'--explore': needs a positive number of sessions"),
        (["conformance", "--html", "x.html"], "'--html' is read by '--explore N' only"),
        (["conformance", "--seed", "3"], "'--seed' is read by '--explore N' only"),
        (["demo", "--format", "json"], "'--format' is the wire format of '--endpoint'"),
        (["inspect", "--serve", "--events", "e.ndjson"], "'--serve' shows a live session: leave out '--events'"),
        (["inspect", "--out", "d", "--port", "9000"], "'--port' is where '--serve' listens"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        // Standard output is not read: a usage mistake says nothing there.
        let process = Process()
        process.executableURL = autotrackExecutable
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(text.contains(message), "\(text)")
    }

    @Test("an option's value may be attached with '=', and the help says so; options that are alternatives are shown in brackets and the mistake named")
    func attachedValues() throws {
        let (status, output) = try run(autotrackExecutable.path, ["snapshot", "--screen=settings", "--style=hubble"])
        #expect(status == 0)
        #expect(output.contains("SettingsViewController"))
        #expect(output.contains("(0)"), "HubbleData-style paths")
        let (_, help) = try run(autotrackExecutable.path, ["inspect", "--help"])
        #expect(help.contains("Usage: autotrack inspect [--out DIR] [--events FILE.ndjson] [--serve] [--port P]"))
        #expect(help.contains("--name=value"))
        let (status2, _) = try run(autotrackExecutable.path, ["inspect"])
        #expect(status2 == 64, "neither --out nor --serve")
    }

    @Test("snapshot shows the container's bars: the tab bar and its buttons with the tab's screen")
    func snapshotShowsBars() throws {
        let (status, output) = try run(autotrackExecutable.path, ["snapshot", "--screen", "tabs"])
        #expect(status == 0)
        #expect(output.contains("UITabBar"))
        #expect(output.contains("UITabBarButton \"Orders\"") && output.contains("UITabBarButton \"Profile\""))
        #expect(output.contains("UILabel \"Orders content\""))
    }

    @Test("demo --endpoint sends the session to the collector and keeps a copy in the events.ndjson it names, from which --inspect draws its page")
    func demoToAnEndpoint() throws {
        let collector = try LocalCollector()
        defer { collector.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("demo-endpoint-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try run(autotrackExecutable.path, [
            "demo", "--out", directory.path, "--endpoint", "http://127.0.0.1:\(collector.port)/sa?project=default", "--inspect",
        ])
        #expect(status == 0, "\(output)")
        let copy = directory.appendingPathComponent("events.ndjson")
        #expect(output.contains(copy.path))
        let lines = try String(contentsOf: copy, encoding: .utf8).split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.count == collector.events.count, "the copy holds what the collector received")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("inspect/index.html").path))
    }

    @Test("demo --json writes the events alone to standard output, each a JSON object, and the narration elsewhere")
    func demoJSONForScripts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("demo-json-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try run(autotrackExecutable.path, ["demo", "--json", "--out", directory.path])
        #expect(status == 0)
        // Pretty-printed objects, each opening and closing at the start of a line.
        var objects: [[String: Any]] = []
        var current: [Substring] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if current.isEmpty, line.isEmpty { continue }
            current.append(line)
            guard line == "}" else { continue }
            let object = try JSONSerialization.jsonObject(with: Data(current.joined(separator: "\n").utf8))
            objects.append(try #require(object as? [String: Any]))
            current = []
        }
        #expect(current.isEmpty, "standard output ends with a whole object: \(current.prefix(3))")
        let delivered = try String(contentsOf: directory.appendingPathComponent("events.ndjson"), encoding: .utf8).split(separator: "\n")
        #expect(objects.count >= delivered.count - 1, "every event printed (the crashed child's own event is not)")
        #expect(objects.allSatisfy { $0["event"] is String })
    }

    @Test("a usage mistake writes nothing to standard output")
    func usageMistakesStayOffStandardOutput() throws {
        let process = Process()
        process.executableURL = autotrackExecutable
        process.arguments = ["oracle-worker", "--programs", "x", "--seed", "1"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(text.isEmpty, "\(String(decoding: text, as: UTF8.self))")
    }
}
