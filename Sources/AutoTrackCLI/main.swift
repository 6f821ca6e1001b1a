// The `autotrack` command: the demo, the local collector, the conformance run,
// benchmarks, snapshots, help and version. Arguments are parsed by hand; see
// `Commands/CommandLineInvocation.swift`.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    let invocation = try CommandLineInvocation(parsing: arguments)
    exit(try invocation.run())
} catch let error as UsageError {
    FileHandle.standardError.write(Data("autotrack: \(error.message)\nRun 'autotrack help' for usage.\n".utf8))
    exit(64) // EX_USAGE
} catch {
    FileHandle.standardError.write(Data("autotrack: \(error)\n".utf8))
    exit(1)
}
