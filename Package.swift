// swift-tools-version: 6.2
import Foundation
import PackageDescription

/// Language settings every target shares: Swift 6 mode plus the upcoming features
/// that keep imports honest and existentials explicit.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// A Swift target with the shared settings.
func strictTarget(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, swiftSettings: strictSettings)
}

/// A test target with the shared settings.
func strictTestTarget(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .testTarget(name: name, dependencies: dependencies, swiftSettings: strictSettings)
}

let package = Package(
    name: "AutoTrack",
    // What users depend on, one product per kind of user (README, "Products"): the SDK
    // core an app embeds; the machinery for hooks on a runtime; the reference host; the
    // built-in hooks; the conformance kit; test doubles; a local collector.
    products: [
        .library(
            name: "AutoTrack",
            targets: ["AutoTrack", "AutoTrackEvents", "AutoTrackSerialization", "AutoTrackProperties", "AutoTrackInterception", "AutoTrackJSONHost"]),
        .library(name: "AutoTrackMethodWrapping", targets: ["AutoTrackMethodWrapping"]),
        .library(name: "AutoTrackReferenceHost", targets: ["AutoTrackRuntime", "AutoTrackModelBackend", "AutoTrackReferenceUI", "AutoTrackReferenceSwiftUI"]),
        .library(name: "AutoTrackHooks", targets: ["AutoTrackHooks", "AutoTrackReferenceHostIntegration"]),
        .library(name: "AutoTrackConformance", targets: ["AutoTrackConformance", "AutoTrackConformanceCore"]),
        .library(name: "AutoTrackTesting", targets: ["AutoTrackTesting"]),
        .library(name: "AutoTrackCollector", targets: ["AutoTrackCollector"]),
        // The core for hosts that are not Swift: a shared library with a C header
        // (`Sources/CAutoTrack/include/autotrack.h`).
        .library(name: "AutoTrackC", type: .dynamic, targets: ["AutoTrackCAPI"]),
        .executable(name: "autotrack", targets: ["AutoTrackCLI"]),
    ],
    targets: [
        // System zlib (ships on Apple platforms and in the Linux image) for gzip bodies.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // CRC-32 of queue records by carry-less multiplication where the processor has
        // it (x86-64); zlib's crc32 elsewhere and for the tail.
        .target(
            name: "CAutoTrackChecksum",
            path: "Sources/CAutoTrackChecksum"
        ),
        // Fatal-signal handlers that write a crash record with async-signal-safe calls.
        .target(
            name: "CAutoTrackCrashCapture",
            path: "Sources/CAutoTrackCrashCapture"
        ),
        // The one lock of the package: Synchronization's Mutex, or with AUTOTRACK_TSAN
        // defined a pthread mutex ThreadSanitizer models. In no product's interface.
        strictTarget("AutoTrackLocking"),
        strictTarget("AutoTrackEvents", ["AutoTrackLocking"]),
        strictTarget("AutoTrackSerialization", ["AutoTrackEvents", "CZlib"]),
        strictTarget("AutoTrackProperties", ["AutoTrackEvents"]),
        strictTarget("AutoTrackInterception", ["AutoTrackLocking", "AutoTrackEvents", "AutoTrackProperties"]),
        // The method-wrapping machinery over a runtime-operations interface, beside the
        // contract: a host with no runtime never links it.
        strictTarget("AutoTrackMethodWrapping", ["AutoTrackLocking", "AutoTrackInterception"]),
        strictTarget("AutoTrackRuntime", ["AutoTrackLocking"]),
        // The model runtime as a backend of the contract's runtime operations.
        strictTarget("AutoTrackModelBackend", ["AutoTrackRuntime", "AutoTrackInterception", "AutoTrackMethodWrapping"]),
        strictTarget("AutoTrackReferenceUI", ["AutoTrackLocking", "AutoTrackEvents", "AutoTrackRuntime", "AutoTrackProperties"]),
        // SwiftUI's model on the reference host: view values, their identity, hosting
        // controllers that render them.
        strictTarget("AutoTrackReferenceSwiftUI", ["AutoTrackEvents", "AutoTrackProperties", "AutoTrackRuntime", "AutoTrackReferenceUI"]),
        .target(
            name: "AutoTrackHooks",
            dependencies: ["AutoTrackLocking", 
                "AutoTrackInterception", "AutoTrackMethodWrapping", "AutoTrackReferenceUI", "AutoTrackRuntime", "AutoTrackModelBackend",
                "AutoTrackProperties", "AutoTrackEvents",
            ],
            swiftSettings: strictSettings
        ),
        // The SDK core: knows no runtime, no host and no hook.
        strictTarget("AutoTrack", ["AutoTrackLocking", "AutoTrackEvents", "AutoTrackSerialization", "AutoTrackProperties", "AutoTrackInterception", "CZlib", "CAutoTrackChecksum", "CAutoTrackCrashCapture"]),
        // Automatic capture for hosts that describe their screens as JSON.
        strictTarget("AutoTrackJSONHost", ["AutoTrack", "AutoTrackLocking", "AutoTrackEvents", "AutoTrackSerialization", "AutoTrackProperties", "AutoTrackInterception"]),
        // The C API's header, and the two functions written in C.
        .target(
            name: "CAutoTrack",
            path: "Sources/CAutoTrack"
        ),
        // The interface of hook libraries written in C or Objective-C (autotrack_hook.h).
        .target(
            name: "CAutoTrackHook",
            path: "Sources/CAutoTrackHook",
            exclude: ["UIKit", "UserNotifications"]
        ),
        // The C API: `autotrack.h`'s functions over the core.
        strictTarget("AutoTrackCAPI", ["AutoTrack", "AutoTrackEvents", "AutoTrackSerialization", "AutoTrackProperties", "AutoTrackJSONHost", "CAutoTrack"]),
        // Glue: automatic capture for a Tracker on the reference host, with the built-in hooks.
        strictTarget("AutoTrackReferenceHostIntegration", ["AutoTrackLocking", "AutoTrack", "AutoTrackHooks", "AutoTrackReferenceUI", "AutoTrackInterception", "AutoTrackRuntime"]),
        // Sample support, in no product: the sample app the kit, the tool and the tests
        // share, and the scripted session of the demo and the end-to-end tests.
        strictTarget("AutoTrackSampleApp", ["AutoTrackLocking", "AutoTrackRuntime", "AutoTrackReferenceUI", "AutoTrackReferenceSwiftUI", "AutoTrackProperties", "AutoTrackEvents"]),
        .target(
            name: "AutoTrackSampleSession",
            dependencies: ["AutoTrackSampleApp", 
                "AutoTrack", "AutoTrackReferenceHostIntegration", "AutoTrackReferenceUI", "AutoTrackEvents", "AutoTrackProperties",
                "AutoTrackSerialization", "AutoTrackHooks", "AutoTrackInterception", "AutoTrackLocking", "AutoTrackRuntime",
            ],
            swiftSettings: strictSettings
        ),
        // Test doubles users depend on in their own tests: a recording sink, an in-memory
        // transport and tracker.
        strictTarget("AutoTrackTesting", ["AutoTrackLocking", "AutoTrack", "AutoTrackInterception", "AutoTrackEvents", "AutoTrackProperties"]),
        strictTarget("AutoTrackCollector", ["AutoTrackLocking", "AutoTrackEvents", "AutoTrackSerialization"]),
        // The conformance kit: a pure engine, and a Swift Testing layer over it.
        .target(
            name: "AutoTrackConformanceCore",
            dependencies: ["AutoTrackLocking", 
                "AutoTrackTesting","AutoTrackSampleApp", "AutoTrackReferenceSwiftUI", 
                "AutoTrackEvents", "AutoTrackProperties", "AutoTrackRuntime", "AutoTrackReferenceUI", "AutoTrackInterception",
            ],
            path: "Conformance/AutoTrackConformanceCore",
            swiftSettings: strictSettings
        ),
        .target(
            name: "AutoTrackConformance",
            dependencies: ["AutoTrackConformanceCore", "AutoTrackInterception"],
            path: "Conformance/AutoTrackConformance",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "AutoTrackCLI",
            dependencies: ["AutoTrackLocking", "AutoTrackSampleApp", 
                "AutoTrackEvents", "AutoTrackSerialization", "AutoTrackProperties", "AutoTrackRuntime", "AutoTrackReferenceUI",
                "AutoTrackInterception", "AutoTrackModelBackend", "AutoTrackHooks", "AutoTrackConformanceCore", "AutoTrack",
                "AutoTrackReferenceHostIntegration", "AutoTrackSampleSession", "AutoTrackCollector",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AutoTrackTests",
            dependencies: ["AutoTrackLocking", "AutoTrackTesting", "AutoTrackJSONHost", 
                "AutoTrack", "AutoTrackCollector", "AutoTrackEvents", "AutoTrackSerialization", "AutoTrackProperties", "AutoTrackInterception",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AutoTrackReferenceHostIntegrationTests",
            dependencies: ["AutoTrackLocking", "AutoTrackSampleApp", "AutoTrackReferenceSwiftUI", 
                "AutoTrackReferenceHostIntegration", "AutoTrackSampleSession", "AutoTrack", "AutoTrackEvents", "AutoTrackProperties",
                "AutoTrackReferenceUI", "AutoTrackRuntime", "AutoTrackInterception", "AutoTrackHooks", "AutoTrackSerialization",
            ],
            swiftSettings: strictSettings
        ),
        // The README's Swift snippets, compiled and run (.ci/check-readme-snippets keeps them in step).
        .testTarget(
            name: "ReadmeSnippetTests",
            dependencies: ["AutoTrackSampleApp", 
                "AutoTrack", "AutoTrackConformance", "AutoTrackConformanceCore", "AutoTrackEvents", "AutoTrackHooks",
                "AutoTrackInterception", "AutoTrackProperties", "AutoTrackReferenceHostIntegration", "AutoTrackReferenceUI",
                "AutoTrackRuntime", "AutoTrackSerialization",
            ],
            swiftSettings: strictSettings
        ),
        // The C API through its header, as a C host calls it.
        strictTestTarget("AutoTrackCAPITests", ["AutoTrackCAPI", "CAutoTrack"]),
        // The command line: the inspect page in a real browser.
        strictTestTarget("AutoTrackCLITests", ["AutoTrackCLI", "AutoTrackSampleSession", "AutoTrackCollector", "AutoTrackSerialization", "AutoTrackConformance", "AutoTrackConformanceCore", "AutoTrackInterception"]),
        // Hooks written as a third party would, from the public API only.
        .testTarget(
            name: "ThirdPartyHookTests",
            dependencies: ["AutoTrackLocking", "AutoTrackSampleApp", 
                "AutoTrackConformance", "AutoTrackConformanceCore", "AutoTrackInterception", "AutoTrackMethodWrapping", "AutoTrackModelBackend",
                "AutoTrackHooks", "AutoTrackReferenceUI", "AutoTrackRuntime", "AutoTrackProperties", "AutoTrackEvents",
            ],
            swiftSettings: strictSettings
        ),
        strictTestTarget("AutoTrackCollectorTests", ["AutoTrackCollector", "AutoTrackEvents", "AutoTrackSerialization", "AutoTrackLocking"]),
        strictTestTarget("AutoTrackConformanceTests", ["AutoTrackSampleApp", "AutoTrackConformance", "AutoTrackConformanceCore", "AutoTrackEvents", "AutoTrackInterception", "AutoTrackHooks", "AutoTrackReferenceUI"]),
        strictTestTarget("AutoTrackEventsTests", ["AutoTrackEvents"]),
        strictTestTarget("AutoTrackInterceptionTests", ["AutoTrackLocking", "AutoTrackTesting", "AutoTrackEvents", "AutoTrackProperties", "AutoTrackInterception"]),
        .testTarget(
            name: "AutoTrackHooksTests",
            dependencies: ["AutoTrackTesting", "AutoTrackSampleApp", "AutoTrackReferenceSwiftUI", 
                "AutoTrackEvents", "AutoTrackProperties", "AutoTrackRuntime", "AutoTrackReferenceUI", "AutoTrackInterception",
                "AutoTrackModelBackend", "AutoTrackHooks",
            ],
            swiftSettings: strictSettings
        ),
        strictTestTarget("AutoTrackPropertiesTests", ["AutoTrackEvents", "AutoTrackProperties"]),
        strictTestTarget("AutoTrackRuntimeTests", ["AutoTrackLocking", "AutoTrackRuntime"]),
        strictTestTarget("AutoTrackReferenceUITests", ["AutoTrackLocking", "AutoTrackSampleApp", "AutoTrackReferenceSwiftUI", "AutoTrackEvents", "AutoTrackRuntime", "AutoTrackProperties", "AutoTrackReferenceUI"]),
        strictTestTarget("AutoTrackSerializationTests", ["AutoTrackLocking", "AutoTrackEvents", "AutoTrackSerialization", "CZlib"]),
    ],
    swiftLanguageModes: [.v6]
)

// MARK: - The real Objective-C runtime (optional)

/// Whether libffi's header (Debian's `libffi-dev`) is installed: the mirrored runtime
/// makes its IMPs with it.
func hasLibffiHeader(_ files: FileManager) -> Bool {
    if files.fileExists(atPath: "/usr/include/ffi.h") { return true }
    let multiarch = (try? files.contentsOfDirectory(atPath: "/usr/include")) ?? []
    return multiarch.contains { files.fileExists(atPath: "/usr/include/\($0)/ffi.h") }
}

/// GCC's Objective-C headers (`<dir>/objc/runtime.h`) when Debian's `libobjc-*-dev`,
/// `libgnustep-base-dev`, `libblocksruntime-dev` and `libffi-dev` are installed, else `nil`: then the
/// real-runtime targets below are left out, and everything else builds and tests as
/// before. `AUTOTRACK_OBJC=0` leaves them out on purpose.
let objcIncludeDirectory: String? = {
    guard ProcessInfo.processInfo.environment["AUTOTRACK_OBJC"] != "0" else { return nil }
    let files = FileManager.default
    guard files.fileExists(atPath: "/usr/include/GNUstep/Foundation/Foundation.h"), files.fileExists(atPath: "/usr/include/Block.h"),
          hasLibffiHeader(files)
    else { return nil }
    let gcc = "/usr/lib/gcc"
    for triple in (try? files.contentsOfDirectory(atPath: gcc))?.sorted() ?? [] {
        for version in ((try? files.contentsOfDirectory(atPath: "\(gcc)/\(triple)")) ?? []).sorted().reversed() {
            let include = "\(gcc)/\(triple)/\(version)/include"
            if files.fileExists(atPath: "\(include)/objc/runtime.h") { return include }
        }
    }
    return nil
}()

/// What the executable that links the bridge exports for hook libraries loaded later:
/// objc4's functions GCC's runtime lacks, and libobjc's own that it interposes.
let nativeRuntimeSymbols = [
    // Implementation changes made to reach subclasses, as on objc4 (NativeMethodChanges.m).
    "method_setImplementation", "method_exchangeImplementations",
    // The method generation cached super sends follow (NativeSuperCache.m).
    "class_addMethod", "class_replaceMethod", "objc_registerClassPair", "objc_disposeClassPair", "__objc_exec_class",
    "atr_superCacheGeneration", "atr_fillSuperCache",
    // Associated objects (NativeAssociations.m) and block implementations (NativeBlockImplementations.m).
    "objc_setAssociatedObject", "objc_getAssociatedObject", "objc_removeAssociatedObjects",
    "imp_implementationWithBlock", "imp_getBlock", "imp_removeBlock",
    // Native class changes the model follows at once (NativeClassChanges.m).
    "object_setClass",
    // Message sends (NativeMessageSend.m).
    "objc_msgSend", "objc_msgSendSuper",
]

if let objcIncludeDirectory {
    package.targets += [
        // Objective-C sources compiled for GCC's runtime with GNUstep Base, behind a plain C
        // interface. Its flags are unsafe by SwiftPM's rules, so no product contains it:
        // only the command line and the tests use the real runtime.
        .target(
            name: "CObjCRuntimeBridge",
            exclude: ["shim"],
            cSettings: [
                .headerSearchPath("shim"),
                .define("GNUSTEP"), .define("GNUSTEP_BASE_LIBRARY", to: "1"), .define("GNU_RUNTIME", to: "1"),
                .unsafeFlags([
                    "-fobjc-runtime=gcc", "-fblocks", "-fexceptions", "-fobjc-exceptions", "-fconstant-string-class=NSConstantString",
                    "-isystem", objcIncludeDirectory, "-isystem", "/usr/include/GNUstep", "-Wno-deprecated-declarations",
                ]),
            ],
            linkerSettings: [
                .linkedLibrary("gnustep-base"), .linkedLibrary("objc"), .linkedLibrary("BlocksRuntime"), .linkedLibrary("ffi"), .linkedLibrary("dl"),
                .unsafeFlags(nativeRuntimeSymbols.flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] }),
            ]
        ),
        // The runtime operations of the hook contract on the real runtime.
        strictTarget("AutoTrackObjCBackend", ["AutoTrackLocking", "CObjCRuntimeBridge", "AutoTrackInterception", "AutoTrackMethodWrapping", "AutoTrackRuntime"]),
        // Hooks written in C or Objective-C against the real runtime (autotrack_hook.h),
        // loaded from shared libraries and run through the package's combinator.
        .target(
            name: "AutoTrackNativeHooks",
            dependencies: ["AutoTrackLocking", "CAutoTrackHook", "AutoTrackObjCBackend", "AutoTrackInterception", "AutoTrackHooks",
                           "AutoTrackReferenceUI", "AutoTrackRuntime"],
            swiftSettings: strictSettings
        ),
        // The differential oracle: random programs of runtime operations on the model and
        // the real runtime, compared send by send.
        strictTarget("AutoTrackRuntimeOracle", ["AutoTrackLocking", "AutoTrackRuntime", "AutoTrackEvents", "AutoTrackObjCBackend", "CObjCRuntimeBridge"]),
        .testTarget(
            name: "AutoTrackObjCBackendTests",
            dependencies: ["AutoTrackLocking", "AutoTrackSampleApp", 
                "AutoTrackObjCBackend", "AutoTrackRuntimeOracle", "AutoTrackRuntime", "AutoTrackInterception",
                "AutoTrackMethodWrapping", "AutoTrackEvents", "AutoTrackProperties", "CObjCRuntimeBridge", "AutoTrackConformanceCore", "AutoTrackConformance",
                "AutoTrackHooks", "AutoTrackReferenceUI", "AutoTrackNativeHooks",
            ],
            swiftSettings: strictSettings
        ),
    ]
    // The real runtime for hook authors: the backend (`MirroredRuntime`), hook libraries
    // written in C or Objective-C (`NativeHookLibrary`) and their header. Its bridge has
    // unsafe flags, so a package depends on it by branch or revision, not by version.
    package.products.append(
        .library(name: "AutoTrackRealRuntime", targets: ["AutoTrackObjCBackend", "AutoTrackNativeHooks", "CAutoTrackHook"]))
    for target in package.targets where target.name == "AutoTrackCLI" {
        target.dependencies += ["AutoTrackObjCBackend", "AutoTrackRuntimeOracle", "AutoTrackNativeHooks"]
        // A condition, not canImport: a module left in .build by an earlier build
        // would satisfy canImport after the packages are gone.
        target.swiftSettings = (target.swiftSettings ?? []) + [.define("AUTOTRACK_OBJC")]
    }
}

// MARK: - SQLite, for the benchmark's comparison (optional)

/// The system's SQLite (Debian's `libsqlite3-dev`): with it `autotrack bench pipeline`
/// stores the same events in SQLite as peers' queues do, side by side with ours.
/// Detected like the runtime above; `AUTOTRACK_SQLITE=0` leaves it out.
if ProcessInfo.processInfo.environment["AUTOTRACK_SQLITE"] != "0", FileManager.default.fileExists(atPath: "/usr/include/sqlite3.h") {
    package.targets.append(.systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]))
    for target in package.targets where ["AutoTrackCLI", "AutoTrackCLITests"].contains(target.name) {
        if target.name == "AutoTrackCLI" { target.dependencies.append("CSQLite") }
        target.swiftSettings = (target.swiftSettings ?? []) + [.define("AUTOTRACK_SQLITE")]
    }
}
