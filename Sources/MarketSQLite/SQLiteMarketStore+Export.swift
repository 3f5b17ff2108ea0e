import Foundation
import GRDB
import MarketCore

extension SQLiteMarketStore: MarketExporting {
    public func exportVendors() async throws -> [StoredVendor] {
        try await rows("SELECT * FROM vendor ORDER BY id") { Self.storedVendor(from: $0) }
    }

    public func exportSessions(at now: Date) async throws -> [StoredSession] {
        try await rows("SELECT * FROM vendorSession WHERE expiresAt > ?", [now]) {
            StoredSession(tokenHash: $0["tokenHash"], vendorID: $0["vendorId"], expiresAt: $0["expiresAt"])
        }
    }

    public func productCount() async throws -> Int { try await value("SELECT count(*) FROM product") ?? 0 }

    public func exportProducts(after id: Int64, limit: Int) async throws -> [StoredProduct] {
        try await read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, passwordHash, hidden FROM product WHERE id > ? ORDER BY id LIMIT ?",
                arguments: [id, limit])
            return try rows.map { row in
                let id: Int64 = row["id"]
                let tokens = try Row.fetchAll(
                    db, sql: "SELECT tokenHash, issuedAt FROM deleteToken WHERE productId = ? ORDER BY tokenHash",
                    arguments: [id]
                ).map { DeleteToken(hash: $0["tokenHash"], issuedAt: $0["issuedAt"]) }
                return StoredProduct(
                    product: try Self.product(id: id, in: db)!, passwordHash: row["passwordHash"],
                    deleteTokens: tokens, hidden: row["hidden"])
            }
        }
    }

    public func lastIDs() async throws -> LastIDs {
        try await read { db in
            func last(_ table: String) throws -> Int64 {
                try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table]) ?? 0
            }
            return LastIDs(vendor: try last("vendor"), product: try last("product"), image: try last("productImage"))
        }
    }
}
