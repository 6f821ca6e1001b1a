// MARK: Space reserved ahead of synced appends

extension DurableQueue {
    /// How far ahead of a synced append the write segment is filled with zeros, unless
    /// the queue was opened with another ``reservationBytes``.
    package static let defaultReservationBytes = 256 << 10

    /// Zeros written by a reservation, a chunk at a time.
    private static let zeros = [UInt8](repeating: 0, count: 64 << 10)

    /// Before a synced append ending at `end`: when `end` is past the write segment's
    /// size, fills the segment with zeros from `end` to the next reservation boundary
    /// (never past the segment's limit). Best effort: where the zeros do not fit (a
    /// nearly full disk) they are cut off again and the append goes on unreserved, as
    /// it would have without them.
    ///
    /// A synced append that grows its file makes the file system commit the new size
    /// and blocks with the data — a journal commit on each `fdatasync`. Written over
    /// zeros already on disk, the append's `fdatasync` writes only its data: one
    /// reservation (a larger write and one commit) serves the appends of the next
    /// ``reservationBytes`` (none when it is 0). The zeros hold no record: recovery
    /// cuts them off with the newest segment's tail, and a closed queue gives them
    /// back. After a reservation that did not fit, the segment is not reserved again:
    /// retrying would fill a nearly full disk for a moment on every append.
    func reserve(_ state: inout State, through end: Int) {
        guard reservationBytes > 0, !state.reservationRefused, end > state.writeCapacity else { return }
        let boundary = (end / reservationBytes + 1) * reservationBytes
        let reservedEnd = min(boundary, max(end, limits.segmentBytes))
        guard reservedEnd > end else { return }
        var offset = end
        while offset < reservedEnd {
            let count = min(Self.zeros.count, reservedEnd - offset)
            let failure = Self.zeros.withUnsafeBytes { zeros in
                writeAll(UnsafeRawBufferPointer(rebasing: zeros[0..<count]), at: offset, state: state, sync: false)
            }
            if failure != nil {
                // The size stays as the queue knew it (if even the cut fails, the zeros
                // left are a tail the next opening cuts).
                _ = files.truncate(state.writeDescriptor, to: state.writeCapacity)
                state.reservationRefused = true
                return
            }
            offset += count
        }
        state.writeCapacity = max(state.writeCapacity, reservedEnd)
    }

    /// Cuts the write segment's unused reservation off; whether it was cut. Best
    /// effort: zeros left behind hold no record (recovery counts them as a damaged
    /// stretch of an older segment, or cuts them with the newest one's tail).
    @discardableResult
    func trimReservation(_ state: inout State) -> Bool {
        guard state.writeCapacity > state.writeOffset,
              files.truncate(state.writeDescriptor, to: state.writeOffset) == 0 else { return false }
        state.writeCapacity = state.writeOffset
        return true
    }
}
