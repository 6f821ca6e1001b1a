import AutoTrack
import AutoTrackEvents
import AutoTrackJSONHost
import AutoTrackProperties
import AutoTrackSerialization
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// The C entry points declared in `autotrack.h` (the `CAutoTrack` target). Each one
// checks its pointers, turns every failure into a message for `error`, and never traps
// on input. They are `package`, not internal: a whole-module (release) build gives
// internal symbols hidden visibility, and libAutoTrackC would then export none of them
// (`.ci/check-c-clients` checks both builds); not `public`, so that Swift clients see
// no unsafe pointers.

/// The `char **error` out-parameter of the C API.
package typealias ErrorOut = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

/// A tracker as C holds it: retained by `autotrack_tracker_create`, released by
/// `autotrack_tracker_destroy`.
final class CTrackerHandle: Sendable {
    let tracker: Tracker
    /// Automatic capture for the host's JSON element trees, through the tracker's
    /// interaction context.
    let hostAdapter: JSONHostAdapter

    init(tracker: Tracker) {
        self.tracker = tracker
        hostAdapter = JSONHostAdapter(tracker: tracker)
    }

    /// The handle behind `pointer`, not retained.
    static func from(_ pointer: OpaquePointer?) throws(CAPIError) -> CTrackerHandle {
        guard let pointer else { throw CAPIError("tracker is NULL") }
        return Unmanaged<CTrackerHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}

enum CStrings {
    /// `text` as UTF-8 bytes, or the error naming `argument` when it is NULL.
    static func bytes(_ text: UnsafePointer<CChar>?, _ argument: String) throws(CAPIError) -> [UInt8] {
        guard let text else { throw CAPIError("\(argument) is NULL") }
        return Array(UnsafeRawBufferPointer(start: text, count: strlen(text)))
    }

    /// `text` as a string (invalid UTF-8 is an error, not repaired).
    static func string(_ text: UnsafePointer<CChar>?, _ argument: String) throws(CAPIError) -> String {
        let utf8 = try bytes(text, argument)
        guard let decoded = String(validating: utf8, as: UTF8.self) else { throw CAPIError("\(argument) is not valid UTF-8") }
        return decoded
    }

    /// Properties from an optional JSON object (NULL or empty: none).
    static func properties(_ json: UnsafePointer<CChar>?, _ argument: String) throws(CAPIError) -> Properties {
        guard let json, json.pointee != 0 else { return [:] }
        do {
            return try EventJSONDecoder().decodeProperties(from: try bytes(json, argument))
        } catch let error as CAPIError {
            throw error
        } catch {
            throw CAPIError("\(argument): \(error)")
        }
    }

