import Foundation
import MarketCore
import MarketModel
import PostgresNIO

/// Sign-ins, and secret check failures for the throttle: in the database every server shares.
extension PostgresMarketStore {
    public func insertSession(tokenHash: String, vendorID: Int64, expiresAt: Date, now: Date) async throws {
        try await database.transaction { session in
            try await session.execute("DELETE FROM vendor_session WHERE expires_at <= \(now)")
            try await session.execute(
                """
                INSERT INTO vendor_session (token_hash, vendor_id, expires_at)
                VALUES (\(tokenHash), \(vendorID), \(expiresAt))
                """)
        }
    }

    public func vendor(forSession tokenHash: String, at now: Date) async throws -> Vendor? {
        try await all(
            """
            SELECT \(unescaped: Self.vendorColumns)
            FROM vendor_session s JOIN vendor v ON v.id = s.vendor_id
            WHERE s.token_hash = \(tokenHash) AND s.expires_at > \(now)
            """, as: Self.VendorRow.self
        ).first.map(Self.vendor)
    }

    public func deleteSession(tokenHash: String) async throws {
        try await execute("DELETE FROM vendor_session WHERE token_hash = \(tokenHash)")
    }

    public func replaceSecret(ofVendor identifier: String, with secretHash: String) async throws -> Bool {
        try await database.transaction { session in
            guard
                let id = try await session.first(
                    "UPDATE vendor SET secret_hash = \(secretHash) WHERE identifier = \(identifier) RETURNING id",
                    as: Int64.self)
            else { return false }
            try await session.execute("DELETE FROM vendor_session WHERE vendor_id = \(id)")
            return true
        }
    }

    public func failedAttempts(under keys: [String], since: Date) async throws -> [FailedAttempts] {
        try await all(
            "SELECT key, count, last_at FROM failed_attempt WHERE key = ANY(\(keys)) AND last_at >= \(since)",
            as: (String, Int, Date).self
        ).map { FailedAttempts(key: $0, count: $1, last: $2) }
    }

    public func recordFailedAttempt(under keys: [String], at date: Date, since: Date) async throws {
        try await database.transaction { session in
            try await session.execute("DELETE FROM failed_attempt WHERE last_at < \(since)")
            for key in keys.sorted() {
                try await session.execute(
                    """
                    INSERT INTO failed_attempt (key, count, last_at) VALUES (\(key), 1, \(date))
                    ON CONFLICT (key) DO UPDATE SET count = failed_attempt.count + 1, last_at = excluded.last_at
                    """)
            }
        }
    }

    public func clearFailedAttempts(under key: String) async throws {
        try await execute("DELETE FROM failed_attempt WHERE key = \(key)")
    }
}
