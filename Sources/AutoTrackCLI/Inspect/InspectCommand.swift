import AutoTrackEvents
import AutoTrackSampleSession
import AutoTrackSerialization
import Foundation

/// `autotrack inspect --out DIR [--events FILE]`: the sample app's screens as one
/// self-contained HTML page (圈选), with a heat map of the `$AppClick`s in an NDJSON
/// events file.
struct InspectCommand {
    let outputDirectory: String
    let eventsFile: String?

    func run() throws -> Int32 {
        let page = try Self.write(to: URL(fileURLWithPath: outputDirectory), events: eventsFile.map { URL(fileURLWithPath: $0) })
        print("Wrote \(page.path)")
        print("Open it in a browser (it needs no network): file://\(page.path)")
        return 0
    }

    /// Writes `index.html` under `directory`; returns its URL.
    static func write(to directory: URL, events: URL?) throws -> URL {
        var clicks: [String: Int] = [:]
        if let events {
            let bytes = [UInt8](try Data(contentsOf: events))
            for event in try EventJSONDecoder().decodeNDJSON(from: bytes) where event.name == .appClick {
                if case .string(let id)? = event.properties["$element_id"] { clicks[id, default: 0] += 1 }
            }
        }
        let html = try InspectPage.html(try ScreenInspection.make(), clicks: clicks, source: events?.lastPathComponent)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let page = directory.appendingPathComponent("index.html")
        try Data(html.utf8).write(to: page)
        return page
    }
}
