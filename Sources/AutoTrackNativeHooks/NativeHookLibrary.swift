import CAutoTrackHook
import AutoTrackInterception
#if canImport(Glibc)
import Glibc
#endif

/// A shared library of hooks written in C or Objective-C against the real runtime
/// (`autotrack_hook.h`), loaded: its hooks as ``NativeHook``s, which the conformance kit
/// runs like any `InterceptionHook` on a reference host whose dispatch the real runtime
/// decides.
///
/// ```swift
/// let library = try NativeHookLibrary(path: "Examples/ObjCHooks/build/libsend_action_exchange.so")
/// for hook in library.hooks { print(hook.name, hook.point) }
/// ```
///
/// The library stays loaded for the process's life: its wrappers may be in the
/// runtime's method tables.
public final class NativeHookLibrary: Sendable {
    /// Where it was loaded from.
    public let path: String
    /// Its hooks, in the order it lists them.
    public let hooks: [NativeHook]

    /// The symbol every hook library exports.
    public static let entrySymbol = "autotrack_hook_library"

    /// Loads the library at `path` and reads its hooks.
    /// - Throws: ``NativeHookLibraryError`` when it cannot be loaded, exports no
    ///   `autotrack_hook_library`, or lists a hook without a name, a known point or
    ///   its functions.
    public init(path: String) throws(NativeHookLibraryError) {
        self.path = path
        guard let handle = dlopen(path, RTLD_NOW | RTLD_GLOBAL) else {
            throw .cannotLoad(path: path, reason: dlerror().map { String(cString: $0) } ?? "dlopen failed")
        }
        guard let symbol = dlsym(handle, Self.entrySymbol) else { throw .noEntrySymbol(path: path) }
        typealias Entry = @convention(c) () -> UnsafePointer<UnsafePointer<autotrack_hook_definition>?>?
        let entry = unsafeBitCast(symbol, to: Entry.self)
        guard let list = entry() else { throw .invalidDefinition(index: 0, reason: "autotrack_hook_library() returned NULL") }
        var hooks: [NativeHook] = []
        var index = 0
        while let definition = list[index] {
            hooks.append(try NativeHook(definition: definition, index: index))
            index += 1
            guard index < 1024 else { throw .invalidDefinition(index: index, reason: "the list has no NULL end within 1024 hooks") }
        }
        self.hooks = hooks
    }
}

/// Why a hook library was refused.
public enum NativeHookLibraryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `dlopen` failed.
    case cannotLoad(path: String, reason: String)
    /// The library does not export `autotrack_hook_library`.
    case noEntrySymbol(path: String)
    /// A hook's definition is unusable.
    case invalidDefinition(index: Int, reason: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .cannotLoad(let path, let reason): "cannot load \(path): \(reason)"
        case .noEntrySymbol(let path): "\(path) exports no \(NativeHookLibrary.entrySymbol)() (see autotrack_hook.h)"
        case .invalidDefinition(let index, let reason): "hook \(index) of the library: \(reason)"
        }
    }
}

extension InterceptionPoint {
    /// The points a native hook may name, by name.
    static let nativeHookPoints: [String: InterceptionPoint] = Dictionary(
        uniqueKeysWithValues: (InterceptionPoint.uiKit + InterceptionPoint.uiKitApplication).map { ($0.name, $0) })
}
