import Foundation
import MarketCore
import MarketModel
import PostgresNIO

/// A market copied out, ids and all: how a PostgreSQL market is saved in a snapshot.
extension PostgresMarketStore: MarketExporting {
    public func exportVendors() async throws -> [StoredVendor] { try await storedVendors() }

    public func exportSessions(at now: Date) async throws -> [StoredSession] {
        try await all(
            "SELECT token_hash, vendor_id, expires_at FROM vendor_session WHERE expires_at > \(now)",
            as: (String, Int64, Date).self
        ).map { StoredSession(tokenHash: $0, vendorID: $1, expiresAt: $2) }
    }

    public func productCount() async throws -> Int {
        Int(try await first("SELECT count(*) FROM product", as: Int64.self) ?? 0)
    }

    public func exportProducts(after id: Int64, limit: Int) async throws -> [StoredProduct] {
        try await database.read { session in
            let rows = try await session.query(
                "SELECT id, password_hash, hidden FROM product WHERE id > \(id) ORDER BY id LIMIT \(limit)"
            ).decode((Int64, String?, Bool).self).collect()
            var products: [StoredProduct] = []
            for (productID, passwordHash, hidden) in rows {
                guard let product = try await Self.product(id: productID, in: session) else { continue }
                let tokens = try await session.query(
                    "SELECT token_hash, issued_at FROM delete_token WHERE product_id = \(productID) ORDER BY token_hash"
                ).decode((String, Date).self).collect().map { DeleteToken(hash: $0, issuedAt: $1) }
                products.append(
                    StoredProduct(product: product, passwordHash: passwordHash, deleteTokens: tokens, hidden: hidden))
            }
            return products
        }
    }

    /// The sequences' last values: ids given out once, deleted rows included.
    public func lastIDs() async throws -> LastIDs {
        try await database.read { session in
            func last(_ sequence: String) async throws -> Int64 {
                try await session.single(
                    "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM \(unescaped: sequence)", as: Int64.self)
            }
            return LastIDs(
                vendor: try await last("vendor_id_seq"), product: try await last("product_id_seq"),
                image: try await last("product_image_id_seq"))
        }
    }
}
