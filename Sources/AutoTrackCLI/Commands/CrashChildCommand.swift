import AutoTrack
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `autotrack crash-child --dir D --crash HOW`: a tracker with crash capture on tracks
/// `before_crash`, waits until it is stored, prints `ready`, then dies the way asked —
/// the child process of the crash tests, whose next launch delivers `AppCrashed`:
/// - `segv`: SIGSEGV sent to itself; `fault`: a write the processor refuses (a real
///   SIGSEGV); `stack-overflow`: unbounded recursion on the thread that installed the
///   capture; `abort`; `fatal-error`: a Swift runtime failure; `reported`: an error
///   the host reports before it exits with status 70;
/// - `recovered-fault`: a handler installed before the tracker's fixes the fault (it
///   makes the page writable, as a garbage collector's write barrier does) and the
///   process goes on and exits 0 — nothing is a crash;
/// - `chained-fault`: a handler installed before the tracker's, as a crash reporter's,
///   restores the default disposition and returns: the fault kills the process;
/// - `one-shot-fault`: a one-shot handler (`SA_RESETHAND`) installed before the
///   tracker's notes the fault and returns: the fault again kills the process.
struct CrashChildCommand {
    /// How the child dies.
    enum Crash: String, CaseIterable {
        case segv, fault, abort
        case stackOverflow = "stack-overflow"
        case fatalError = "fatal-error"
        case reported
        case recoveredFault = "recovered-fault"
        case chainedFault = "chained-fault"
        case oneShotFault = "one-shot-fault"
    }

    let directory: String
    let crash: Crash

    func run() throws -> Int32 {
        // An earlier handler is installed before the tracker's, as another library's.
        switch crash {
        case .recoveredFault: EarlierFaultHandler.install(EarlierFaultHandler.unprotect)
        case .chainedFault: EarlierFaultHandler.install(EarlierFaultHandler.restoreDefault)
        case .oneShotFault: EarlierFaultHandler.install(EarlierFaultHandler.noteOnly, oneShot: true)
        default: break
        }
        let tracker = try Tracker(configuration: TrackerConfiguration(
            storeDirectory: URL(fileURLWithPath: directory), flushPolicy: FlushPolicy(batchSize: 1000, interval: nil),
            capturesCrashes: true))
        try tracker.track("before_crash")
        tracker.waitUntilQueued()
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        switch crash {
        case .segv: raise(SIGSEGV)
        case .fault, .recoveredFault, .chainedFault, .oneShotFault:
            EarlierFaultHandler.writeToGuardedPage()
            return 0
        case .stackOverflow: _ = Self.recurse(1)
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

    /// Recursion with no end and a frame the optimiser keeps (its result is used
    /// after the call): the stack runs out.
    @inline(never)
    private static func recurse(_ depth: Int) -> Int {
        var frame = [Int](repeating: depth, count: 4)
        frame.withUnsafeMutableBufferPointer { $0[0] &+= 1 }
        return withExtendedLifetime(frame) { recurse(depth &+ 1) &+ frame[0] }
    }
}

/// A page the process may not write, and the handlers a library installed before the
/// tracker might have for the fault of writing it.
enum EarlierFaultHandler {
    /// The page's size.
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    /// The page: mapped with no access. Unchecked: set once (a lazy global's
    /// initialisation is atomic) and only read after, its memory shared on purpose.
    nonisolated(unsafe) static let page: UnsafeMutableRawPointer? = {
        let mapped = mmap(nil, pageSize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        return mapped == MAP_FAILED ? nil : mapped
    }()

    /// Installs `handler` for SIGSEGV and SIGBUS (`oneShot`: reset to the default
    /// after one signal).
    static func install(
        _ handler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void, oneShot: Bool = false
    ) {
        _ = page
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = handler
        action.sa_flags = SA_SIGINFO | (oneShot ? Int32(bitPattern: UInt32(SA_RESETHAND)) : 0)
        sigemptyset(&action.sa_mask)
        sigaction(SIGSEGV, &action, nil)
        sigaction(SIGBUS, &action, nil)
    }

    /// Makes the page writable, so the write that faulted succeeds when tried again.
    static let unprotect: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { _, _, _ in
        _ = mprotect(page, pageSize, PROT_READ | PROT_WRITE)
    }

    /// Restores the default disposition and returns: the fault happens again and
    /// ends the process.
    static let restoreDefault: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { number, _, _ in
        var fallback = sigaction()
        fallback.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&fallback.sa_mask)
        sigaction(number, &fallback, nil)
    }

    /// Returns without fixing anything (a one-shot handler that only takes note).
    static let noteOnly: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { _, _, _ in }

    /// Writes to the page: a fault unless a handler makes it writable.
    static func writeToGuardedPage() {
        guard let page else { return }
        page.storeBytes(of: 42, as: Int.self)
    }
}
