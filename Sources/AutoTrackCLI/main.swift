// The `autotrack` command: the demo, the local collector, the conformance run,
// benchmarks, snapshots, help and version. Each command's options are declared once
// (`Commands/Options/CommandOptions.swift`) and read typed; see
// `Commands/CommandLineInvocation.swift`. Errors go to standard error.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    let invocation = try CommandLineInvocation(parsing: arguments)
    exit(try invocation.run())
} catch let error as UsageError {
    printError("autotrack: \(error.message)\nRun 'autotrack help' for usage.")
    exit(64) // EX_USAGE
} catch {
    printError("autotrack: \(error)")
    exit(1)
}
