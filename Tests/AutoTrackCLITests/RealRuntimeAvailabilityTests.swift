import Foundation
import Testing

/// Says in the test run itself whether the real Objective-C runtime is built in: where
/// it is not, this is the one skipped test, and its reason says how to enable it.
@Suite struct RealRuntimeAvailabilityTests {
    /// The packages the manifest looks for (the same files), and its opt-out.
    static var isBuiltIn: Bool {
        let files = FileManager.default
        guard ProcessInfo.processInfo.environment["AUTOTRACK_OBJC"] != "0",
              files.fileExists(atPath: "/usr/include/GNUstep/Foundation/Foundation.h"), files.fileExists(atPath: "/usr/include/Block.h")
        else { return false }
        let gcc = "/usr/lib/gcc"
        return ((try? files.subpathsOfDirectory(atPath: gcc)) ?? []).contains { $0.hasSuffix("include/objc/runtime.h") }
    }

    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("autotrack")

    @Test(.enabled(
        if: isBuiltIn,
        "no real Objective-C runtime: its backend, oracle and real-runtime catalog tests are left out; install libobjc-12-dev, libgnustep-base-dev and libblocksruntime-dev to run them"))
    func realRuntimeRuns() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the autotrack product first (swift build)")
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["oracle", "--programs", "50", "--workers", "1"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
