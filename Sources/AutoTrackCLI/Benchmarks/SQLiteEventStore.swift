#if AUTOTRACK_SQLITE
import CSQLite
import Foundation

/// An event store the way SDKs that keep their queue in SQLite write it: one row per
/// event — its JSON in a text column and its time, under an autoincrement key, with an
/// index on the time (the shape of Sensors Analytics' Android store). Used by
/// `bench pipeline` to compare our queue with it at equal durability.
final class SQLiteEventStore {
    /// How the database is opened: the journal and when SQLite calls `fsync`.
    struct Mode {
        /// `PRAGMA journal_mode=WAL` (else the rollback journal, SQLite's default).
        var writeAheadLog: Bool
        /// `PRAGMA synchronous=FULL` (an `fsync` at every commit) or `OFF` (none).
        var syncEachCommit: Bool
    }

    /// A failed SQLite call, with SQLite's message.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var database: OpaquePointer?
    private var insert: OpaquePointer?

    /// Opens (creating) the database at `path` in `mode`, with the peers' table.
    init(path: String, mode: Mode) throws {
        guard sqlite3_open(path, &database) == SQLITE_OK else { throw failure("open") }
        try execute("PRAGMA journal_mode=\(mode.writeAheadLog ? "WAL" : "DELETE")")
        try execute("PRAGMA synchronous=\(mode.syncEachCommit ? "FULL" : "OFF")")
        try execute("CREATE TABLE IF NOT EXISTS events (_id INTEGER PRIMARY KEY AUTOINCREMENT, data TEXT NOT NULL, created_at INTEGER NOT NULL)")
        try execute("CREATE INDEX IF NOT EXISTS time_idx ON events (created_at)")
        guard sqlite3_prepare_v2(database, "INSERT INTO events(data, created_at) VALUES (?, ?)", -1, &insert, nil) == SQLITE_OK else {
            throw failure("prepare")
        }
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close(database)
    }

    /// Stores `payloads`, each as its own row: in one transaction, or each committed on
    /// its own (autocommit, as an SDK inserting each event as it is tracked).
    func store(_ payloads: [[UInt8]], inOneTransaction: Bool) throws {
        if inOneTransaction { try execute("BEGIN") }
        for payload in payloads {
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            // Bound without a copy: the step runs while the bytes are borrowed.
            let stepped = payload.withUnsafeBytes { bytes in
                sqlite3_bind_text(insert, 1, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil) == SQLITE_OK
                    && sqlite3_bind_int64(insert, 2, now) == SQLITE_OK && sqlite3_step(insert) == SQLITE_DONE
            }
            guard stepped else { throw failure("insert") }
            sqlite3_reset(insert)
        }
        if inOneTransaction { try execute("COMMIT") }
    }

    /// How many rows the store holds.
    func count() throws -> Int {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "SELECT count(*) FROM events", -1, &statement, nil) == SQLITE_OK else { throw failure("count") }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw failure("count") }
        return Int(sqlite3_column_int64(statement, 0))
    }

    /// The SQLite library's version, e.g. `3.40.1`.
    static var version: String { String(cString: sqlite3_libversion()) }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    private func failure(_ operation: String) -> Failure {
        Failure(description: "\(operation): \(database.map { String(cString: sqlite3_errmsg($0)) } ?? "no database")")
    }
}
#endif
