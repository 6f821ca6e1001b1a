import Foundation

/// `autotrack cflags` and `autotrack ldflags`: what a hook library written in C or
/// Objective-C compiles and links with — GCC's Objective-C runtime ABI and GNUstep Base
/// (as the package's real-runtime backend is built), `autotrack_hook.h`, and the
/// reference host's UIKit declarations (`#import <UIKit/UIKit.h>`).
///
/// ```sh
/// clang $(autotrack cflags) -o libmyhooks.so myhooks.m $(autotrack ldflags)
/// autotrack conformance --hook-library ./libmyhooks.so
/// ```
enum HookFlagsCommand {
    /// `cflags`.
    case compile
    /// `ldflags`.
    case link

    /// GCC's Objective-C headers (`<dir>/objc/runtime.h`), as the package finds them.
    static var objcIncludeDirectory: String? {
        let files = FileManager.default
        let gcc = "/usr/lib/gcc"
        for triple in (try? files.contentsOfDirectory(atPath: gcc))?.sorted() ?? [] {
            for version in ((try? files.contentsOfDirectory(atPath: "\(gcc)/\(triple)")) ?? []).sorted().reversed() {
                let include = "\(gcc)/\(triple)/\(version)/include"
                if files.fileExists(atPath: "\(include)/objc/runtime.h") { return include }
            }
        }
        return nil
    }

    /// The flags, one line.
    var flags: String {
        let root = PkgConfigCommand.packageRoot
        switch self {
        case .compile:
            var flags = [
                "-fobjc-runtime=gcc", "-fblocks", "-fexceptions", "-fobjc-exceptions", "-fconstant-string-class=NSConstantString",
                "-DGNUSTEP", "-DGNUSTEP_BASE_LIBRARY=1", "-DGNU_RUNTIME=1", "-fPIC",
            ]
            if let objc = Self.objcIncludeDirectory { flags += ["-isystem", objc] }
            flags += [
                "-isystem", "/usr/include/GNUstep", "-I\(root)/Sources/CObjCRuntimeBridge/shim", "-I\(root)/Sources/CAutoTrackHook/include",
                "-I\(root)/Sources/CAutoTrackHook", "-Wno-deprecated-declarations",
            ]
            return flags.joined(separator: " ")
        case .link:
            return "-shared -lobjc -lgnustep-base"
        }
    }

    func run() -> Int32 {
        print(flags)
        return 0
    }
}
