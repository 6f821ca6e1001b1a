import Dispatch
/// Foundation: `URL` appears in this file's public API.
public import Foundation
import Synchronization
import AutoTrackLocking

/// Runs work that may crash the process — code on the real Objective-C runtime, where
/// a broken hook ends in SIGSEGV rather than a thrown error — in a child process, so
/// that a crash, an abort or a hang is a result to report, not the end of the run.
///
/// The child's standard output is read line by line as it comes (what it printed
/// before dying is the transcript so far); its standard error is kept for the report.
public struct ChildProcess {
    /// How a child ended.
    public enum Termination: Hashable, Sendable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it (SIGSEGV, SIGABRT …).
        case signaled(Int32)
        /// It ran past its deadline and was killed.
        case timedOut(seconds: Double)

        /// Whether it exited with status 0.
        public var succeeded: Bool { self == .exited(0) }

        /// `exit 1`, `SIGSEGV (signal 11)`, `no answer within 60 s`.
        public var description: String {
            switch self {
            case .exited(let status): "exit \(status)"
            case .signaled(let signal): "\(Self.signalName(signal)) (signal \(signal))"
            case .timedOut(let seconds): "no answer within \(seconds) s (killed)"
            }
        }

        /// `SIGSEGV`, `SIGABRT` … for a signal number.
        public static func signalName(_ signal: Int32) -> String {
            switch signal {
            case SIGSEGV: "SIGSEGV"
            case SIGABRT: "SIGABRT"
            case SIGBUS: "SIGBUS"
            case SIGILL: "SIGILL"
            case SIGFPE: "SIGFPE"
            case SIGKILL: "SIGKILL"
            case SIGTRAP: "SIGTRAP"
            case SIGTERM: "SIGTERM"
            default: "signal \(signal)"
            }
        }
    }

    /// What a child did.
    public struct Outcome: Sendable {
        /// How it ended.
        public var termination: Termination
        /// Its standard output, line by line.
        public var lines: [String]
        /// Its standard error.
        public var errorOutput: String
    }

    /// This program's own executable, to run subcommands of it as children.
    public static var currentExecutable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    }

    /// Runs `executable` (by default this program) with `arguments` — and `environment`
    /// added to this process's — calling `onLine` for each line of standard output as it
    /// arrives, and kills it (SIGKILL) after `deadline` seconds.
    public static func run(
        _ arguments: [String], executable: URL = currentExecutable, environment: [String: String] = [:], deadline: Double,
        onLine: (String) -> Void = { _ in }
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Standard error is read to its end on a thread of its own, with blocking reads:
        // Foundation's readability handler (a dispatch source set and cleared per
        // child) trapped inside libdispatch about once in some thousands of children.
        let errorText = Locked(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        let errorReader = errors.fileHandleForReading
        DispatchQueue.global().async {
            let data = errorReader.readDataToEndOfFile()
            errorText.withLock { $0 = data }
            errorsRead.signal()
        }
        let killed = Atomic<Bool>(false)
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem {
            killed.store(true, ordering: .relaxed)
            kill(pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: watchdog)

        var lines: [String] = []
        var pending = Data()
        let reader = output.fileHandleForReading
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                lines.append(line)
                onLine(line)
            }
        }
        if !pending.isEmpty {
            let line = String(decoding: pending, as: UTF8.self)
            lines.append(line)
            onLine(line)
        }
        process.waitUntilExit()
        watchdog.cancel()
        errorsRead.wait()
        let termination: Termination
        if killed.load(ordering: .relaxed) {
            termination = .timedOut(seconds: deadline)
        } else if process.terminationReason == .uncaughtSignal {
            termination = .signaled(process.terminationStatus)
        } else {
            termination = .exited(process.terminationStatus)
        }
        let errorOutput = String(decoding: errorText.withLock { $0 }, as: UTF8.self)
        return Outcome(termination: termination, lines: lines, errorOutput: errorOutput)
    }
}
