import Foundation

/// `autotrack pkg-config [--out DIR]`: the pkg-config file of the C API for this
/// build — the header in the package, `libAutoTrackC` beside this executable (build it
/// with `swift build --product AutoTrackC`) — printed, or written to `DIR/autotrack.pc`
/// so that `PKG_CONFIG_PATH=DIR pkg-config --cflags --libs autotrack` works.
struct PkgConfigCommand {
    let outputDirectory: String?

    /// The `.pc` text for a package at `packageRoot` built into `libraryDirectory`.
    static func text(packageRoot: String, libraryDirectory: String) -> String {
        """
        prefix=\(packageRoot)
        includedir=${prefix}/Sources/CAutoTrack/include
        libdir=\(libraryDirectory)

        Name: autotrack
        Description: AutoTrack analytics core, C API (autotrack.h)
        Version: 1.0
        Cflags: -I${includedir}
        Libs: -L${libdir} -lAutoTrackC -Wl,-rpath,${libdir}

        """
    }

    /// The package's root, above `Sources/AutoTrackCLI/Commands`.
    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    /// The folder the running executable is in: where SwiftPM puts the library too.
    static var libraryDirectory: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().standardizedFileURL.path
    }

    func run() throws -> Int32 {
        let text = Self.text(packageRoot: Self.packageRoot, libraryDirectory: Self.libraryDirectory)
        guard let outputDirectory else {
            print(text, terminator: "")
            return 0
        }
        let directory = URL(fileURLWithPath: outputDirectory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("autotrack.pc")
        try Data(text.utf8).write(to: file)
        let library = URL(fileURLWithPath: Self.libraryDirectory).appendingPathComponent("libAutoTrackC.so")
        print("wrote \(file.path)")
        if !FileManager.default.fileExists(atPath: library.path) {
            print("note: \(library.path) is not built yet: swift build --product AutoTrackC")
        }
        return 0
    }
}

extension PkgConfigCommand {
    enum Options {
        static let out = CommandOption("--out", .text("DIR"), help: "write DIR/autotrack.pc instead of printing it")
        static let all = [out.declared]
    }
}
