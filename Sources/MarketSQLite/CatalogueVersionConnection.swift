import Foundation
import GRDBSQLite
import Synchronization

/// A connection of its own that reads the catalogue's version on the caller's thread, in a few
/// microseconds: a read through the pool hands the work to a reader thread and back, which cost
/// more than the read itself for every kept answer. While the wal-index header is the one seen
/// before the last read, it gives that read's version without reading (a sixth of a kept answer's
/// time went to the read).
final class CatalogueVersionConnection: @unchecked Sendable {  // the handles are used only under `lock`
    /// The header seen just before the last read, and the version that read gave.
    private struct Seen {
        var header: SIMD8<UInt64>
        var version: Int64
    }

    private let lock = Mutex<Seen?>(nil)
    private let connection: OpaquePointer
    private let statement: OpaquePointer
    private let walIndex: WALIndexHeader?

    init?(path: String, walIndex: WALIndexHeader?) {
        var connection: OpaquePointer?
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
            let connection
        else {
            sqlite3_close(connection)
            return nil
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "SELECT version FROM catalogueVersion", -1, &statement, nil) == SQLITE_OK,
            let statement
        else {
            sqlite3_close(connection)
            return nil
        }
        self.connection = connection
        self.statement = statement
        self.walIndex = walIndex
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close(connection)
    }

    /// The version committed now, or nil when SQLite cannot answer at once (busy, or any error): the
    /// caller then reads through the pool, which waits or says why. The lock is only ever held for
    /// one such read, so waiting for it is waiting a few microseconds.
    func read() -> Int64? {
        lock.withLock { readLocked(&$0) }
    }

    /// The same, or `.none` at once when another thread is reading through this connection.
    func readIfFree() -> Int64?? {
        lock.withLockIfAvailable { readLocked(&$0) }
    }

    private func readLocked(_ seen: inout Seen?) -> Int64? {
        // The header first: the read then sees at least what it says, and a commit between the two
        // only makes the next call read again.
        let header = walIndex?.read()
        if let header, let seen, seen.header == header { return seen.version }
        // Reset before returning, so that no read transaction stays open between calls.
        defer { sqlite3_reset(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
        let version = sqlite3_column_int64(statement, 0)
        seen = header.map { Seen(header: $0, version: version) }
        return version
    }
}

/// Connections that read the catalogue's version, one per thread that may ask at once: with one,
/// the front desk's threads waited for each other's reads, and a thread that waits for a lock held
/// by another is put to sleep and woken by the kernel, which cost more than the read.
struct CatalogueVersionConnections: Sendable {
    private let connections: [CatalogueVersionConnection]

    init(path: String, count: Int = ProcessInfo.processInfo.activeProcessorCount) {
        let walIndex = WALIndexHeader(databasePath: path)
        connections = (0..<max(count, 1)).compactMap { _ in CatalogueVersionConnection(path: path, walIndex: walIndex) }
    }

    /// The version committed now, through a connection no other thread is using if there is one;
    /// nil when it cannot be read at once (`CatalogueVersionConnection.read`).
    func read() -> Int64? {
        for connection in connections {
            if let version = connection.readIfFree() { return version }
        }
        return connections.first?.read()
    }
}
