// swift-tools-version: 6.2
import PackageDescription

/// Language settings every target shares: Swift 6 mode plus the upcoming features
/// that keep imports honest and existentials explicit.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "AutoTrack",
    products: [
        .library(name: "AutoTrackEvents", targets: ["AutoTrackEvents"]),
        .library(name: "AutoTrackSerialization", targets: ["AutoTrackSerialization"]),
        .library(name: "AutoTrackProperties", targets: ["AutoTrackProperties"]),
        .library(name: "AutoTrackInterception", targets: ["AutoTrackInterception"]),
        .library(name: "AutoTrackRuntime", targets: ["AutoTrackRuntime"]),
        .library(name: "AutoTrackModelBackend", targets: ["AutoTrackModelBackend"]),
        .library(name: "AutoTrackReferenceUI", targets: ["AutoTrackReferenceUI"]),
        .library(name: "AutoTrackHooks", targets: ["AutoTrackHooks"]),
        .library(name: "AutoTrack", targets: ["AutoTrack"]),
        .library(name: "AutoTrackReferenceHostIntegration", targets: ["AutoTrackReferenceHostIntegration"]),
        .library(name: "AutoTrackSampleSession", targets: ["AutoTrackSampleSession"]),
        .library(name: "AutoTrackCollector", targets: ["AutoTrackCollector"]),
        .library(name: "AutoTrackConformanceCore", targets: ["AutoTrackConformanceCore"]),
        .library(name: "AutoTrackConformance", targets: ["AutoTrackConformance"]),
        .executable(name: "autotrack", targets: ["AutoTrackCLI"]),
    ],
    targets: [
        // System zlib (ships on Apple platforms and in the Linux image) for gzip bodies.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "AutoTrackEvents",
            swiftSettings: strictSettings
        ),
        .target(
            name: "AutoTrackSerialization",
            dependencies: ["AutoTrackEvents", "CZlib"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AutoTrackProperties",
            dependencies: ["AutoTrackEvents"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AutoTrackInterception",
            dependencies: ["AutoTrackEvents", "AutoTrackProperties"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AutoTrackRuntime",
            swiftSettings: strictSettings
        ),
        // The model runtime as a backend of the contract's runtime operations.
        .target(
            name: "AutoTrackModelBackend",
            dependencies: ["AutoTrackRuntime", "AutoTrackInterception"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AutoTrackReferenceUI",
            dependencies: ["AutoTrackEvents", "AutoTrackRuntime", "AutoTrackProperties"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AutoTrackHooks",
            dependencies: [
                "AutoTrackInterception", "AutoTrackReferenceUI", "AutoTrackRuntime", "AutoTrackModelBackend", "AutoTrackProperties",
                "AutoTrackEvents",
            ],
            swiftSettings: strictSettings
        ),
        // The SDK core: knows no runtime, no host and no hook.
        .target(
            name: "AutoTrack",
            dependencies: ["AutoTrackEvents", "AutoTrackSerialization", "AutoTrackProperties", "AutoTrackInterception", "CZlib"],
            swiftSettings: strictSettings
        ),
        // Glue: automatic capture for a Tracker on the reference host, with the built-in hooks.
        .target(
            name: "AutoTrackReferenceHostIntegration",
            dependencies: ["AutoTrack", "AutoTrackHooks", "AutoTrackReferenceUI", "AutoTrackInterception", "AutoTrackRuntime"],
            swiftSettings: strictSettings
        ),
        // Sample support: the scripted session of the demo and the end-to-end tests.
        .target(
            name: "AutoTrackSampleSession",
            dependencies: [
                "AutoTrack", "AutoTrackReferenceHostIntegration", "AutoTrackReferenceUI", "AutoTrackEvents", "AutoTrackProperties",
                "AutoTrackSerialization",
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AutoTrackCollector",
            dependencies: ["AutoTrackEvents", "AutoTrackSerialization"],
            swiftSettings: strictSettings
        ),
        // The conformance kit: a pure engine, and a Swift Testing layer over it.
        .target(
            name: "AutoTrackConformanceCore",
            dependencies: [
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
            dependencies: [
                "AutoTrackEvents", "AutoTrackSerialization", "AutoTrackProperties", "AutoTrackRuntime", "AutoTrackReferenceUI",
                "AutoTrackInterception", "AutoTrackModelBackend", "AutoTrackHooks", "AutoTrackConformanceCore", "AutoTrack",
                "AutoTrackReferenceHostIntegration", "AutoTrackSampleSession", "AutoTrackCollector",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AutoTrackTests",
            dependencies: [
                "AutoTrack", "AutoTrackCollector", "AutoTrackEvents", "AutoTrackSerialization", "AutoTrackProperties", "AutoTrackInterception",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AutoTrackReferenceHostIntegrationTests",
            dependencies: [
                "AutoTrackReferenceHostIntegration", "AutoTrackSampleSession", "AutoTrack", "AutoTrackEvents", "AutoTrackProperties",
                "AutoTrackReferenceUI", "AutoTrackRuntime", "AutoTrackInterception", "AutoTrackHooks", "AutoTrackSerialization",
            ],
            swiftSettings: strictSettings
        ),
        // The README's Swift snippets, compiled and run (.ci/check-readme-snippets keeps them in step).
        .testTarget(
            name: "ReadmeSnippetTests",
            dependencies: [
                "AutoTrack", "AutoTrackConformance", "AutoTrackConformanceCore", "AutoTrackEvents", "AutoTrackHooks",
                "AutoTrackInterception", "AutoTrackProperties", "AutoTrackReferenceHostIntegration", "AutoTrackReferenceUI",
                "AutoTrackRuntime", "AutoTrackSerialization",
            ],
            swiftSettings: strictSettings
        ),
        // The command line: the inspect page in a real browser.
        .testTarget(
            name: "AutoTrackCLITests",
            dependencies: ["AutoTrackSampleSession"],
            swiftSettings: strictSettings
        ),
        // Hooks written as a third party would, from the public API only.
        .testTarget(
            name: "ThirdPartyHookTests",
            dependencies: [
                "AutoTrackConformance", "AutoTrackConformanceCore", "AutoTrackInterception", "AutoTrackModelBackend", "AutoTrackHooks",
                "AutoTrackReferenceUI", "AutoTrackRuntime", "AutoTrackProperties", "AutoTrackEvents",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AutoTrackCollectorTests",
            dependencies: ["AutoTrackCollector", "AutoTrackEvents", "AutoTrackSerialization"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AutoTrackConformanceTests",
            dependencies: ["AutoTrackConformance", "AutoTrackConformanceCore", "AutoTrackInterception", "AutoTrackHooks", "AutoTrackReferenceUI"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AutoTrackEventsTests",
            dependencies: ["AutoTrackEvents"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AutoTrackInterceptionTests",
            dependencies: ["AutoTrackEvents", "AutoTrackProperties", "AutoTrackInterception"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AutoTrackHooksTests",
            dependencies: [
                "AutoTrackEvents", "AutoTrackProperties", "AutoTrackRuntime", "AutoTrackReferenceUI", "AutoTrackInterception",
                "AutoTrackModelBackend", "AutoTrackHooks",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AutoTrackPropertiesTests",
            dependencies: ["AutoTrackEvents", "AutoTrackProperties"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AutoTrackRuntimeTests",
            dependencies: ["AutoTrackRuntime"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AutoTrackReferenceUITests",
            dependencies: ["AutoTrackEvents", "AutoTrackRuntime", "AutoTrackProperties", "AutoTrackReferenceUI"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AutoTrackSerializationTests",
            dependencies: ["AutoTrackEvents", "AutoTrackSerialization", "CZlib"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
