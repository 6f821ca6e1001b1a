package import AutoTrackEvents

/// Events encoded one after another into one buffer, each after a gap of a fixed
/// size that the store fills in with the record's frame header.
///
/// A tracker's worker stores a batch of events as one write. Encoded one by one, each
/// event was first written into an encoder's buffer, copied into an array of its own,
/// then copied again behind its header; here the JSON is written once, where it is
/// stored.
package struct EventRecordWriter: ~Copyable {
    private var writer: JSONWriter
    /// The bytes left before each record's JSON.
    private let headerBytes: Int
    /// The JSON length of each record, in order.
    package private(set) var payloadSizes: [Int] = []

    /// An empty batch with room for about `capacity` bytes.
    package init(headerBytes: Int, reservingCapacity capacity: Int) {
        self.headerBytes = headerBytes
        writer = JSONWriter(reservingCapacity: capacity)
    }

    /// Appends the gap and `event`'s compact JSON, written as
    /// `EventJSONEncoder.encode(_:after:tails:)` returns it; the JSON's length.
    @discardableResult
    package mutating func append(
        _ event: Event, encoder: EventJSONEncoder, after prefix: EncodedPropertyPrefix, tails: inout EncodedEventTails?
    ) -> Int {
        writer.writeZeros(headerBytes)
        let start = writer.count
        encoder.write(event, after: prefix, tails: &tails, into: &writer)
        let size = writer.count - start
        payloadSizes.append(size)
        return size
    }

    /// Takes the last record out again (one too large to store).
    package mutating func removeLast() {
        guard let size = payloadSizes.popLast() else { return }
        writer.truncate(to: writer.count - size - headerBytes)
    }

    /// The whole batch — gaps and JSON — to fill the gaps in and store.
    package mutating func withBytes<Result, Failure: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try writer.withWrittenBytes(body)
    }
}
