import Foundation
import GRDB
import MarketCore
import MarketModel

/// Sign-ins, and secret check failures for the throttle.
extension SQLiteMarketStore {
    public func insertSession(tokenHash: String, vendorID: Int64, expiresAt: Date, now: Date) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM vendorSession WHERE expiresAt <= ?", arguments: [now])
            try db.execute(
                sql: "INSERT INTO vendorSession (tokenHash, vendorId, expiresAt) VALUES (?, ?, ?)",
                arguments: [tokenHash, vendorID, expiresAt])
        }
    }

    public func vendor(forSession tokenHash: String, at now: Date) async throws -> Vendor? {
        try await row(
            """
            SELECT v.* FROM vendorSession s JOIN vendor v ON v.id = s.vendorId
            WHERE s.tokenHash = ? AND s.expiresAt > ?
            """, [tokenHash, now]
        ) { Self.vendor(from: $0) }
    }

    public func deleteSession(tokenHash: String) async throws {
        try await execute("DELETE FROM vendorSession WHERE tokenHash = ?", [tokenHash])
    }

    public func replaceSecret(ofVendor identifier: String, with secretHash: String) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: "UPDATE vendor SET secretHash = ? WHERE identifier = ?", arguments: [secretHash, identifier])
            guard db.changesCount > 0 else { return false }
            try db.execute(
                sql: "DELETE FROM vendorSession WHERE vendorId = (SELECT id FROM vendor WHERE identifier = ?)",
                arguments: [identifier])
            return true
        }
    }

    public func failedAttempts(under keys: [String], since: Date) async throws -> [FailedAttempts] {
        try await rows(
            "SELECT * FROM failedAttempt WHERE key IN (\(databaseQuestionMarks(count: keys.count))) AND lastAt >= ?",
            StatementArguments(keys) + [since]
        ) { FailedAttempts(key: $0["key"], count: $0["count"], last: $0["lastAt"]) }
    }

    public func recordFailedAttempt(under keys: [String], at date: Date, since: Date) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM failedAttempt WHERE lastAt < ?", arguments: [since])
            for key in keys {
                try db.execute(
                    sql: """
                        INSERT INTO failedAttempt (key, count, lastAt) VALUES (?, 1, ?)
                        ON CONFLICT (key) DO UPDATE SET count = count + 1, lastAt = excluded.lastAt
                        """,
                    arguments: [key, date])
            }
        }
    }

    public func clearFailedAttempts(under key: String) async throws {
        try await execute("DELETE FROM failedAttempt WHERE key = ?", [key])
    }
}
