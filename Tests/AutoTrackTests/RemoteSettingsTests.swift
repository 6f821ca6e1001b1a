import AutoTrack
import AutoTrackCollector
import AutoTrackEvents
import AutoTrackTesting
import Foundation
import Testing

/// Settings fetched from a URL — the local collector serving a document — applied key
/// by key, kept on disk, asked for with `If-None-Match`; invalid documents refused and
/// counted; failures backed off; the last good document applied at the next start.
@Suite("Remote settings")
struct RemoteSettingsTests {
    static func source(_ collector: LocalCollector) -> RemoteSettingsSource {
        RemoteSettingsSource(url: URL(string: "http://127.0.0.1:\(collector.port)/config")!, interval: .seconds(3600), retryDelay: .seconds(5), timeout: 5)
    }

    @Test("a document is applied and kept; asked again, the server answers 304 and nothing changes")
    func appliedThenUnchanged() throws {
        let collector = try LocalCollector()
        defer { collector.stop() }
        collector.serveSettings(Array(#"{"event_types": ["$AppClick", "$AppDeadClick"], "dead_click_timeout": 2}"#.utf8))
        let directory = temporaryDirectory("remote-settings")
        defer { try? FileManager.default.removeItem(at: directory) }
        let memory = try InMemoryTracker(storeDirectory: directory) { $0.remoteSettings = Self.source(collector) }
        memory.tracker.refreshRemoteSettings()
        #expect(memory.tracker.autoTrackSettings.eventTypes == [.appClick, .appDeadClick])
        #expect(memory.tracker.autoTrackSettings.deadClickTimeout == .seconds(2))
        #expect(memory.tracker.refreshRemoteSettings() == .unchanged)
        let diagnostics = memory.tracker.diagnostics.remoteSettings
        #expect(diagnostics.applied == 1)
        #expect(collector.counts.settingsServed == 1, "one document sent; the other fetches were conditional")
        #expect(collector.counts.settingsNotModified >= 1)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("remote_settings.json").path))
        memory.close()
    }

    @Test("an invalid document is refused and counted; the settings in force stay; a valid one after it applies")
    func refusedThenApplied() throws {
        let collector = try LocalCollector()
        defer { collector.stop() }
        collector.serveSettings(Array(#"{"event_types": ["$AppClick"]}"#.utf8))
        let directory = temporaryDirectory("remote-settings-invalid")
        defer { try? FileManager.default.removeItem(at: directory) }
        let memory = try InMemoryTracker(storeDirectory: directory) { $0.remoteSettings = Self.source(collector) }
        memory.tracker.refreshRemoteSettings()
        collector.serveSettings(Array(#"{"event_types": ["$AppClack"]}"#.utf8))
        guard case .refused(let reason) = memory.tracker.refreshRemoteSettings() else {
            Issue.record("expected a refusal")
            return
        }
        #expect(reason.contains("$AppClack"))
        #expect(memory.tracker.autoTrackSettings.eventTypes == [.appClick], "the document in force stays")
        #expect(memory.tracker.diagnostics.remoteSettings.refused == 1)
        collector.serveSettings(Array(#"{"event_types": ["$AppViewScreen"]}"#.utf8))
        #expect(memory.tracker.refreshRemoteSettings() == .applied([.eventTypes]))
        #expect(memory.tracker.autoTrackSettings.eventTypes == [.appViewScreen])
        memory.close()
    }

    @Test("with the server gone, the next launch applies the kept document before any fetch; failures back off")
    func keptAcrossLaunches() throws {
        let collector = try LocalCollector()
        collector.serveSettings(Array(#"{"event_types": ["$AppClick"], "ignored_screens": ["DebugViewController"]}"#.utf8))
        let directory = temporaryDirectory("remote-settings-kept")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = Self.source(collector)
        let first = try InMemoryTracker(storeDirectory: directory) { $0.remoteSettings = source }
        first.tracker.refreshRemoteSettings()
        first.close()
        collector.stop()
        let second = try InMemoryTracker(storeDirectory: directory) { $0.remoteSettings = source }
        #expect(second.tracker.autoTrackSettings.eventTypes == [.appClick], "applied at start, from the store")
        #expect(second.tracker.autoTrackSettings.ignoredScreenTypes == ["DebugViewController"])
        guard case .failed = second.tracker.refreshRemoteSettings() else {
            Issue.record("expected a failure with the server gone")
            return
        }
        let diagnostics = second.tracker.diagnostics.remoteSettings
        #expect(diagnostics.failures >= 1)
        let expected = Duration.seconds(5) * (1 << (diagnostics.failures - 1))
        #expect(diagnostics.nextFetchAfter == expected, "backs off from the retry delay")
        #expect(second.tracker.autoTrackSettings.eventTypes == [.appClick], "a failure changes nothing")
        second.close()
    }

    @Test("a tracker without a source says so")
    func notConfigured() throws {
        let memory = try InMemoryTracker()
        #expect(memory.tracker.refreshRemoteSettings() == .notConfigured)
        memory.close()
    }
}
