import Foundation
import MarketCore
import PostgresNIO

extension PostgresMarketStore: MarketImporting {
    public func isEmpty() async throws -> Bool {
        try await first(
            """
            SELECT NOT EXISTS (SELECT 1 FROM vendor) AND NOT EXISTS (SELECT 1 FROM product)
                AND NOT EXISTS (SELECT 1 FROM image_blob)
            """, as: Bool.self) == true
    }

    public func importVendors(_ vendors: [StoredVendor]) async throws {
        try await database.transaction { session in
            for stored in vendors {
                let vendor = stored.vendor
                try await session.execute(
                    """
                    INSERT INTO vendor (id, identifier, name, secret_hash, created_at, team, team_seat)
                    VALUES (\(vendor.id), \(vendor.identifier), \(vendor.name), \(stored.secretHash), \(vendor.createdAt),
                        \(vendor.isTeam), \(vendor.teamSeat))
                    """)
            }
        }
    }

    public func importSessions(_ sessions: [StoredSession]) async throws {
        try await database.transaction { session in
            for stored in sessions {
                try await session.execute(
                    """
                    INSERT INTO vendor_session (token_hash, vendor_id, expires_at)
                    VALUES (\(stored.tokenHash), \(stored.vendorID), \(stored.expiresAt))
                    """)
            }
        }
    }

    /// A batch in three statements of bound arrays: a statement per row would run the triggers counting grams and
    /// versions per product. Arrays hold no NULL, so a missing cover is 0 and a missing password "" (never real ones).
    public func importProducts(_ products: [StoredProduct]) async throws {
        let rows = products.map(\.product)
        let images = rows.flatMap { product in product.images.enumerated().map { (product.id, $0, $1) } }
        let tokens = products.flatMap { stored in stored.deleteTokens.map { (stored.product.id, $0) } }
        try await database.transaction { session in
            try await session.execute(
                """
                INSERT INTO product (id, vendor_id, name, description, currency, price, discount, stock,
                    zero_sale_price_sent, cover_image_id, search_text, password_hash, created_at, updated_at, hidden)
                SELECT id, vendor_id, name, description, currency, price, discount, stock, zero_sale_price_sent,
                    NULLIF(cover_image_id, 0), search_text, NULLIF(password_hash, ''), created_at, updated_at, hidden
                FROM unnest(\(rows.map(\.id)), \(rows.map(\.vendor.id)), \(rows.map(\.name)), \(rows.map(\.description)),
                    \(rows.map(\.currency.rawValue)), \(rows.map(\.price)), \(rows.map(\.discount)), \(rows.map(\.stock)),
                    \(rows.map(\.zeroSalePriceSent)), \(rows.map { $0.coverImageID ?? 0 }),
                    \(rows.map { NewProduct.searchText(name: $0.name, description: $0.description) }),
                    \(products.map { $0.passwordHash ?? "" }), \(rows.map(\.createdAt)), \(rows.map(\.updatedAt)),
                    \(products.map(\.hidden)))
                    AS t(id, vendor_id, name, description, currency, price, discount, stock, zero_sale_price_sent,
                        cover_image_id, search_text, password_hash, created_at, updated_at, hidden)
                """)
            if !images.isEmpty {
                try await session.execute(
                    """
                    INSERT INTO product_image (id, product_id, position, original_key, thumbnail_key, width, height, created_at)
                    SELECT * FROM unnest(\(images.map { $0.2.id }), \(images.map(\.0)), \(images.map { $0.1 }),
                        \(images.map { $0.2.originalKey }), \(images.map { $0.2.thumbnailKey }), \(images.map { $0.2.width }),
                        \(images.map { $0.2.height }), \(images.map { $0.2.createdAt }))
                    """)
            }
            if !tokens.isEmpty {
                try await session.execute(
                    """
                    INSERT INTO delete_token (token_hash, product_id, issued_at)
                    SELECT * FROM unnest(\(tokens.map { $0.1.hash }), \(tokens.map(\.0)), \(tokens.map { $0.1.issuedAt }))
                    """)
            }
        }
    }

    public func finishImport(lastIDs: LastIDs) async throws {
        try await database.read { session in
            let counters = [("vendor", lastIDs.vendor), ("product", lastIDs.product), ("product_image", lastIDs.image)]
            for (table, last) in counters {
                try await session.execute(
                    """
                    SELECT setval(pg_get_serial_sequence(\(table), 'id'),
                        greatest(\(last), (SELECT coalesce(max(id), 0) FROM \(unescaped: table)), 1))
                    """)
            }
            // Fresh statistics and visibility for the planner: a copied market is read at once.
            try await session.execute("VACUUM (ANALYZE)")
        }
    }

    /// Row by row rather than truncated: the triggers that keep the totals and the search's counts run as for any
    /// product deleted.
    public func discardImport() async throws {
        try await database.transaction { session in
            for table in ["delete_token", "product_image", "product", "vendor_session", "vendor", "image_blob"] {
                try await session.execute("DELETE FROM \(unescaped: table)")
            }
        }
    }
}
