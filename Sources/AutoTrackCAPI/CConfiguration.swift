import AutoTrack
import AutoTrackEvents
import AutoTrackProperties
import AutoTrackSerialization
import Foundation

/// The JSON configuration of `autotrack_tracker_create`, read into a
/// `TrackerConfiguration`: every key documented in `autotrack.h`, an unknown key an
/// error (a misspelt key must not be silently ignored).
struct CConfiguration {
    /// The keys `autotrack.h` documents.
    static let keys: [String] = [
        "store_directory", "transport", "ndjson_file", "endpoint", "wire_format", "timeout_seconds", "flush_batch_size",
        "flush_interval_seconds", "sync_each_batch", "app_version", "consent", "capture_crashes", "settings", "remote_settings_url",
        "remote_settings_interval_seconds",
    ]

    let configuration: TrackerConfiguration

    init(json bytes: some Collection<UInt8>) throws(CAPIError) {
        let document: JSONValue
        do {
            document = try JSONParser().parse(bytes)
        } catch {
            throw CAPIError("configuration: \(error)")
        }
        guard case .object(let members) = document else { throw CAPIError("configuration: expected a JSON object, found \(document.typeName)") }
        for member in members where !Self.keys.contains(member.key) {
            throw CAPIError("configuration: unknown key '\(member.key)' (known: \(Self.keys.joined(separator: ", ")))")
        }
        let reader = Reader(document: document)
        guard let store = try reader.string("store_directory"), !store.isEmpty else {
            throw CAPIError("configuration: 'store_directory' is required (a directory path)")
        }
        let storeDirectory = URL(fileURLWithPath: store)
        var configuration = TrackerConfiguration(
            storeDirectory: storeDirectory, device: .current(appVersion: try reader.string("app_version") ?? "1.0"),
            transport: try Self.transport(reader, storeDirectory: storeDirectory),
            flushPolicy: try Self.flushPolicy(reader), syncEachBatch: try reader.bool("sync_each_batch") ?? false,
            capturesCrashes: try reader.bool("capture_crashes") ?? false)
        if let consent = try reader.string("consent") {
            guard let value = TrackingConsent(rawValue: consent) else {
                throw CAPIError("configuration: 'consent' is '\(consent)'; expected granted, pending or denied")
            }
            configuration.initialConsent = value
        }
        if document["remote_settings_interval_seconds"] != nil, document["remote_settings_url"] == nil {
            throw CAPIError("configuration: 'remote_settings_interval_seconds' needs 'remote_settings_url'")
        }
        if let text = try reader.string("remote_settings_url") {
            guard let url = URL(string: text), url.scheme?.hasPrefix("http") == true else {
                throw CAPIError("configuration: 'remote_settings_url' must be an http or https URL")
            }
            let seconds = try reader.number("remote_settings_interval_seconds") ?? 600
            guard seconds >= 1, seconds <= 86_400 else { throw CAPIError("configuration: 'remote_settings_interval_seconds' must be in 1…86400") }
            configuration.remoteSettings = RemoteSettingsSource(url: url, interval: .milliseconds(Int64(seconds * 1000)))
        }
        if let settings = document["settings"] {
            guard case .object = settings else { throw CAPIError("configuration: 'settings' must be an object, not \(settings.typeName)") }
            do throws(AutoTrackSettingsError) {
                configuration.autoTrackSettings = try AutoTrackSettings.standard.applying(document: settings)
            } catch {
                throw CAPIError("configuration: settings: \(error)")
            }
        }
        self.configuration = configuration
    }

    /// The keys only one transport reads: given for another, they would be ignored.
    static let transportKeys: KeyValuePairs<String, [String]> = ["ndjson": ["ndjson_file"], "http": ["endpoint", "wire_format", "timeout_seconds"]]

    static func transport(_ reader: Reader, storeDirectory: URL) throws(CAPIError) -> TransportChoice {
        let chosen = try reader.string("transport") ?? "ndjson"
        for (owner, keys) in transportKeys where owner != chosen {
            if let key = keys.first(where: { reader.document[$0] != nil }) {
                throw CAPIError("configuration: '\(key)' is read by transport '\(owner)' only, and the transport is '\(chosen)'")
            }
        }
        switch chosen {
        case "ndjson":
            let file = try reader.string("ndjson_file").map { URL(fileURLWithPath: $0) }
            return .localFile(file ?? storeDirectory.appendingPathComponent("events.ndjson"))
        case "http":
            guard let text = try reader.string("endpoint"), let endpoint = URL(string: text), endpoint.scheme?.hasPrefix("http") == true else {
                throw CAPIError("configuration: transport 'http' needs 'endpoint', an http or https URL")
            }
            let formatName = try reader.string("wire_format") ?? CollectorWireFormat.sensorsForm.rawValue
            guard let format = CollectorWireFormat(rawValue: formatName) else {
                throw CAPIError("configuration: 'wire_format' is '\(formatName)'; expected sensors-form or json")
            }
            let timeout = try reader.number("timeout_seconds") ?? 10
            guard timeout > 0, timeout <= 600 else { throw CAPIError("configuration: 'timeout_seconds' must be in (0, 600]") }
            return .http(endpoint: endpoint, wireFormat: format, timeout: timeout)
        case "none":
            return .custom(DiscardingTransport())
        case let other:
            throw CAPIError("configuration: 'transport' is '\(other)'; expected ndjson, http or none")
        }
    }

    static func flushPolicy(_ reader: Reader) throws(CAPIError) -> FlushPolicy {
        let batchSize = try reader.integer("flush_batch_size") ?? 50
        guard (1...100_000).contains(batchSize) else { throw CAPIError("configuration: 'flush_batch_size' must be in 1…100000") }
        let interval: Duration?
        if case .null? = reader.document["flush_interval_seconds"] {
            interval = nil
        } else {
            let seconds = try reader.number("flush_interval_seconds") ?? 15
            guard seconds >= 0, seconds <= 86_400 else { throw CAPIError("configuration: 'flush_interval_seconds' must be in 0…86400") }
            interval = seconds == 0 ? nil : .milliseconds(Int64(seconds * 1000))
        }
        return FlushPolicy(batchSize: batchSize, interval: interval)
    }

    /// Typed reads of the configuration's members.
    struct Reader {
        let document: JSONValue

        func string(_ key: String) throws(CAPIError) -> String? {
            switch document[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            case let other?: throw CAPIError("configuration: '\(key)' must be a string, not \(other.typeName)")
            }
        }

        func bool(_ key: String) throws(CAPIError) -> Bool? {
            switch document[key] {
            case nil, .null?: return nil
            case .bool(let flag)?: return flag
            case let other?: throw CAPIError("configuration: '\(key)' must be a boolean, not \(other.typeName)")
            }
        }

        func integer(_ key: String) throws(CAPIError) -> Int? {
            switch document[key] {
            case nil, .null?: return nil
            case .integer(let number)? where number >= Int64(Int.min) && number <= Int64(Int.max): return Int(number)
            case let other?: throw CAPIError("configuration: '\(key)' must be an integer, not \(other.typeName)")
            }
        }

        func number(_ key: String) throws(CAPIError) -> Double? {
            switch document[key] {
            case nil, .null?: return nil
            case .integer(let number)?: return Double(number)
            case .number(let number)?: return number
            case let other?: throw CAPIError("configuration: '\(key)' must be a number, not \(other.typeName)")
            }
        }
    }
}

/// An error the C API reports as a message.
struct CAPIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