    /// Sets `*error` to a copy of `message` (freed with `autotrack_string_free`), when
    /// the caller passed somewhere to put it.
    static func report(_ message: String?, to errorOut: ErrorOut) {
        guard let errorOut else { return }
        errorOut.pointee = message.flatMap { strdup($0) }
    }
}

/// Runs `body`: 0 with `*error` NULL when it succeeds, -1 with the message in `*error`
/// when it throws.
func reporting(_ errorOut: ErrorOut, _ body: () throws -> Void) -> Int32 {
    do {
        try body()
        CStrings.report(nil, to: errorOut)
        return 0
    } catch let failure as CAPIError {
        CStrings.report(failure.description, to: errorOut)
        return -1
    } catch {
        CStrings.report(String(describing: error), to: errorOut)
        return -1
    }
}

@_cdecl("autotrack_tracker_create")
package func autotrack_tracker_create(_ configurationJSON: UnsafePointer<CChar>?, _ errorOut: ErrorOut) -> OpaquePointer? {
    do {
        let configuration = try CConfiguration(json: try CStrings.bytes(configurationJSON, "configuration_json")).configuration
        let tracker = try Tracker(configuration: configuration)
        CStrings.report(nil, to: errorOut)
        return OpaquePointer(Unmanaged.passRetained(CTrackerHandle(tracker: tracker)).toOpaque())
    } catch let failure as CAPIError {
        CStrings.report(failure.description, to: errorOut)
    } catch {
        CStrings.report("the tracker could not start: \(error)", to: errorOut)
    }
    return nil
}

@_cdecl("autotrack_tracker_destroy")
package func autotrack_tracker_destroy(_ tracker: OpaquePointer?) {
    guard let tracker else { return }
    let handle = Unmanaged<CTrackerHandle>.fromOpaque(UnsafeRawPointer(tracker))
    handle.takeUnretainedValue().tracker.shutdown()
    handle.release()
}

@_cdecl("autotrack_track")
package func autotrack_track(
    _ tracker: OpaquePointer?, _ event: UnsafePointer<CChar>?, _ propertiesJSON: UnsafePointer<CChar>?, _ errorOut: ErrorOut
) -> Int32 {
    reporting(errorOut) {
        let handle = try CTrackerHandle.from(tracker)
        let name = try CStrings.string(event, "event")
        let properties = try CStrings.properties(propertiesJSON, "properties_json")
        try handle.tracker.track(name, properties: properties)
    }
}

@_cdecl("autotrack_flush")
package func autotrack_flush(_ tracker: OpaquePointer?, _ errorOut: ErrorOut) -> Int32 {
    reporting(errorOut) {
        let report = try CTrackerHandle.from(tracker).tracker.flush()
        if report.deferred { throw CAPIError("the transport is unavailable: events stay queued for the next flush") }
    }
}

@_cdecl("autotrack_identify")
package func autotrack_identify(_ tracker: OpaquePointer?, _ anonymousID: UnsafePointer<CChar>?, _ errorOut: ErrorOut) -> Int32 {
    reporting(errorOut) { try CTrackerHandle.from(tracker).tracker.identify(anonymousID: try CStrings.string(anonymousID, "anonymous_id")) }
}

@_cdecl("autotrack_login")
package func autotrack_login(_ tracker: OpaquePointer?, _ loginID: UnsafePointer<CChar>?, _ errorOut: ErrorOut) -> Int32 {
    reporting(errorOut) { try CTrackerHandle.from(tracker).tracker.login(try CStrings.string(loginID, "login_id")) }
}

@_cdecl("autotrack_logout")
package func autotrack_logout(_ tracker: OpaquePointer?, _ errorOut: ErrorOut) -> Int32 {
    reporting(errorOut) { try CTrackerHandle.from(tracker).tracker.logout() }
}

@_cdecl("autotrack_register_super_properties")
package func autotrack_register_super_properties(_ tracker: OpaquePointer?, _ propertiesJSON: UnsafePointer<CChar>?, _ errorOut: ErrorOut) -> Int32 {
    reporting(errorOut) {
        let handle = try CTrackerHandle.from(tracker)
        _ = try CStrings.bytes(propertiesJSON, "properties_json")
        try handle.tracker.registerSuperProperties(try CStrings.properties(propertiesJSON, "properties_json"))
    }
}

@_cdecl("autotrack_load_settings")
package func autotrack_load_settings(_ tracker: OpaquePointer?, _ settingsJSON: UnsafePointer<CChar>?, _ errorOut: ErrorOut) -> Int32 {
    reporting(errorOut) {
        let handle = try CTrackerHandle.from(tracker)
        try handle.tracker.loadAutoTrackSettings(json: try CStrings.bytes(settingsJSON, "settings_json"))
    }
}

@_cdecl("autotrack_set_consent")
package func autotrack_set_consent(_ tracker: OpaquePointer?, _ consent: UnsafePointer<CChar>?, _ errorOut: ErrorOut) -> Int32 {
    reporting(errorOut) {
        let handle = try CTrackerHandle.from(tracker)
        let name = try CStrings.string(consent, "consent")
        guard let value = TrackingConsent(rawValue: name) else { throw CAPIError("consent is '\(name)'; expected granted, pending or denied") }
        handle.tracker.setConsent(value)
    }
}

@_cdecl("autotrack_diagnostics_json")
package func autotrack_diagnostics_json(_ tracker: OpaquePointer?, _ errorOut: ErrorOut) -> UnsafeMutablePointer<CChar>? {
    var text: String?
    let status = reporting(errorOut) {
        let diagnostics = try CTrackerHandle.from(tracker).tracker.diagnostics
        text = """
            {"queued":\(diagnostics.queued),"delivered":\(diagnostics.delivered),"pending":\(diagnostics.queue.pendingRecords),\
            "store_failures":\(diagnostics.storeFailures),"awaiting_store":\(diagnostics.awaitingStore),\
            "dropped_while_busy":\(diagnostics.droppedWhileBusy),"rejected":\(diagnostics.rejected)}
            """
    }
    guard status == 0, let text else { return nil }
    return strdup(text)
}

@_cdecl("autotrack_host_interaction")
package func autotrack_host_interaction(
    _ tracker: OpaquePointer?, _ treeJSON: UnsafePointer<CChar>?, _ interactionJSON: UnsafePointer<CChar>?, _ errorOut: ErrorOut
) -> Int32 {
    autotrack_host_interaction_scheduled(tracker, treeJSON, interactionJSON, nil, errorOut)
}

@_cdecl("autotrack_host_interaction_scheduled")
package func autotrack_host_interaction_scheduled(
    _ tracker: OpaquePointer?, _ treeJSON: UnsafePointer<CChar>?, _ interactionJSON: UnsafePointer<CChar>?,
    _ nextUpdate: UnsafeMutablePointer<CLongLong>?, _ errorOut: ErrorOut
) -> Int32 {
    nextUpdate?.pointee = -1
    return reporting(errorOut) {
        let handle = try CTrackerHandle.from(tracker)
        let tree = try CStrings.bytes(treeJSON, "tree_json")
        let interaction = try CStrings.bytes(interactionJSON, "interaction_json")
        let deadline: Timestamp?
        do throws(HostTreeError) {
            deadline = try handle.hostAdapter.handle(treeJSON: tree, interactionJSON: interaction)
        } catch {
            throw CAPIError("host interaction: \(error)")
        }
        if let deadline {
            let now = handle.tracker.configuration.clock.now()
            nextUpdate?.pointee = CLongLong(max(0, deadline.millisecondsSince1970 - now.millisecondsSince1970))
        }
    }
}
