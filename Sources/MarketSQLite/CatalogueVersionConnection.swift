import Foundation
import GRDBSQLite
import Synchronization

/// A connection of its own that reads the catalogue's version on the caller's thread, in a few
/// microseconds: a read through the pool hands the work to a reader thread and back, which cost
/// more than the read itself for every kept answer.
final class CatalogueVersionConnection: @unchecked Sendable {  // the handles are used only under `lock`
    private let lock = Mutex(())
    private let connection: OpaquePointer
    private let statement: OpaquePointer

    init?(path: String) {
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
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close(connection)
    }

    /// The version committed now, or nil when SQLite cannot answer at once (busy, or any error): the
    /// caller then reads through the pool, which waits or says why. The lock is only ever held for
    /// one such read, so waiting for it is waiting a few microseconds.
    func read() -> Int64? {
        lock.withLock { _ in readLocked() }
    }

    /// The same, or `.none` at once when another thread is reading through this connection.
    func readIfFree() -> Int64?? {
        lock.withLockIfAvailable { _ in readLocked() }
    }

    private func readLocked() -> Int64? {
        // Reset before returning, so that no read transaction stays open between calls.
        defer { sqlite3_reset(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
        return sqlite3_column_int64(statement, 0)
    }
}

/// Connections that read the catalogue's version, one per thread that may ask at once: with one,
/// the front desk's threads waited for each other's reads, and a thread that waits for a lock held
/// by another is put to sleep and woken by the kernel, which cost more than the read.
struct CatalogueVersionConnections: Sendable {
    private let connections: [CatalogueVersionConnection]

    init(path: String, count: Int = ProcessInfo.processInfo.activeProcessorCount) {
        connections = (0..<max(count, 1)).compactMap { _ in CatalogueVersionConnection(path: path) }
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
