import Foundation
import GRDB
import MarketCore

/// A whole market in one file: a consistent copy of its SQLite database, with two tables more for what lives beside it,
/// the picture bytes and the session key. Being SQLite, it is checked on opening and readable with the `sqlite3` tool.
public struct MarketSnapshotFile: Sendable {
    let queue: DatabaseQueue

    /// Writes `store`'s database, consistently even while it serves, into a new file at `path` that
    /// only its owner may read: it holds every secret's hash and the session key.
    public static func create(at path: String, from store: SQLiteMarketStore) throws -> MarketSnapshotFile {
        try OwnerOnlyFile.create(atPath: path)
        try store.pool.vacuum(into: path)
        let file = try MarketSnapshotFile(path: path)
        try file.queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE snapshotImage (key TEXT PRIMARY KEY, data BLOB NOT NULL);
                    CREATE TABLE snapshotSetting (name TEXT PRIMARY KEY, value BLOB NOT NULL);
                    """)
        }
        return file
    }

    /// Opens a snapshot; a file that is not one is refused in words.
    public init(path: String) throws {
        do {
            queue = try DatabaseQueue(path: path)
            _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM vendor") }
        } catch {
            throw SetupError("\(path) is not a market snapshot (\(error))")
        }
    }

    public func addImage(_ data: Data, key: String) throws {
        try queue.write { db in
            try db.execute(sql: "INSERT INTO snapshotImage (key, data) VALUES (?, ?)", arguments: [key, data])
        }
    }

    public func setSessionKey(_ key: Data) throws {
        try queue.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO snapshotSetting (name, value) VALUES ('sessionKey', ?)", arguments: [key])
        }
    }

    public func sessionKey() throws -> Data? {
        try queue.read { db in try Data.fetchOne(db, sql: "SELECT value FROM snapshotSetting WHERE name = 'sessionKey'")
        }
    }

    public func imageKeys() throws -> [String] {
        try queue.read { db in try String.fetchAll(db, sql: "SELECT key FROM snapshotImage ORDER BY key") }
    }

    public func image(key: String) throws -> Data? {
        try queue.read { db in
            try Data.fetchOne(db, sql: "SELECT data FROM snapshotImage WHERE key = ?", arguments: [key])
        }
    }

    /// Turns the snapshot into a market database at `path`: the copy without the snapshot's own tables.
    public func writeDatabase(to path: String) throws {
        try queue.vacuum(into: path)
        let database = try DatabaseQueue(path: path)
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "DROP TABLE snapshotImage; DROP TABLE snapshotSetting; VACUUM")
        }
        try database.close()
    }
}
