import AutoTrackCollector
import AutoTrackEvents
import AutoTrackSerialization
import Foundation

/// `autotrack collector`: the local collector in the foreground, printing what it
/// receives and refuses — a target for `autotrack demo --endpoint`.
struct CollectorCommand {
    /// Writes unbuffered, so batches and the banner appear in order even in a pipe.
    private static func emit(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }

    let port: UInt16
    /// Stop after this many seconds (nil: run until interrupted).
    let duration: Double?

    func run() throws -> Int32 {
        let encoder = EventJSONEncoder()
        let collector = try LocalCollector(port: port, onBatch: { batch in
            var lines = "received \(batch.count) event\(batch.count == 1 ? "" : "s")\n"
            for event in batch { lines += "  " + encoder.encodeToString(event) + "\n" }
            Self.emit(lines)
        }, onRefusal: { refusal in
            // One line per refused request or connection, when it happens.
            Self.emit("\(refusal)\n")
        })
        Self.emit("AutoTrack collector listening on \(collector.url) (both wire formats)\n"
             + "Try: swift run autotrack demo --endpoint \(collector.url)\n")
        if let duration {
            Thread.sleep(forTimeInterval: duration)
        } else {
            while true { Thread.sleep(forTimeInterval: 3600) }
        }
        collector.stop()
        Self.emit("\(collector.uniqueEvents.count) events stored: \(collector.counts)\n")
        return 0
    }
}
