/// AutoTrackInterception: `HookedMethod` appears in this file's public API.
public import AutoTrackInterception
import AutoTrackReferenceUI
/// AutoTrackSampleApp: `AppLog` appears in this file's public API.
public import AutoTrackSampleApp
/// AutoTrackRuntime: `Message`, `Runtime` appear in this file's public API.
public import AutoTrackRuntime

/// Hooks of other libraries, as they are commonly written, for coexistence scenarios.
/// Each logs its name into the app's log whenever it fires, then calls what it wraps.
public enum OtherLibraryHooks {
    /// The method `hooked` names in `runtime`.
    static func method(_ hooked: HookedMethod, in runtime: Runtime) -> (RuntimeClass, RuntimeMethod)? {
        guard var cls = runtime.lookUpClass(hooked.className) else { return nil }
        if hooked.isClassMethod { cls = cls.metaclass }
        guard let method = runtime.method(Selector(hooked.selector), in: cls) else { return nil }
        return (cls, method)
    }

    /// The classic exchange style: add `<library>_<selector>` and exchange it with the
    /// method (after giving the class its own copy when it only inherits it). The
    /// wrapper logs an entry of `library` with the selector (unless not `logging`) and
    /// calls "the original" through its prefixed selector. Returns the undo.
    @discardableResult
    public static func exchange(
        _ hooked: HookedMethod, as library: AppLogEntry.Kind, runtime: Runtime, log: AppLog, logging: Bool = true
    ) -> (@Sendable () -> Void)? {
        let prefix = library.name
        guard let (cls, found) = method(hooked, in: runtime) else { return nil }
        let selector = Selector(hooked.selector)
        let swizzled = Selector("\(prefix)_\(hooked.selector)")
        if found.owner !== cls { runtime.addMethod(to: cls, selector, found.implementation, types: found.typeEncoding) }
        runtime.addMethod(to: cls, swizzled, Implementation("\(prefix) \(selector)") { message throws(RuntimeError) in
            if logging { log.record(AppLogEntry(library, detail: selector.name)) }
            return try message.runtime.send(message.receiver, swizzled, message.arguments)
        }, types: found.typeEncoding)
        guard let own = runtime.method(selector, in: cls), let added = runtime.method(swizzled, in: cls) else { return nil }
        runtime.exchangeImplementations(own, added)
        return { runtime.exchangeImplementations(own, added) }
    }

    /// The implementation-replacing style (`method_setImplementation` keeping the old
    /// `IMP`); the wrapper logs an entry of `library` with the selector (or what `entry`
    /// returns). Returns the undo, which restores blindly — as such libraries do.
    @discardableResult
    public static func replace(
        _ hooked: HookedMethod, as library: AppLogEntry.Kind, runtime: Runtime, log: AppLog, logging: Bool = true,
        entry: @escaping @Sendable (Message) -> AppLogEntry? = { _ in nil }
    ) -> (@Sendable () -> Void)? {
        let name = library.name
        guard let (cls, found) = method(hooked, in: runtime) else { return nil }
        let selector = Selector(hooked.selector)
        if found.owner !== cls { runtime.addMethod(to: cls, selector, found.implementation, types: found.typeEncoding) }
        guard let own = runtime.method(selector, in: cls) else { return nil }
        let original = own.implementation
        runtime.setImplementation(of: own, to: Implementation("\(name) \(selector)") { message throws(RuntimeError) in
            if logging { log.record(entry(message) ?? AppLogEntry(library, detail: selector.name)) }
            return try original.body(message)
        })
        return { runtime.setImplementation(of: own, to: original) }
    }

    /// A selector probe: a replace-style wrapper logging an `AppLogEntry.Kind.selectorProbe`
    /// entry with the selector the call arrived with, to see whether a hook renamed it.
    @discardableResult
    public static func selectorProbe(_ hooked: HookedMethod, runtime: Runtime, log: AppLog) -> (@Sendable () -> Void)? {
        replace(hooked, as: AppLogEntry.Kind("probe"), runtime: runtime, log: log) { message in
            AppLogEntry(.selectorProbe, detail: "\(message.selector)")
        }
    }
}
