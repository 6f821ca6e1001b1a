import AutoTrack
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `autotrack crash-child --dir D --crash segv|abort|fatal-error|reported`: a tracker
/// with crash capture on tracks `before_crash`, waits until it is stored, prints
/// `ready`, then dies the way asked — a real signal, a Swift fatal error, or an
/// uncaught error the host reports before exiting — the child process of the crash
/// tests, whose next launch delivers `AppCrashed`.
struct CrashChildCommand {
    /// How the child dies.
    enum Crash: String, CaseIterable {
        case segv, abort
        case fatalError = "fatal-error"
        case reported
    }

    let directory: String
    let crash: Crash

    func run() throws -> Int32 {
        let tracker = try Tracker(configuration: TrackerConfiguration(
            storeDirectory: URL(fileURLWithPath: directory), flushPolicy: FlushPolicy(batchSize: 1000, interval: nil),
            capturesCrashes: true))
        try tracker.track("before_crash")
        tracker.waitUntilQueued()
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        switch crash {
        case .segv: raise(SIGSEGV)
        case .abort: abort()
        case .fatalError: Self.failHard()
        case .reported:
            tracker.recordFatalError("TypeError: undefined is not a function\n    at render (app.js:42)")
            exit(70)
        }
        return 1
    }

    /// Stops the process as a Swift runtime failure does.
    private static func failHard() -> Never {
        let values: [Int] = []
        _ = values[Int(getpid()) % 7 + 1]
        fatalError("unreachable")
    }
}
