import AutoTrackConformance
import AutoTrackConformanceCore
import AutoTrackInterception
import Foundation
import Testing

/// `autotrack cflags`, `ldflags` and `conformance --hook-library`: an Objective-C hook
/// library built with the printed flags runs the catalog on the real runtime; a naive one
/// is caught by the rule it breaks; a library that cannot be loaded is an error.
@Suite("Hook libraries written in Objective-C")
struct HookLibraryTests {
    /// The toolchain's clang (or the system's).
    static let clang = ["/opt/swift/usr/bin/clang", "/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `executable`, returning its status and what it wrote to both streams.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// Builds `Examples/ObjCHooks/<source>` with the flags the tool prints.
    static func build(_ source: String, in directory: String = "Examples/ObjCHooks") throws -> String {
        let clang = try #require(clang)
        let cflags = try run(autotrackExecutable.path, ["cflags"]).output.split(whereSeparator: \.isWhitespace).map(String.init)
        let ldflags = try run(autotrackExecutable.path, ["ldflags"]).output.split(whereSeparator: \.isWhitespace).map(String.init)
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-hook-\(UUID().uuidString).so").path
        let input = packageRoot.appendingPathComponent("\(directory)/\(source)").path
        let (status, output) = try run(clang, ["-Wall", "-Wextra", "-Werror"] + cflags + ["-o", library, input] + ldflags)
        try #require(status == 0, "clang: \(output)")
        return library
    }

    @Test("an add-then-exchange hook built with the printed flags passes", .enabled(if: RealRuntimeAvailabilityTests.isBuiltIn && clang != nil, "needs the real Objective-C runtime and clang"))
    func exchangeHookPasses() throws {
        let library = try Self.build("send_action_exchange.m")
        defer { try? FileManager.default.removeItem(atPath: library) }
        let (status, output) = try Self.run(
            autotrackExecutable.path, ["conformance", "--hook-library", library, "--scenario", "GEN-01", "--scenario", "SA-01", "--scenario", "SA-02"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("1 hooks, 3 scenario runs, 0 violations"), "\(output)")
    }

    @Test("a hook recording after the original is caught by rule 3", .enabled(if: RealRuntimeAvailabilityTests.isBuiltIn && clang != nil, "needs the real Objective-C runtime and clang"))
    func recordingAfterTheOriginalIsCaught() throws {
        let library = try Self.build("naive/record_after_original.m")
        defer { try? FileManager.default.removeItem(atPath: library) }
        let (status, output) = try Self.run(autotrackExecutable.path, ["conformance", "--hook-library", library, "--scenario", "GEN-02"])
        #expect(status == 1)
        #expect(output.contains("rule 3: record then forward"), "\(output)")
    }

    @Test("the Swift Testing layer takes a hook library: a correct hook records no issue", .enabled(if: RealRuntimeAvailabilityTests.isBuiltIn && clang != nil, "needs the real Objective-C runtime and clang"))
    func swiftTestingLayerPasses() throws {
        let library = HookLibrary(path: URL(fileURLWithPath: try Self.build("send_action_exchange.m")), tool: autotrackExecutable)
        defer { try? FileManager.default.removeItem(at: library.path) }
        for id in ["GEN-01", "SA-01"] {
            try expectConformance(library, hook: "send-action/objc-exchange", point: .sendAction, scenario: try #require(ScenarioCatalog.scenario(id)))
        }
        let report = try library.evaluate(hook: "send-action/objc-exchange", point: .sendAction, scenarios: [try #require(ScenarioCatalog.scenario("SA-02"))])
        #expect(report.passed && report.outcomes.count == 1 && report.backend == "objc")
    }

    @Test("the Swift Testing layer records a naive hook's violation as an issue naming its rule", .enabled(if: RealRuntimeAvailabilityTests.isBuiltIn && clang != nil, "needs the real Objective-C runtime and clang"))
    func swiftTestingLayerCatches() throws {
        let library = HookLibrary(path: URL(fileURLWithPath: try Self.build("naive/record_after_original.m")), tool: autotrackExecutable)
        defer { try? FileManager.default.removeItem(at: library.path) }
        let scenario = try #require(ScenarioCatalog.scenario("GEN-02"))
        try withKnownIssue {
            try expectConformance(library, hook: "send-action/naive-record-after-original", point: .sendAction, scenario: scenario)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("GEN-02") && $0.rawValue.contains("rule 3") }
        }
        #expect(throws: ConformanceFailure.self) {
            try requireConformance(library, hook: "send-action/naive-record-after-original", point: .sendAction, scenarios: [scenario])
        }
    }

    @Test("objc4's objc_msgSend, objc_msgSendSuper and block implementations behave as on iOS for a hook library", .enabled(if: RealRuntimeAvailabilityTests.isBuiltIn && clang != nil, "needs the real Objective-C runtime and clang"))
    func objc4Functions() throws {
        let library = try Self.build("objc4_functions.m", in: "Tests/ObjCHookFixtures")
        defer { try? FileManager.default.removeItem(atPath: library) }
        let (_, output) = try Self.run(autotrackExecutable.path, ["conformance", "--hook-library", library, "--scenario", "GEN-01"])
        // The library's install runs the checks; a failed one is the install's error, a
        // crash in a trampoline the child's signal.
        #expect(output.contains("1 hooks, 1 scenario runs"), "\(output)")
        #expect(!output.contains("did not create"), "\(output)")
        #expect(!output.contains("signal"), "\(output)")
    }

    @Test("a hook reporting the selector it was sent (`_cmd`) is read by its arguments when another library exchanged on top", .enabled(if: RealRuntimeAvailabilityTests.isBuiltIn && clang != nil, "needs the real Objective-C runtime and clang"))
    func callReportedWithAnotherLibrarysSelector() throws {
        let library = try Self.build("send_action_set_implementation.m", in: "Tests/ObjCHookFixtures")
        defer { try? FileManager.default.removeItem(atPath: library) }
        // GEN-08 exchanges the method again after the hook: the hook's `_cmd` becomes the
        // other library's selector. SA-01 and SA-V5 are the plain and closure sends.
        let (status, output) = try Self.run(
            autotrackExecutable.path, ["conformance", "--hook-library", library, "--scenario", "GEN-08", "--scenario", "SA-01", "--scenario", "SA-V5"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("1 hooks, 3 scenario runs, 0 violations"), "\(output)")
    }

    @Test("a missing tool is a typed error")
    func missingTool() throws {
        let library = HookLibrary(path: URL(fileURLWithPath: "/nonexistent/libhooks.so"), tool: URL(fileURLWithPath: "/nonexistent/autotrack"))
        #expect(throws: HookLibrary.ToolNotFound.self) {
            try library.evaluate(hook: "any", point: .sendAction, scenarios: ScenarioCatalog.all)
        }
    }

    @Test("a library that cannot be loaded is an error, not a pass", .enabled(if: RealRuntimeAvailabilityTests.isBuiltIn, "needs the real Objective-C runtime"))
    func unloadableLibrary() throws {
        let (status, output) = try Self.run(autotrackExecutable.path, ["conformance", "--hook-library", "/nonexistent/libhooks.so"])
        #expect(status == 1)
        #expect(output.contains("cannot load /nonexistent/libhooks.so"), "\(output)")
    }

    @Test("the flags name the hook header, the UIKit declarations and GCC's runtime ABI")
    func flags() throws {
        let cflags = try Self.run(autotrackExecutable.path, ["cflags"]).output
        #expect(cflags.contains("-fobjc-runtime=gcc"))
        #expect(cflags.contains("Sources/CAutoTrackHook/include"))
        let ldflags = try Self.run(autotrackExecutable.path, ["ldflags"]).output
        #expect(ldflags.contains("-shared") && ldflags.contains("-lobjc"))
    }
}

/// The article's example library, built on first use.
let exchangeLibrary = HookLibrary(path: URL(fileURLWithPath: (try? HookLibraryTests.build("send_action_exchange.m")) ?? "/nonexistent/libsend_action_exchange.so"))

/// The article's example: the whole send-action catalog on the Objective-C exchange
/// hook, one scenario per test case.
@Suite("The Objective-C hook article's Swift Testing example", .enabled(if: RealRuntimeAvailabilityTests.isBuiltIn && HookLibraryTests.clang != nil, "needs the real Objective-C runtime and clang"))
struct HookLibraryArticleTests {
    @Test(arguments: ScenarioCatalog.scenarios(for: .sendAction))
    func exchangeHookConforms(scenario: Scenario) throws {
        try expectConformance(exchangeLibrary, hook: "send-action/objc-exchange", point: .sendAction, scenario: scenario)
    }
}

/// The alert example, built on first use: its handler blocks cross between the real
/// runtime and the model both ways.
let alertLibrary = HookLibrary(path: URL(fileURLWithPath: (try? HookLibraryTests.build("alert_action_handler_wrap.m")) ?? "/nonexistent/libalert_action_handler_wrap.so"))

/// Handler blocks cross: an Objective-C hook that wraps `UIAlertAction` handlers in
/// blocks of its own passes the whole alert-action catalog.
@Suite("An Objective-C alert hook wrapping handler blocks", .enabled(if: RealRuntimeAvailabilityTests.isBuiltIn && HookLibraryTests.clang != nil, "needs the real Objective-C runtime and clang"))
struct AlertHookLibraryTests {
    @Test(arguments: ScenarioCatalog.scenarios(for: .alertAction))
    func handlerWrapConforms(scenario: Scenario) throws {
        try expectConformance(alertLibrary, hook: "alert-action/objc-handler-wrap", point: .alertAction, scenario: scenario)
    }
}

/// The gesture example, built on first use: its tracking target hands the kit a call
/// with no original.
let gestureLibrary = HookLibrary(path: URL(fileURLWithPath: (try? HookLibraryTests.build("gesture_target_tracking.m")) ?? "/nonexistent/libgesture_target_tracking.so"))

/// Tracking targets of a hook's own: an Objective-C hook that puts a target of its own
/// first on every tap and long-press recognizer passes the whole gesture catalog.
@Suite("An Objective-C gesture hook adding a tracking target", .enabled(if: RealRuntimeAvailabilityTests.isBuiltIn && HookLibraryTests.clang != nil, "needs the real Objective-C runtime and clang"))
struct GestureHookLibraryTests {
    @Test(arguments: ScenarioCatalog.scenarios(for: .gesture))
    func trackingTargetConforms(scenario: Scenario) throws {
        try expectConformance(gestureLibrary, hook: "gesture/objc-tracking-target", point: .gesture, scenario: scenario)
    }
}

/// The screen-view example, built on first use: its override wrappers are blocks
/// (`imp_implementationWithBlock`) and it observes the return to the foreground through
/// `NSNotificationCenter`.
let screenViewLibrary = HookLibrary(path: URL(fileURLWithPath: (try? HookLibraryTests.build("screen_view_every_override.m")) ?? "/nonexistent/libscreen_view_every_override.so"))

/// Every override wrapped: an Objective-C screen-view hook wrapping each override of
/// `viewDidAppear:` with a block and recording on return to the foreground passes the
/// whole screen-view catalog, kept sessions included.
@Suite("An Objective-C screen-view hook over every override", .enabled(if: RealRuntimeAvailabilityTests.isBuiltIn && HookLibraryTests.clang != nil, "needs the real Objective-C runtime and clang"))
struct ScreenViewHookLibraryTests {
    @Test(arguments: ScenarioCatalog.scenarios(for: .screenView))
    func everyOverrideConforms(scenario: Scenario) throws {
        try expectConformance(screenViewLibrary, hook: "screen-view/objc-every-override", point: .screenView, scenario: scenario)
    }
}

/// The KVO-aware dynamic-subclass example, built on first use: it steps aside for KVO
/// through the model's `addObserver:forKeyPath:options:context:` and
/// `removeObserver:forKeyPath:`, and calls super with `objc_msgSendSuper`.
let subclassLibrary = HookLibrary(path: URL(fileURLWithPath: (try? HookLibraryTests.build("delegate_selection_subclass.m")) ?? "/nonexistent/libdelegate_selection_subclass.so"))

/// KVO and a native dynamic subclass take turns: the example passes the whole
/// delegate-selection catalog, KVO before and after the hook and RxCocoa-style proxies
/// included.
@Suite("An Objective-C KVO-aware dynamic-subclass hook", .enabled(if: RealRuntimeAvailabilityTests.isBuiltIn && HookLibraryTests.clang != nil, "needs the real Objective-C runtime and clang"))
struct SubclassHookLibraryTests {
    @Test(arguments: ScenarioCatalog.scenarios(for: .delegateSelection))
    func kvoAwareSubclassConforms(scenario: Scenario) throws {
        try expectConformance(subclassLibrary, hook: "delegate-selection/objc-kvo-aware-subclass", point: .delegateSelection, scenario: scenario)
    }
}

/// The application-level examples, built on first use.
let sendEventLibrary = HookLibrary(path: URL(fileURLWithPath: (try? HookLibraryTests.build("send_event_exchange.m")) ?? "/nonexistent/libsend_event_exchange.so"))
let appOpenLibrary = HookLibrary(path: URL(fileURLWithPath: (try? HookLibraryTests.build("app_open_delegate_wrap.m")) ?? "/nonexistent/libapp_open_delegate_wrap.so"))

/// Objective-C hooks at the application-level points and SwiftUI taps: `sendEvent:`
/// exchanged, and app delegate methods wrapped by blocks, pass their points' catalogs.
@Suite("Objective-C hooks at sendEvent: and the app delegates", .enabled(if: RealRuntimeAvailabilityTests.isBuiltIn && HookLibraryTests.clang != nil, "needs the real Objective-C runtime and clang"))
struct ApplicationHookLibraryTests {
    static let cases: [(hook: String, point: InterceptionPoint)] = [
        ("touch-end/objc-send-event", .touchEnd), ("swiftui-tap/objc-send-event", .swiftUITap),
        ("open-url/objc-delegate-wrap", .openURL), ("notification-response/objc-delegate-wrap", .notificationResponse),
    ]

    @Test(arguments: cases.flatMap { hook, point in ScenarioCatalog.scenarios(for: point).map { (hook, point, $0) } })
    func conforms(hook: String, point: InterceptionPoint, scenario: Scenario) throws {
        let library = point == .touchEnd || point == .swiftUITap ? sendEventLibrary : appOpenLibrary
        try expectConformance(library, hook: hook, point: point, scenario: scenario)
    }
}
