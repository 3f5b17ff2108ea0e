import Foundation
import MarketCore
import PostgresNIO

/// Image bytes in the market's database, by content hash, so that a second server needs only its URL.
/// Blobs go in before the rows that name them; `touched_at` keeps one about to be named out of a sweep.
public struct PostgresImageStore: ImageStore {
    let database: MarketDatabase

    public func checkWritable() async throws { try await database.checkWritable() }

    public func put(_ data: Data, key: String) async throws {
        try await database.read { session in
            // Most puts of an existing blob only need its time moved; the bytes go over the wire only when it is new.
            let touched = try await session.first(
                "UPDATE image_blob SET touched_at = now() WHERE key = \(key) RETURNING true", as: Bool.self)
            guard touched == nil else { return }
            try await session.execute(
                """
                INSERT INTO image_blob (key, bytes) VALUES (\(key), \(data))
                ON CONFLICT (key) DO UPDATE SET touched_at = now()
                """)
        }
    }

    public func content(forKey key: String) async throws -> ImageContent? {
        try await database.read { session in
            try await session.first("SELECT bytes FROM image_blob WHERE key = \(key)", as: Data.self)
                .map(ImageContent.bytes)
        }
    }

    public func keys(unusedFor interval: Duration) async throws -> [String] {
        try await database.read { session in
            try await session.all(
                "SELECT key FROM image_blob WHERE touched_at <= now() - make_interval(secs => \(interval.seconds))",
                as: String.self)
        }
    }

    public func remove(key: String, ifUnusedFor interval: Duration) async throws -> Bool {
        // A put of the same key waits for this row's lock, then inserts the blob anew; a put that
        // came first has moved touched_at, and this deletes nothing.
        try await database.read { session in
            try await session.first(
                """
                DELETE FROM image_blob
                WHERE key = \(key) AND touched_at <= now() - make_interval(secs => \(interval.seconds))
                RETURNING true
                """, as: Bool.self) != nil
        }
    }
}
