/// AutoTrackEvents: `Event` appears in this file's public API.
public import AutoTrackEvents

extension EventJSONEncoder {
    /// A batch as one JSON array of events, in the given order, using this encoder's
    /// layout.
    public func encodeBatch(_ events: some Sequence<Event>) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 4096)
        writer.write(0x5B) // [
        var first = true
        for event in events {
            separate(first: first, into: &writer, indent: 1)
            first = false
            write(event, into: &writer, indent: 1)
        }
        if first {
            writer.write(0x5D)
        } else {
            close(0x5D, into: &writer, indent: 0)
        }
        return writer.finish()
    }

    /// A batch as NDJSON: each event compact on its own line, every line ending in
    /// `\n`. Always compact whatever ``layout`` says, since a line is a record.
    public func encodeNDJSON(_ events: some Sequence<Event>) -> [UInt8] {
        var compact = self
        compact.layout = .compact
        var writer = JSONWriter(reservingCapacity: 4096)
        for event in events {
            compact.write(event, into: &writer, indent: 0)
            writer.write(0x0A)
        }
        return writer.finish()
    }
}
