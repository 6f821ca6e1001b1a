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
        (["nope"], "unknown command 'nope'"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
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
}
