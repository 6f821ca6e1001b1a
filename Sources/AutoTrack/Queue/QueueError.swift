#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Why the durable queue could not do what was asked.
public enum QueueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file operation failed: which, on which file, and the `errno` when the system
    /// gave one (`ENOSPC` for a full disk, `EIO` …). Nothing of the failed call was
    /// acknowledged, and the queue goes on when the cause is gone.
    case io(operation: QueueFileOperation, path: String, errno: Int32?)
    /// Another queue — in this process or another — holds the store's lock.
    case locked(path: String)
    /// A record is larger than the queue allows.
    case recordTooLarge(bytes: Int, limit: Int)
    /// The queue was closed; nothing more can be appended.
    case closed

    /// What went wrong.
    public var description: String {
        switch self {
        case .io(let operation, let path, let code):
            "queue I/O failed: \(operation.rawValue) \(path)" + (code.map { ": errno \($0) (\(String(cString: strerror($0))))" } ?? "")
        case .locked(let path): "the queue store \(path) is in use by another queue (its lock is held)"
        case .recordTooLarge(let bytes, let limit): "a record of \(bytes) bytes exceeds the \(limit)-byte limit"
        case .closed: "the queue is closed"
        }
    }
}

/// The file operations of a durable queue, as named in its errors.
public enum QueueFileOperation: String, Hashable, Sendable {
    /// Creating the queue's directory.
    case createDirectory = "creating"
    /// Taking the store's lock.
    case lock = "locking"
    /// Opening a segment for appending.
    case openSegment = "opening"
    /// Opening the cursor file.
    case openCursor = "opening the cursor"
    /// Writing the cursor.
    case writeCursor = "writing the cursor"
    /// Appending records to a segment.
    case append = "appending to"
    /// Cutting a failed write back off a segment.
    case truncate = "truncating"
    /// `fsync` of a segment.
    case sync = "syncing"
}

/// Counters a queue reports. Every record that does not reach a transport is counted
/// here, by reason.
public struct QueueStatistics: Hashable, Sendable {
    /// Records waiting to be sent.
    public var pendingRecords: Int
    /// Their payload bytes.
    public var pendingBytes: Int
    /// Records dropped, oldest first, to stay within the limits.
    public var droppedOldest: Int
    /// Complete records recovered from disk when the queue was opened.
    public var recoveredRecords: Int
    /// Bytes after the last intact record of the newest segment, cut off when the
    /// queue was opened: a record torn by a crash, the zeros a power cut leaves, or
    /// the zeros reserved ahead of synced appends by a process that ended without
    /// closing the queue. Never acknowledged records.
    public var truncatedBytes: Int
    /// Damaged records skipped when the queue was opened (a bad checksum, length or
    /// header); recovery resumes at the next intact record.
    public var damagedRecords: Int
    /// Bytes skipped with them.
    public var skippedBytes: Int
    /// Records found unreadable when read for sending — their segment was deleted,
    /// replaced or damaged while the queue was open — and skipped so the rest go out.
    public var unreadableRecords: Int
    /// Segments found missing or unreadable (when opened or read).
    public var missingSegments: Int
    /// Appends refused because a write or `fsync` failed (nothing of them was kept).
    public var writeFailures: Int
    /// Times the head could not be persisted after an append dropped the oldest
    /// records (the append itself was kept; the head is written again later).
    public var cursorWriteFailures = 0

    /// Creates counters; all zero by default.
    public init(
        pendingRecords: Int = 0, pendingBytes: Int = 0, droppedOldest: Int = 0, recoveredRecords: Int = 0, truncatedBytes: Int = 0,
        damagedRecords: Int = 0, skippedBytes: Int = 0, unreadableRecords: Int = 0, missingSegments: Int = 0, writeFailures: Int = 0
    ) {
        self.pendingRecords = pendingRecords
        self.pendingBytes = pendingBytes
        self.droppedOldest = droppedOldest
        self.recoveredRecords = recoveredRecords
        self.truncatedBytes = truncatedBytes
        self.damagedRecords = damagedRecords
        self.skippedBytes = skippedBytes
        self.unreadableRecords = unreadableRecords
        self.missingSegments = missingSegments
        self.writeFailures = writeFailures
    }
}
