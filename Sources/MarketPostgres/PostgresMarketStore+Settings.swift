import Foundation
import MarketCore
import PostgresNIO

/// The storefront's session key, kept in the database so that every server seals and opens the
/// same cookies: the first server to start stores a random one, race-free.
enum SessionKeySetting {
    static let name = "session_key"

    static func read(in session: DatabaseSession) async throws -> Data {
        let proposed = SessionKey.random().bytes
        try await session.execute(
            "INSERT INTO market_setting (name, value) VALUES (\(name), \(proposed)) ON CONFLICT (name) DO NOTHING")
        return try await session.single("SELECT value FROM market_setting WHERE name = \(name)", as: Data.self)
    }
}

extension PostgresMarketStore {
    /// Replaces the session key, for a market copied from elsewhere with its signed-in visitors.
    public func replaceSessionKey(with key: Data) async throws {
        try await execute("UPDATE market_setting SET value = \(key) WHERE name = \(SessionKeySetting.name)")
    }
}
