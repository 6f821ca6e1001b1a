import AutoTrackEvents
import AutoTrackSampleSession
import AutoTrackSerialization
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `autotrack inspect --out DIR [--events FILE]`: the sample app's screens as one
/// self-contained HTML page (圈选), with a heat map of the `$AppClick`s in an NDJSON
/// events file. `autotrack inspect --serve [--port P]`: the scripted session live on
/// loopback, the page following each step.
struct InspectCommand {
    let outputDirectory: String
    let eventsFile: String?
    /// Serve the live session on this port (0: any free one) instead of writing a file.
    var servePort: UInt16?

    func run() throws -> Int32 {
        if let servePort {
            // Runs until interrupted: whatever mask it was started with, SIGINT and
            // SIGTERM end it.
            var stopping = sigset_t()
            sigemptyset(&stopping)
            sigaddset(&stopping, SIGINT)
            sigaddset(&stopping, SIGTERM)
            pthread_sigmask(SIG_UNBLOCK, &stopping, nil)
            let server = try InspectServer(port: servePort, session: try LiveSession())
            // Written unbuffered: a script waiting for this line reads it at once.
            FileHandle.standardOutput.write(Data(
                "serving http://127.0.0.1:\(server.port)/ — POST /step performs the session's next step; the page follows\n".utf8))
            server.serve()
        }
        let page = try Self.write(to: URL(fileURLWithPath: outputDirectory), events: eventsFile.map { URL(fileURLWithPath: $0) })
        print("Wrote \(page.path)")
        print("Open it in a browser (it needs no network): file://\(page.path)")
        return 0
    }

    /// Writes `index.html` under `directory`; returns its URL.
    static func write(to directory: URL, events: URL?) throws -> URL {
        var heat = ClickHeat()
        if let events {
            let bytes = [UInt8](try Data(contentsOf: events))
            heat = ClickHeat(events: try EventJSONDecoder().decodeNDJSON(from: bytes))
        }
        let html = try InspectPage.html(try ScreenInspection.make(), heat: heat, source: events?.lastPathComponent)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let page = directory.appendingPathComponent("index.html")
        try Data(html.utf8).write(to: page)
        return page
    }
}
