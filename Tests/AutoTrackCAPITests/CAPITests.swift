import CAutoTrack
import Foundation
import Synchronization
import Testing

/// The C API through its header, as a C host calls it: configurations refused with
/// messages, events from many threads stored once, consent and settings.
@Suite("The C API")
struct CAPITests {
    /// Calls `body` with an error slot; the message set, if any, freed and returned.
    static func message(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Void) -> String? {
        var slot: UnsafeMutablePointer<CChar>?
        body(&slot)
        defer { autotrack_string_free(slot) }
        return slot.map { String(cString: $0) }
    }

    static func directory(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("capi-\(name)-\(UUID().uuidString)").path
    }

    static func create(_ json: String) throws -> OpaquePointer {
        var tracker: OpaquePointer?
        let error = message { tracker = autotrack_tracker_create(json, $0) }
        return try #require(tracker, "\(error ?? "no message")")
    }

    static func counter(_ tracker: OpaquePointer, _ key: String) throws -> Int {
        let text = try #require(autotrack_diagnostics_json(tracker, nil))
        defer { autotrack_string_free(text) }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(String(cString: text).utf8)) as? [String: Any])
        return try #require(object[key] as? Int)
    }

    @Test("a configuration the API cannot use is refused with a message naming what is wrong", arguments: [
        (#"[]"#, "expected a JSON object"),
        (#"{}"#, "'store_directory' is required"),
        (#"{"store_directory": 7}"#, "must be a string"),
        (#"{"store_directory": "/tmp/x", "transport": "carrier-pigeon"}"#, "expected ndjson, http or none"),
        (#"{"store_directory": "/tmp/x", "transport": "http"}"#, "needs 'endpoint'"),
        (#"{"store_directory": "/tmp/x", "transport": "http", "endpoint": "ftp://host"}"#, "needs 'endpoint'"),
        (#"{"store_directory": "/tmp/x", "wire_format": "xml"}"#, "'wire_format' is read by transport 'http' only, and the transport is 'ndjson'"),
        (#"{"store_directory": "/tmp/x", "transport": "none", "timeout_seconds": "x"}"#, "'timeout_seconds' is read by transport 'http' only"),
        (#"{"store_directory": "/tmp/x", "transport": "http", "endpoint": "http://h", "ndjson_file": "/tmp/f"}"#,
         "'ndjson_file' is read by transport 'ndjson' only, and the transport is 'http'"),
        (#"{"store_directory": "/tmp/x", "flush_batch_size": 0}"#, "'flush_batch_size' must be in"),
        (#"{"store_directory": "/tmp/x", "consent": "maybe"}"#, "expected granted, pending or denied"),
        (#"{"store_directory": "/tmp/x", "settings": {"event_types": ["$Nope"]}}"#, "settings:"),
        (#"{"store_directory": "/tmp/x", "storeDirectory": "/tmp/y"}"#, "unknown key 'storeDirectory'"),
    ])
    func refusedConfigurations(json: String, expected: String) {
        var tracker: OpaquePointer?
        let error = Self.message { tracker = autotrack_tracker_create(json, $0) }
        #expect(tracker == nil)
        #expect(error?.contains(expected) == true, "\(error ?? "no message")")
    }

    @Test("events tracked from 8 threads at once are all stored, once; a NULL error slot is allowed")
    func manyThreads() throws {
        let directory = Self.directory("threads")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tracker = try Self.create(#"{"store_directory": "\#(directory)", "transport": "none", "flush_interval_seconds": 0}"#)
        defer { autotrack_tracker_destroy(tracker) }
        // Unchecked: the C API is thread-safe on one tracker; that is what is tested.
        nonisolated(unsafe) let shared = tracker
        let failed = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for sequence in 0..<500 where autotrack_track(shared, "threaded", #"{"thread": \#(thread), "seq": \#(sequence)}"#, nil) != 0 {
                failed.add(1, ordering: .relaxed)
            }
        }
        #expect(failed.load(ordering: .relaxed) == 0)
        #expect(autotrack_flush(tracker, nil) == 0)
        #expect(try Self.counter(tracker, "queued") == 4000)
        #expect(try Self.counter(tracker, "delivered") == 4000)
    }

    @Test("consent pending keeps events unsent; granted sends them; settings load key by key")
    func consentAndSettings() throws {
        let directory = Self.directory("consent")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tracker = try Self.create(#"{"store_directory": "\#(directory)", "consent": "pending", "flush_interval_seconds": null}"#)
        defer { autotrack_tracker_destroy(tracker) }
        #expect(autotrack_track(tracker, "kept", nil, nil) == 0)
        #expect(autotrack_flush(tracker, nil) == 0)
        #expect(try Self.counter(tracker, "delivered") == 0)
        #expect(try Self.counter(tracker, "pending") == 1)
        #expect(autotrack_set_consent(tracker, "granted", nil) == 0)
        #expect(autotrack_flush(tracker, nil) == 0)
        #expect(try Self.counter(tracker, "delivered") == 1)
        #expect(autotrack_load_settings(tracker, #"{"dead_click_timeout": 0.8}"#, nil) == 0)
        let refused = Self.message { #expect(autotrack_load_settings(tracker, #"{"nope": 1}"#, $0) == -1) }
        #expect(refused?.contains("nope") == true, "\(refused ?? "no message")")
    }

    @Test("identity and super properties reach the events; bad identities are refused")
    func identity() throws {
        let directory = Self.directory("identity")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/out.ndjson"
        let tracker = try Self.create(#"{"store_directory": "\#(directory)/store", "ndjson_file": "\#(file)", "flush_interval_seconds": 0}"#)
        #expect(autotrack_identify(tracker, "device-1", nil) == 0)
        #expect(autotrack_register_super_properties(tracker, #"{"channel": "store"}"#, nil) == 0)
        #expect(autotrack_track(tracker, "anonymous", nil, nil) == 0)
        #expect(autotrack_login(tracker, "user-9", nil) == 0)
        #expect(autotrack_track(tracker, "known", nil, nil) == 0)
        #expect(autotrack_logout(tracker, nil) == 0)
        let empty = Self.message { #expect(autotrack_login(tracker, "", $0) == -1) }
        #expect(empty != nil)
        #expect(autotrack_flush(tracker, nil) == 0)
        autotrack_tracker_destroy(tracker)
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        let events = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(events.map { $0["distinct_id"] as? String } == ["device-1", "user-9"])
        #expect(events.allSatisfy { ($0["properties"] as? [String: Any])?["channel"] as? String == "store" })
    }

    @Test("a host's element tree and tap through the C API become a screen view and a click; a bad tree gets a message")
    func hostInteraction() throws {
        let directory = Self.directory("host")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/out.ndjson"
        let tracker = try Self.create(#"{"store_directory": "\#(directory)/store", "ndjson_file": "\#(file)", "flush_interval_seconds": 0}"#)
        let tree = #"""
            {"screen": {"type": "CartScreen", "title": "Cart"},
             "root": {"type": "RCTView", "children": [{"type": "RCTTouchableOpacity", "role": "button", "tag": 3, "text": "Check out"}]}}
            """#
        #expect(autotrack_host_interaction(tracker, tree, #"{"kind": "screen_view"}"#, nil) == 0)
        #expect(autotrack_host_interaction(tracker, tree, #"{"kind": "tap", "target": 3}"#, nil) == 0)
        let refused = Self.message { #expect(autotrack_host_interaction(tracker, tree, #"{"kind": "tap", "target": 4}"#, $0) == -1) }
        #expect(refused?.contains("no node has the tag '4'") == true, "\(refused ?? "no message")")
        #expect(autotrack_host_interaction(tracker, nil, nil, nil) == -1)
        #expect(autotrack_flush(tracker, nil) == 0)
        autotrack_tracker_destroy(tracker)
        let events = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(events.map { $0["event"] as? String } == ["$AppViewScreen", "$AppClick"])
        let click = try #require(events.last?["properties"] as? [String: Any])
        #expect(click["$element_content"] as? String == "Check out")
        #expect(click["$screen_name"] as? String == "CartScreen")
    }

    @Test("a host's watched node through the C API: one exposure per appearance, and when to send the tree again for a minimum duration")
    func hostExposure() throws {
        let directory = Self.directory("host-exposure")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/out.ndjson"
        let tracker = try Self.create(#"{"store_directory": "\#(directory)/store", "ndjson_file": "\#(file)", "flush_interval_seconds": 0}"#)
        func tree(_ exposure: String, tag: String = "banner") -> String {
            #"""
            {"window": {"type": "UIWindow", "frame": [0, 0, 390, 844]}, "screen": {"type": "HomeScreen"},
             "root": {"type": "RCTView", "frame": [0, 0, 390, 844], "children": [
               {"type": "RCTImage", "tag": "\#(tag)", "frame": [0, 0, 390, 120], "exposure": \#(exposure)}]}}
            """#
        }
        var next: CLongLong = 0
        #expect(autotrack_host_interaction_scheduled(tracker, tree("true"), #"{"kind": "layout"}"#, &next, nil) == 0)
        #expect(next == -1, "recorded at once: nothing pending")
        #expect(autotrack_host_interaction(tracker, tree("true"), #"{"kind": "layout"}"#, nil) == 0)
        let waiting = tree(#"{"min_duration_ms": 60000, "event": "BannerSeen"}"#, tag: "next-banner")
        #expect(autotrack_host_interaction_scheduled(tracker, waiting, #"{"kind": "layout"}"#, &next, nil) == 0)
        #expect((0...60_000).contains(next), "\(next)")
        let refused = Self.message {
            #expect(autotrack_host_interaction_scheduled(tracker, tree(#"{"min_visible_ratio": -1}"#), #"{"kind": "layout"}"#, &next, $0) == -1)
        }
        #expect(refused?.contains("visible ratio") == true, "\(refused ?? "no message")")
        #expect(next == -1)
        #expect(autotrack_flush(tracker, nil) == 0)
        autotrack_tracker_destroy(tracker)
        let events = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(events.map { $0["event"] as? String } == ["$AppElementExposure"])
        #expect((events.first?["properties"] as? [String: Any])?["$element_type"] as? String == "RCTImage")
    }
}
